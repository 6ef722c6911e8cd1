import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `frost compose` as a user runs it.
@Suite struct ComposeCommandTests {
    static let scenes = Corpus.repository + "/SampleImages/scenes"

    @Test func rendersASampleSceneAndHonoursScaleAndClearBackground() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["compose", "\(Self.scenes)/twitter-header.json", "-o", folder.file("t.png")])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try Image(contentsOfFile: folder.file("t.png"))
        #expect(image.width == 640 && image.height == 400 && !image.hasAlpha)
        let clear = try FrostRun.run(["compose", "\(Self.scenes)/twitter-header.json", "-o", folder.file("c.png"), "--scale", "1", "--clear-background"])
        #expect(clear.status == 0, "\(clear.stderr)")
        let transparent = try Image(contentsOfFile: folder.file("c.png"))
        #expect(transparent.width == 320 && transparent.hasAlpha && transparent.pixel(x: 300, y: 150)[3] == 0)
    }

    @Test func readsTheSceneFromStandardInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = #"{"width": 40, "height": 20, "background": "peony", "layers": [{"type": "text", "text": "Hi", "size": 12, "color": "white"}]}"#
        let run = try FrostRun.run(["compose", "-", "-o", folder.file("s.jpg")], stdin: Data(scene.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Image(contentsOfFile: folder.file("s.jpg")).width == 40)
    }

    @Test func badScenesFailWithOneLineAndNoOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [(String, String)] = [
            (#"{"width": 10, "height": 10, "layers": [{"type": "color", "color": "white", "frame": [0, 0, 5]}]}"#, "layers[0].frame: expected 4 numbers"),
            (#"{"width": 10, "height": 10, "layers": [{"type": "image", "file": "missing.png"}]}"#, "layers[0].file: cannot read"),
            (#"{"width": 10, "height": 10, "layers": [{"type": "color", "color": "white", "tint": "x"}]}"#, "layers[0].tint: unknown key"),
            ("not json", "not valid JSON"),
        ]
        for (json, expected) in cases {
            try Data(json.utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
            let run = try FrostRun.run(["compose", folder.file("bad.json"), "-o", folder.file("out.png")])
            #expect(run.status == 1, "\(json)")
            #expect(run.stderr.hasPrefix("frost: \(folder.file("bad.json")): \(expected)"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: folder.file("out.png")))
        }
        let missing = try FrostRun.run(["compose", folder.file("none.json"), "-o", folder.file("out.png")])
        #expect(missing.status == 1 && missing.stderr.contains("none.json"))
    }
}
