import FrostCompose
import FrostCore
@testable import FrostMotion
import Testing

/// The motion keys of the scene format: what they read into, and one-line errors with JSON paths.
@Suite struct MotionCodingTests {
    static func scene(_ layer: String, timeline: String = #"{"driver": "scroll", "from": 0, "to": 100, "frames": 5}"#) -> [UInt8] {
        Array(#"{"width": 100, "height": 100, "timeline": \#(timeline), "layers": [\#(layer)]}"#.utf8)
    }

    @Test func readsTheIssuesExample() throws {
        let json = Self.scene(#"""
            { "type": "image", "file": "photo.jpg", "frame": [0, 0, 390, 320],
              "animate": {
                "frame.y":   { "keys": [[0, 0], [300, 150]] },
                "opacity":   { "keys": [[0, 1], [20, 0]], "ease": "ease-in-out" },
                "transform.scale": { "by": "time", "keys": [[0, 1], [0.5, 0.95]],
                                     "ease": { "spring": { "response": 0.5, "dampingFraction": 0.8 } } } } }
            """#)
        let motion = try MotionScene(json: json)
        #expect(motion.timeline == .scroll(from: 0, to: 100, frames: 5))
        let animations = try #require(motion.motions[[0]]).animations
        #expect(animations.map(\.property) == [.frameY, .opacity, .scale])
        #expect(animations[1].keyframes?.easing == .cubicBezier(.easeInOut))
        #expect(animations[2].driver == .time && animations[2].keyframes?.easing == .spring(Spring(response: 0.5, dampingFraction: 0.8)))
        let seen = motion.resolved(at: DriverState(scroll: 150, time: 0.25))
        #expect(seen.layers[0].frame == Rect(x: 0, y: 75, width: 390, height: 320))
        #expect(seen.layers[0].opacity == 0)
        #expect(abs(seen.layers[0].transform.scale - (1 - 0.05 * Spring(response: 0.5, dampingFraction: 0.8).value(at: 0.25))) < 1e-12)
    }

    @Test func aPlainSceneIsAMotionSceneWithNothingMoving() throws {
        let motion = try MotionScene(json: Array(#"{"width": 10, "height": 10, "layers": [{"type": "color", "color": "white"}]}"#.utf8))
        #expect(motion.timeline == nil && motion.motions.isEmpty && motion.staticLayerKeys == ["layers[0]"])
    }

    @Test(arguments: [
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1], [20, 0], [10, 1]]}}}"#,
         "layers[0].animate.opacity.keys[2]: keys must ascend in driver value (10 comes after 20)"),
        (#"{"type": "color", "color": "white", "animate": {"rotation": {"keys": [[0, 1]]}}}"#,
         "layers[0].animate.rotation: unknown property (animatable: frame, frame.x"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "ease": {"spring": {"response": 0.5}}}}}"#,
         "layers[0].animate.opacity.ease.spring: expected response and dampingFraction"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "ease": {"spring": {}}}}}"#,
         "layers[0].animate.opacity.ease.spring: expected response and dampingFraction"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "ease": "bounce"}}}"#,
         "layers[0].animate.opacity.ease: expected linear, ease"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "ease": "cubic-bezier(1.2, 0, 0, 1)"}}}"#,
         "layers[0].animate.opacity.ease: cubic-bezier's x1 and x2 must lie in [0, 1]"),
        (#"{"type": "color", "color": "white", "animate": {"frame": {"keys": [[0, [1, 2, 3]]]}}}"#,
         "layers[0].animate.frame.keys[0][1]: expected 4 numbers"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": []}}}"#, "layers[0].animate.opacity.keys: expected at least one key"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "by": "tilt"}}}"#, "layers[0].animate.opacity.by: expected scroll, time, pitch or roll"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "speed": 2}}}"#, "layers[0].animate.opacity.speed: unknown key"),
        (#"{"type": "color", "color": "white", "animate": {"shadow.offset": {"keys": [[0, [1, 2]]]}}}"#,
         "layers[0].animate.shadow.offset: the layer has no shadow to animate"),
        (#"{"type": "gradient", "stops": [{"at": 0, "color": "white"}], "animate": {"color": {"keys": [[0, "white"]]}}}"#,
         "layers[0].animate.color: only color and text layers have a color"),
        (#"{"type": "color", "color": "white", "animate": {"color": {"keys": [[0, "not-a-color"]]}}}"#, "layers[0].animate.color.keys[0][1]:"),
        (#"{"type": "image", "file": "x.png", "animate": {"blur.progress": {"keys": [[0, 1]]}}}"#,
         "layers[0].animate.blur.progress: the layer has no blur"),
        (#"{"type": "color", "color": "white", "blur": {"levels": 3}}"#, "layers[0].blur: only image and group layers can be blurred"),
        (#"{"type": "image", "file": "x.png", "blur": {"max-sigma": 4, "max-radius": 3}}"#, "layers[0].blur: give max-sigma or max-radius, not both"),
        (#"{"type": "image", "file": "x.png", "blur": {"mode": "smooth"}}"#, "layers[0].blur.mode: expected blend, nearest or alpha"),
        (#"{"type": "group", "blur": {"levels": 2}, "layers": [{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]]}}}]}"#,
         "layers[0].layers[0].animate: a layer inside a blurred group cannot move"),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]]}}, "wobble": 1}"#, "layers[0].wobble: unknown key"),
    ])
    func badMotionKeysNameTheirPath(_ layer: String, _ expected: String) {
        #expect {
            _ = try MotionScene(json: Self.scene(layer))
        } throws: { error in
            "\(error)".hasPrefix(expected) && !"\(error)".contains("\n")
        }
    }

    @Test(arguments: [
        (#"{"driver": "swipe"}"#, "timeline.driver: expected scroll, time or tilt"),
        (#"{"driver": "scroll", "from": 0, "to": 10}"#, "timeline.frames: missing"),
        (#"{"driver": "scroll", "from": 0, "to": 10, "frames": 2.5}"#, "timeline.frames: expected a whole number"),
        (#"{"driver": "time", "duration": 1, "fps": 0}"#, "timeline.fps: expected frames per second"),
        (#"{"driver": "time", "duration": -1}"#, "timeline.duration: expected seconds"),
        (#"{"driver": "time", "duration": 1, "frames": 3}"#, "timeline.frames: unknown key"),
        (#"[1, 2]"#, "timeline: expected an object"),
    ])
    func badTimelinesNameTheirPath(_ timeline: String, _ expected: String) {
        #expect {
            _ = try MotionScene(json: Self.scene(#"{"type": "color", "color": "white"}"#, timeline: timeline))
        } throws: { error in
            "\(error)".hasPrefix(expected)
        }
    }

    @Test func perKeyEasingAndColorsAreRead() throws {
        let motion = try MotionScene(json: Self.scene(#"""
            {"type": "text", "text": "hi", "animate": {
               "color": {"keys": [[0, "white", "step"], [10, [1, 0, 0]], [20, "#00ff0080"]]},
               "transform.scale": {"keys": [[0, 1, {"spring": {"duration": 0.5, "dampingRatio": 0.4, "velocity": 2}}], [1, 0.95]], "by": "time"}}}
            """#))
        let animations = try #require(motion.motions[[0]]).animations
        #expect(animations[0].keyframes?.keys.map(\.value) == [[1, 1, 1, 1], [1, 0, 0, 1], [0, 1, 0, 128.0 / 255]])
        #expect(animations[0].keyframes?.keys[0].easing == .step)
        #expect(animations[1].keyframes?.keys[0].easing == .spring(Spring(duration: 0.5, dampingRatio: 0.4, velocity: 2)))
        guard case .text(let text) = motion.resolved(at: DriverState(scroll: 15)).layers[0].content else { Issue.record("not text"); return }
        #expect(text.color == Color(red: 0.5, green: 0.5, blue: 0, alpha: (1 + 128.0 / 255) / 2))
    }
}
