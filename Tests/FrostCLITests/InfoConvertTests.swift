import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `frost info` and `frost convert`, run as a user would: exit codes, the one-line error, no
/// output left behind on failure.
@Suite struct InfoConvertTests {
    @Test func infoPrintsOneLinePerFile() throws {
        let run = try FrostRun.run(["info", Corpus.path("photos/rocket.jpg"), Corpus.path("pngsuite/basn6a16.png")])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("jpeg 640x427") && lines[0].contains("icc=yes"))
        #expect(lines[1].contains("png 32x32 rgba channels=4 depth=16 alpha=yes"))
    }

    @Test func infoJSONIsOneObjectPerFile() throws {
        let run = try FrostRun.run(["info", "--json", Corpus.path("pillow/jpeg/hopper_orientation_6.jpg")])
        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        #expect(object["format"] as? String == "jpeg")
        #expect(object["orientation"] as? Int == 6)
        #expect(object["channels"] as? Int == 3)
        #expect(object["icc"] as? Bool == false)
        #expect(object["frames"] as? Int == 1)
        // An APNG made elsewhere (image-png's test file): its acTL announces 20 frames.
        let apng = try FrostRun.run(["info", "--json", Corpus.path("image-png/bugfixes/issue#202.png")])
        let animated = try JSONSerialization.jsonObject(with: Data(apng.stdout.utf8)) as! [String: Any]
        #expect(animated["frames"] as? Int == 20 && animated["width"] as? Int == 100)
    }

    @Test func infoReportsBadFilesAndGoesOn() throws {
        let run = try FrostRun.run(["info", Corpus.path("pngsuite/xs1n0g01.png"), Corpus.path("photos/coffee.png")])
        #expect(run.status == 1)
        #expect(run.stdout.contains("coffee.png: png 600x400"))
        #expect(run.stderr == "frost: \(Corpus.path("pngsuite/xs1n0g01.png")): not a PNG, JPEG, WebP, AVIF, HEIC or GIF file\n")
    }

    @Test func convertRoundTripsPNGLosslessly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.path("pngsuite/basn4a08.png")
        let run = try FrostRun.run(["convert", source, folder.file("out.png")])
        #expect(run.status == 0 && run.stderr.isEmpty)
        let a = try Image(contentsOfFile: source), b = try Image(contentsOfFile: folder.file("out.png"))
        #expect(a.pixels == b.pixels && b.isGray && b.hasAlpha)
    }

    @Test func convertWritesJPEGWithOptions() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["convert", Corpus.path("photos/coffee.png"), folder.file("out.jpeg"),
                                    "--quality", "70", "--progressive"])
        #expect(run.status == 0)
        let info = try ImageInfo(contentsOfFile: folder.file("out.jpeg"))
        #expect(info.format == .jpeg && info.interlaced && info.width == 600)
        #expect(folder.contents() == ["out.jpeg"])
    }

    @Test func convertAppliesOrientationUnlessAskedNotTo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.path("exif-orientation-examples/Landscape_6.jpg")
        _ = try FrostRun.run(["convert", source, folder.file("a.png")])
        _ = try FrostRun.run(["convert", "--no-auto-orient", source, folder.file("b.png")])
        let a = try ImageInfo(contentsOfFile: folder.file("a.png")), b = try ImageInfo(contentsOfFile: folder.file("b.png"))
        #expect(a.width == 1800 && a.height == 1200)
        #expect(b.width == 1200 && b.height == 1800)
    }

    @Test func truncatedJPEGFailsUnlessAllowed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.path("pillow/jpeg/truncated_jpeg.jpg")
        let failed = try FrostRun.run(["convert", source, folder.file("t.png")])
        #expect(failed.status == 1)
        #expect(failed.stderr == "frost: \(source): truncated JPEG data (premature end of file)\n")
        #expect(folder.contents().isEmpty)
        let allowed = try FrostRun.run(["convert", "--allow-truncated", source, folder.file("t.png")])
        #expect(allowed.status == 0 && folder.contents() == ["t.png"])
    }

    @Test func failedConvertLeavesNothingAndKeepsExistingOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let existing = folder.file("keep.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: existing))
        let run = try FrostRun.run(["convert", Corpus.path("pngsuite/xcsn0g01.png"), existing])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("frost: \(Corpus.path("pngsuite/xcsn0g01.png")): invalid PNG:"))
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "old")
        #expect(folder.contents() == ["keep.png"])
    }

    @Test func missingFileAndUnwritableFolderAreOneLineErrors() throws {
        let missing = try FrostRun.run(["convert", "/nonexistent/in.png", "/tmp/x.png"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "frost: /nonexistent/in.png: cannot open: No such file or directory\n")
        let unwritable = try FrostRun.run(["convert", Corpus.path("photos/coffee.png"), "/nonexistent/out.png"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.hasPrefix("frost: /nonexistent/out.png: cannot create a file in /nonexistent"))
    }

    @Test func badUsageIsAParserError() throws {
        let unknownFormat = try FrostRun.run(["convert", Corpus.path("photos/coffee.png"), "/tmp/out.tiff"])
        #expect(unknownFormat.status != 0 && unknownFormat.status != 1)
        #expect(unknownFormat.stderr.contains("must end in .png, .jpg, .jpeg, .webp, .avif, .heic or .gif"))
        let badQuality = try FrostRun.run(["convert", "--quality", "0", Corpus.path("photos/coffee.png"), "/tmp/o.jpg"])
        #expect(badQuality.status != 0 && badQuality.status != 1)
        #expect(badQuality.stderr.contains("--quality"))
    }

    /// `frost convert` round-trips every valid corpus PNG: PNG → PNG gives the same pixels.
    @Test func convertRoundTripsTheWholePNGCorpus() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (n, file) in Corpus.files(format: "png", expected: "valid").enumerated() {
            let out = folder.file("\(n).png")
            let run = try FrostRun.run(["convert", Corpus.path(file), out])
            #expect(run.status == 0, "\(file): \(run.stderr)")
            let a = try Image(contentsOfFile: Corpus.path(file)), b = try Image(contentsOfFile: out)
            #expect(a.pixels == b.pixels, "\(file)")
        }
    }
}
