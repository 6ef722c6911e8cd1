import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `frost blur`, `effect`, `adjust` and `bench` as a user runs them.
@Suite struct EffectsCommandTests {
    static let photo = Corpus.path("photos/coffee.png")

    @Test func blurWritesABlurredImage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (args, name) in [(["--sigma", "3"], "g.png"), (["--box", "4", "--axes", "horizontal"], "b.png"), (["--sigma", "20", "--threads", "1"], "l.jpg")] {
            let run = try FrostRun.run(["blur", Self.photo, folder.file(name)] + args)
            #expect(run.status == 0, "\(args): \(run.stderr)")
            let out = try Image(contentsOfFile: folder.file(name))
            #expect(out.width == 600 && out.height == 400 && !out.hasAlpha)
        }
    }

    @Test func blurNeedsExactlyOneOfSigmaOrBox() throws {
        for args in [[String](), ["--sigma", "2", "--box", "3"], ["--sigma", "-1"], ["--sigma", "900"], ["--box", "5000"]] {
            let run = try FrostRun.run(["blur", Self.photo, "/tmp/x.png"] + args)
            #expect(run.status != 0 && run.status != 1, "\(args)")
            #expect(run.stderr.contains("--sigma") || run.stderr.contains("--box"), "\(args): \(run.stderr)")
        }
    }

    @Test func effectPresetsAndParameters() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for args in [["--preset", "light"], ["--preset", "extra-light"], ["--preset", "dark"], ["--preset", "tint:peony"],
                     ["--radius", "12", "--tint", "white:0.8@0.4", "--saturation", "1.8"], ["--radius", "5", "--tint", "#12857480", "--scale", "2"]] {
            let run = try FrostRun.run(["effect", Self.photo, folder.file("e.png")] + args)
            #expect(run.status == 0, "\(args): \(run.stderr)")
        }
        // A mask: the effect where the mask is white.
        let run = try FrostRun.run(["effect", Self.photo, folder.file("m.png"), "--radius", "10", "--mask", Corpus.repository + "/SampleImages/coffee-cutout.png"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func badColorIsAUsageErrorNamingTheOption() throws {
        for color in ["#12345", "white:2@1", "nocolor", "white:0.5@x"] {
            let run = try FrostRun.run(["effect", Self.photo, "/tmp/x.png", "--tint", color])
            #expect(run.status != 0 && run.status != 1)
            #expect(run.stderr.contains("--tint"), "\(color): \(run.stderr)")
        }
        let preset = try FrostRun.run(["effect", Self.photo, "/tmp/x.png", "--preset", "tint:bogus"])
        #expect(preset.stderr.contains("--preset"))
    }

    @Test func missingMaskIsAnErrorNamingTheMask() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["effect", Self.photo, folder.file("x.png"), "--radius", "3", "--mask", "/nonexistent/mask.png"])
        #expect(run.status == 1)
        #expect(run.stderr == "frost: /nonexistent/mask.png: cannot open: No such file or directory\n")
        #expect(folder.contents().isEmpty)
    }

    @Test func adjustChangesColorsAndValidatesRanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["adjust", Self.photo, folder.file("a.png"), "--brightness", "0.1", "--contrast", "1.2", "--saturation", "0", "--gamma", "1.5"])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try Image(contentsOfFile: folder.file("a.png"))
        #expect(out.isVisuallyGray)
        let bad = try FrostRun.run(["adjust", Self.photo, folder.file("b.png"), "--gamma", "0"])
        #expect(bad.status != 0 && bad.status != 1 && bad.stderr.contains("--gamma"))
    }

    @Test func benchPrintsJSONPerCase() throws {
        let run = try FrostRun.run(["bench", "--size", "256x128", "--case", "copy", "--case", "gauss-s0.8", "--case", "box-r3",
                                    "--case", "effect-light", "--case", "adjust", "--case", "brightness", "--runs", "2", "--threads", "1", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = run.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(objects.map { $0["case"] as! String } == ["copy", "gauss-s0.8", "box-r3", "effect-light", "adjust", "brightness"])
        for object in objects {
            #expect(object["width"] as? Int == 256 && object["height"] as? Int == 128 && object["threads"] as? Int == 1)
            #expect(object["runs"] as? Int == 2)
            #expect((object["median_ms"] as? Double).map { $0 >= 0 } == true && object["min_ms"] != nil && object["mpix_per_s"] != nil)
        }
        let text = try FrostRun.run(["bench", "--image", Self.photo, "--case", "gauss-s2", "--runs", "1"])
        #expect(text.status == 0 && text.stdout.contains("gauss-s2") && text.stdout.contains("image 600x400"))
        let unknown = try FrostRun.run(["bench", "--case", "blur-everything"])
        #expect(unknown.status != 0 && unknown.stderr.contains("--case"))
    }
}
