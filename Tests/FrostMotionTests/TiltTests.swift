import FrostCodecs
import FrostCompose
import FrostCore
import FrostFiles
@testable import FrostMotion
import FrostTestSupport
import Foundation
import Testing

/// The tilt driver: pitch and roll (radians) drive keys or follow linearly, and a tilt timeline
/// plays a recorded trace of them, as the App Store seed's shadow followed Core Motion.
@Suite struct TiltTests {
    static let samples = Corpus.repository + "/SampleImages/motion"

    /// A card with a shadow: `timeline` and `animate` (JSON members with a trailing comma) and the
    /// shadow's static offset filled in.
    static func card(timeline: String = "", animate: String = "", offset: String = "[0, 0]") -> String {
        """
        { "width": 60, "height": 50, "scale": 2, "background": "#f2f2f7", \(timeline)
          "layers": [
            { "type": "group", "frame": [10, 8, 40, 30], "cornerRadius": 6, \(animate)
              "shadow": { "color": "black", "opacity": 0.3, "radius": 5, "offset": \(offset) },
              "layers": [ { "type": "color", "color": "white" }, { "type": "text", "text": "card", "size": 9, "frame": [4, 4, 32, 12] } ] } ] }
        """
    }

    static let timeline = #""timeline": { "driver": "tilt", "trace": [[0, 0, 0], [1, 0.25, -0.125]], "fps": 4 },"#
    /// The seed's mapping: roll × 10 points across, pitch × 10 points down.
    static let follow = #""animate": { "shadow.offset.x": { "by": "roll", "factor": 10 }, "shadow.offset.y": { "by": "pitch", "factor": 10 } },"#
    static let moving = card(timeline: timeline, animate: follow)

    /// The still with the shadow offset written into it.
    static func still(offsetX: Double, offsetY: Double) throws -> Image {
        let scene = try Scene(json: Array(card(offset: "[\(offsetX), \(offsetY)]").utf8))
        return try scene.rendered(assets: try SceneAssets(for: scene, relativeTo: ""))
    }

    @Test func aFrameAtAnAttitudeEqualsTheStillWithTheSeedsOffset() throws {
        let motion = try MotionScene(json: Array(Self.moving.utf8))
        let renderer = try MotionRenderer(motion, assets: try SceneAssets(for: motion.scene, relativeTo: ""))
        for (pitch, roll) in [(0.25, -0.125), (-0.3, 0.3), (0, 0), (0.05, 0.2)] {
            let frame = try renderer.frame(at: DriverState(pitch: pitch, roll: roll))
            let expected = try Self.still(offsetX: roll * 10, offsetY: pitch * 10)
            #expect(frame.pixels == expected.pixels, "pitch \(pitch) roll \(roll)")
        }
        // The attitude moves the shadow: a check that the comparison above can fail.
        #expect(try renderer.frame(at: DriverState(pitch: 0.3)).pixels != (try renderer.frame(at: DriverState())).pixels)
    }

    /// Linear interpolation between rows, held outside them, by hand.
    @Test func traceInterpolation() throws {
        let trace = try TiltTrace(csv: Array("t,pitch,roll\n# comment\n10,0,0\n10.02,0.1,-0.2\n\n10.06,0.3,0.2\n".utf8))
        #expect(trace.duration == 10.06 - 10)
        func near(_ a: (pitch: Double, roll: Double), _ b: (Double, Double)) -> Bool {
            abs(a.pitch - b.0) < 1e-12 && abs(a.roll - b.1) < 1e-12
        }
        #expect(near(trace.attitude(at: -1), (0, 0)))
        #expect(near(trace.attitude(at: 0.01), (0.05, -0.1)))
        #expect(near(trace.attitude(at: 0.02), (0.1, -0.2)))
        #expect(near(trace.attitude(at: 0.03), (0.15, -0.1)))
        #expect(near(trace.attitude(at: 0.05), (0.25, 0.1)))
        #expect(near(trace.attitude(at: 9), (0.3, 0.2)))
        // Played at 50 fps: frames at 0, 0.02 and 0.04 s, and one at the trace's end.
        let states = Timeline.tilt(trace: trace, fps: 50).states(other: DriverState(scroll: 7))
        #expect(states.count == 4)
        let expected: [(Double, Double, Double)] = [(0, 0, 0), (0.02, 0.1, -0.2), (0.04, 0.2, 0), (10.06 - 10, 0.3, 0.2)]
        for (state, (time, pitch, roll)) in zip(states, expected) {
            #expect(abs(state.time - time) < 1e-12 && near((state.pitch, state.roll), (pitch, roll)) && state.scroll == 7, "\(state)")
        }
    }

