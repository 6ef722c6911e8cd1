import FrostCache
import FrostCompose
import FrostCore
@testable import FrostMotion
import Testing

/// A motion built in Swift is checked by the code that checks one read from JSON, with the same
/// message and path; nothing a Swift caller can build crashes the renderer.
@Suite struct MotionValidationTests {
    static let scroll = Timeline.scroll(from: 0, to: 100, frames: 5)

    /// The motion MotionCodingTests.scene(layer) reads, built in Swift: one layer.
    static func motion(_ layer: Layer, _ motion: LayerMotion? = nil, timeline: Timeline = scroll) -> MotionScene {
        MotionScene(scene: Scene(width: 100, height: 100, layers: [layer]), timeline: timeline, motions: motion.map { [[0]: $0] } ?? [:])
    }

    static let white = Layer(.color(.white))
    static let photo = Layer(.image(.file("x.png"), .fill))
    static func keys(_ property: AnimatedProperty, _ keys: [(Double, [Double])], easing: Easing = .linear) -> LayerMotion {
        LayerMotion(animations: [PropertyAnimation(property, keyframes: Keyframes(keys.map { Keyframes.Key($0.0, $0.1) }, easing: easing))])
    }

    /// (the layer as JSON, the same layer built in Swift, the timeline as JSON when not the default).
    static let twins: [(String, MotionScene, String?)] = [
        (#"{"type": "color", "color": "white", "animate": {"shadow.offset.x": {"by": "roll", "factor": 10}}}"#,
         motion(white, LayerMotion(animations: [PropertyAnimation(.shadowOffsetX, driver: .roll, factor: [10], offset: [0])])), nil),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1], [20, 0], [10, 1]]}}}"#,
         motion(white, keys(.opacity, [(0, [1]), (20, [0]), (10, [1])])), nil),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[2000000, 1]]}}}"#,
         motion(white, keys(.opacity, [(2_000_000, [1])])), nil),
        (#"{"type": "color", "color": "white", "animate": {"frame": {"keys": [[0, [1, 2, 3]]]}}}"#,
         motion(white, keys(.frame, [(0, [1, 2, 3])])), nil),
        (#"{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[0, 1]], "ease": "cubic-bezier(1.2, 0, 0, 1)"}}}"#,
         motion(white, keys(.opacity, [(0, [1])], easing: .cubicBezier(CubicBezier(1.2, 0, 0, 1)))), nil),
        (#"{"type": "gradient", "stops": [{"at": 0, "color": "white"}], "animate": {"color": {"keys": [[0, "white"]]}}}"#,
         motion(Layer(.gradient(Gradient(stops: [GradientStop(0, .white)]))), keys(.color, [(0, [1, 1, 1, 1])])), nil),
        (#"{"type": "color", "color": "white", "blur": {"levels": 3}}"#,
         motion(white, LayerMotion(blur: LayerBlur(spec: BlurCacheSpec(levels: 3)))), nil),
        (#"{"type": "image", "file": "x.png", "blur": {"levels": 0}}"#,
         motion(photo, LayerMotion(blur: LayerBlur(spec: BlurCacheSpec(levels: 0)))), nil),
        (#"{"type": "image", "file": "x.png", "blur": {"max-sigma": 300}}"#,
         motion(photo, LayerMotion(blur: LayerBlur(spec: BlurCacheSpec(maxSigma: 300)))), nil),
        (#"{"type": "image", "file": "x.png", "blur": {"max-sigma": 4, "max-radius": 3}}"#,
         motion(photo, LayerMotion(blur: LayerBlur(spec: BlurCacheSpec(maxSigma: 4, maxRadius: 3)))), nil),
        (#"{"type": "image", "file": "x.png", "blur": {"progress": 2}}"#,
         motion(photo, LayerMotion(blur: LayerBlur(progress: 2))), nil),
        (#"{"type": "image", "file": "x.png", "blur": {"mode": "exact"}}"#,
         motion(photo, LayerMotion(blur: LayerBlur(mode: .exact))), nil),
        (#"{"type": "image", "file": "x.png", "animate": {"blur.progress": {"keys": [[0, 1]]}}}"#,
         motion(photo, keys(.blurProgress, [(0, [1])])), nil),
        (#"{"type": "color", "color": "white", "opacity": 2}"#, motion(Layer(.color(.white), opacity: 2)), nil),
        (#"{"type": "color", "color": "white", "frame": [0, 0, -1, 5]}"#,
         motion(Layer(.color(.white), frame: Rect(x: 0, y: 0, width: -1, height: 5))), nil),
        (#"{"type": "color", "color": "white"}"#, motion(white, timeline: .scroll(from: 0, to: 100, frames: 0)),
         #"{"driver": "scroll", "from": 0, "to": 100, "frames": 0}"#),
        (#"{"type": "color", "color": "white"}"#, motion(white, timeline: .time(duration: 2, fps: 2000)),
         #"{"driver": "time", "duration": 2, "fps": 2000}"#),
    ]

    @Test(arguments: twins)
    func aMotionBuiltInSwiftFailsAsItsJSONDoes(json: String, built: MotionScene, timeline: String?) throws {
        let read: String
        do {
            _ = try MotionScene(json: timeline.map { MotionCodingTests.scene(json, timeline: $0) } ?? MotionCodingTests.scene(json))
            read = "no error"
        } catch {
            read = error.description
        }
        #expect(read != "no error")
        #expect(throws: ComposeError.self) { try built.validate() }
        do {
            _ = try MotionRenderer(built, assets: SceneAssets())
            Issue.record("the renderer took an invalid motion")
        } catch {
            #expect(error.description == read)
        }
    }

    /// What only Swift can build: a motion naming no layer, a NaN, a spring without a frequency,
    /// a colour of two numbers. Each is an error, never a crash, and `resolved(at:)` leaves what
    /// it cannot apply alone.
    @Test(arguments: [
        (MotionScene(scene: Scene(width: 100, height: 100, layers: [white]), motions: [[3]: keys(.opacity, [(0, [1])])]), "layers[3]: no such layer"),
        (MotionScene(scene: Scene(width: 100, height: 100, layers: [white]), motions: [[]: keys(.opacity, [(0, [1])])]), "layers: no such layer"),
        (MotionScene(scene: Scene(width: 100, height: 100, layers: [white]), motions: [[0, 1]: keys(.opacity, [(0, [1])])]), "layers[0].layers[1]: no such layer"),
        (motion(Layer(.color(.white), opacity: .nan)), "layers[0].opacity: expected a number from 0.0 to 1.0"),
        (motion(white, keys(.opacity, [(0, [1]), (1, [0])], easing: .spring(Spring(omega: 0, dampingRatio: 1)))), "layers[0].animate.opacity.ease.spring: expected a frequency"),
        (motion(white, keys(.color, [(0, [1, 0])])), "layers[0].animate.color.keys[0][1]: expected a COLOR or 3 or 4 numbers"),
        (motion(white, keys(.opacity, [])), "layers[0].animate.opacity.keys: expected at least one key"),
        (motion(Layer(.text(TextContent("hi", lineHeight: -3)))), "layers[0].lineHeight: expected a number from 0.0 to 100000.0"),
        (motion(Layer(.color(Color(red: 2, green: 0, blue: 0)))), "layers[0].color: expected a color with red, green, blue and alpha from 0 to 1"),
        (MotionScene(scene: Scene(width: .infinity, height: 100)), "width: expected a number from 1e-06 to 100000.0"),
    ])
    func whatOnlySwiftCanBuildIsAnError(built: MotionScene, expected: String) {
        do {
            _ = try MotionRenderer(built, assets: SceneAssets())
            Issue.record("the renderer took an invalid motion")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
        _ = built.resolved(at: DriverState(scroll: 50))
    }

    /// A timeline outside the limits gives its first frame, never a trap or a huge array: a caller
    /// may ask for its values before `validate()` would refuse it.
    @Test func timelinesOutsideTheLimitsNeverTrap() {
        #expect(Timeline.time(duration: 1, fps: -1).values == [0])
        #expect(Timeline.time(duration: .infinity, fps: 60).values == [0])
        #expect(Timeline.time(duration: 3600, fps: 1000).values == [0])
        #expect(Timeline.scroll(from: 5, to: 9, frames: Int.max).values == [5])
        #expect(Timeline.scroll(from: 5, to: 9, frames: -3).values == [5])
    }

    /// A scene built in Swift meets the file's limits when rendered, with the file's message.
    @Test func aSceneBuiltInSwiftIsCheckedWhenRendered() throws {
        let scene = Scene(width: 10, height: 10, layers: [Layer(.gradient(Gradient(stops: [])))])
        #expect(throws: ComposeError("layers[0].stops", "expected at least one stop")) { try scene.rendered() }
        let read = #expect(throws: ComposeError.self) {
            try Scene(json: Array(#"{"width": 10, "height": 10, "layers": [{"type": "gradient", "stops": []}]}"#.utf8))
        }
        #expect(read == ComposeError("layers[0].stops", "expected at least one stop"))
    }

    /// Animated values stay within the scene's limits (a spring's overshoot, a factor's reach), so
    /// every frame of a valid motion is a valid scene.
    @Test func animatedValuesStayWithinTheLimits() throws {
        var layer = Layer(.color(.white), frame: Rect(x: 0, y: 0, width: 10, height: 10))
        layer.shadow = Shadow()
        let far = Scene.maximumCoordinate
        let motion = Self.motion(layer, LayerMotion(animations: [
            PropertyAnimation(.cornerRadius, keyframes: Keyframes([.init(0, [0]), .init(1, [far])], easing: .spring(Spring(response: 0.5, dampingFraction: 0.1)))),
            PropertyAnimation(.shadowOffsetX, driver: .roll, factor: [far], offset: [0]),
            PropertyAnimation(.scale, keyframes: Keyframes([.init(0, [1]), .init(1, [far])])),
        ]))
        try motion.validate()
        let seen = motion.resolved(at: DriverState(scroll: 0.4, roll: 5))
        #expect(seen.layers[0].cornerRadius == Scene.Limits.length.upperBound)
        #expect(seen.layers[0].shadow?.offsetX == far)
        #expect(seen.layers[0].transform.scale == Scene.Limits.transformScale.upperBound)
        try seen.validate()
    }
}

/// Layers with an id: motions and retained rasters follow the id wherever the layer sits.
@Suite struct LayerIDTests {
    static let card = Layer(.color(.white), frame: Rect(x: 10, y: 10, width: 30, height: 20), id: "card")
    static let slide = LayerMotion(animations: [PropertyAnimation(.frameX, keyframes: Keyframes([.init(0, [10]), .init(100, [50])]))])

    @Test func aMotionKeyedByIdFollowsTheLayerWhereverItSits() throws {
        let byPlace = MotionScene(scene: Scene(width: 100, height: 50, background: .black, layers: [Self.card]), motions: [[0]: Self.slide])
        let byID = MotionScene(scene: byPlace.scene, motions: ["card": Self.slide])
        let state = DriverState(scroll: 50)
        #expect(try MotionRenderer(byID, assets: SceneAssets()).frame(at: state).pixels
                == MotionRenderer(byPlace, assets: SceneAssets()).frame(at: state).pixels)
        // A layer put in front of it moves its place, not its id.
        var moved = byID
        moved.scene.layers.insert(Layer(.color(.clear), frame: Rect(x: 0, y: 0, width: 1, height: 1)), at: 0)
        #expect(moved.resolved(at: state).layers[1].frame?.x == 30)
        #expect(moved.motionsByPath.keys.sorted { $0.lexicographicallyPrecedes($1) } == [[1]])
    }

    @Test func theReaderKeysALayersMotionByItsId() throws {
        let json = #"{"width": 100, "height": 50, "layers": [{"type": "color", "color": "white", "id": "card", "frame": [10, 10, 30, 20], "animate": {"color": {"keys": [[0, "white"], [100, "black"]]}}}, {"type": "color", "color": "black", "id": "still", "frame": [0, 0, 5, 5]}]}"#
        let motion = try MotionScene(json: Array(json.utf8))
        #expect(Array(motion.motions.keys) == ["card"])
        #expect(motion.staticLayerKeys == ["#still"])
        let renderer = try MotionRenderer(motion, assets: SceneAssets())
        _ = try renderer.frame(at: DriverState(scroll: 20))
        #expect(renderer.retained.keys == ["#still"] && renderer.retained.drawnCount == 1)
    }

    @Test func keysThatNameNoLayerOrOneLayerTwiceAreErrors() {
        let scene = Scene(width: 100, height: 50, layers: [Self.card])
        #expect(throws: ComposeError("layers", "no layer has the id 'header'")) {
            try MotionScene(scene: scene, motions: ["header": Self.slide]).validate()
        }
        #expect(throws: ComposeError.self) { try MotionScene(scene: scene, motions: ["card": Self.slide, [0]: Self.slide]).validate() }
    }
}