    @Test func badTracesAreRefusedWithTheirRowAndReason() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [(String, String)] = [
            ("t,pitch,roll\n0,0,0\n0.04,0.1,0.1\n0.02,0.2,0.2\n", "bad.csv line 4: times must ascend (0.02 comes after 0.04)"),
            ("0,0,0\n0.02,abc,0.1\n", "bad.csv line 2: 'abc' is not a number"),
            ("0,0,0\n0.02,0.1\n", "bad.csv line 2: expected 3 cells t,pitch,roll, found 2"),
            ("t,pitch,roll\n# nothing\n", "bad.csv a trace needs at least one row of t,pitch,roll"),
            ("", "bad.csv a trace needs at least one row of t,pitch,roll"),
        ]
        for (csv, message) in cases {
            try Data(csv.utf8).write(to: URL(fileURLWithPath: folder.file("bad.csv")))
            let json = Self.moving.replacingOccurrences(of: #""trace": [[0, 0, 0], [1, 0.25, -0.125]]"#, with: #""trace": "bad.csv""#)
            #expect(throws: ComposeError("timeline.trace", message)) {
                try MotionScene(json: Array(json.utf8), directory: folder.path)
            }
        }
        let unsorted = Self.moving.replacingOccurrences(of: "[[0, 0, 0], [1, 0.25, -0.125]]", with: "[[0, 0, 0], [1, 0.25, -0.125], [1, 0, 0]]")
        #expect(throws: ComposeError("timeline.trace[2]", "times must ascend (1.0 comes after 1.0)")) {
            try MotionScene(json: Array(unsorted.utf8))
        }
        let file = Self.moving.replacingOccurrences(of: "[[0, 0, 0], [1, 0.25, -0.125]]", with: #""x.csv""#)
        #expect(throws: ComposeError("timeline.trace", "a trace file is read relative to a scene file; give the rows inline")) {
            try MotionScene(json: Array(file.utf8))
        }
        let both = Self.moving.replacingOccurrences(of: #"{ "by": "roll", "factor": 10 }"#, with: #"{ "by": "roll", "factor": 10, "keys": [[0, 1]] }"#)
        #expect(throws: ComposeError("layers[0].animate.shadow.offset.x", "give keys (with ease) or factor (with offset), not both")) {
            try MotionScene(json: Array(both.utf8))
        }
    }

    /// The sample plays its trace: a frame per 1/25 s over the 4 s recorded, the shadow where the
    /// seed puts it.
    @Test func theSampleFollowsItsTrace() throws {
        let motion = try MotionScene(json: try FileIO.read("\(Self.samples)/appstore-tilt.json"), directory: Self.samples)
        guard case .tilt(let trace, let fps)? = motion.timeline else { Issue.record("not a tilt timeline"); return }
        #expect(fps == 25 && trace.samples.count == 201 && trace.duration == 4)
        let states = motion.timeline!.states()
        #expect(states.count == 101)
        let resolved = motion.resolved(at: states[40])
        #expect(resolved.layers[0].shadow?.offsetX == states[40].roll * 10)
        #expect(resolved.layers[0].shadow?.offsetY == states[40].pitch * 10)
        #expect(trace.samples.allSatisfy { abs($0.pitch) < 0.35 && abs($0.roll) < 0.35 })
    }
}
