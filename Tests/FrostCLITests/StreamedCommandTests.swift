import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// A JPEG file's filter commands stream (FrostStream); the same bytes on standard input take the
/// whole-image path. Both must write the same JPEG file, and PNGs of the same pixels.
@Suite struct StreamedCommandTests {
    static let photo = Corpus.repository + "/SampleImages/rocket.jpg"

    @Test(arguments: [
        ["blur", "--sigma", "12"],
        ["adjust", "--brightness", "0.1", "--contrast", "1.2", "--gamma", "0.9"],
        ["resize", "--width", "150"],                        // shrinks on load by 2
        ["resize", "--width", "90", "--height", "90", "--fit", "cover"],
        ["convert"],
        ["run", "blur:sigma=4", "adjust:brightness=0.1", "resize:width=117"],
    ])
    func aFileAndStandardInputGiveTheSameFile(_ command: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.photo))
        for format in ["jpg", "png"] {
            let verb = command[0], rest = Array(command.dropFirst())
            let options = rest.filter { !$0.contains(":") }, steps = rest.filter { $0.contains(":") }
            let streamed = try FrostRun.run([verb, Self.photo, folder.file("file.\(format)")] + steps + options + ["--threads", "2"])
            let whole = try FrostRun.run([verb, "-", folder.file("stdin.\(format)")] + steps + options + ["--threads", "2"], stdin: bytes)
            #expect(streamed.status == 0 && whole.status == 0, "\(streamed.stderr) \(whole.stderr)")
            // A JPEG's bytes are the same; a PNG written in strips differs where they begin, its pixels do not.
            if format == "jpg" {
                let a = try Data(contentsOf: URL(fileURLWithPath: folder.file("file.\(format)")))
                let b = try Data(contentsOf: URL(fileURLWithPath: folder.file("stdin.\(format)")))
                #expect(a == b, "\(command) to \(format)")
            } else {
                let a = try Image(contentsOfFile: folder.file("file.png")), b = try Image(contentsOfFile: folder.file("stdin.png"))
                #expect(identical(a, b) && a.iccProfile == b.iccProfile, "\(command) to \(format)")
            }
        }
    }

    /// The damage is found while earlier strips are already written: the output never appears.
    @Test func aTruncatedJPEGLeavesNoOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/UNIS_EV0.jpg")))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: folder.file("cut.jpg")))
        let run = try FrostRun.run(["blur", folder.file("cut.jpg"), folder.file("out.jpg"), "--sigma", "3"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["frost: \(folder.file("cut.jpg")): truncated JPEG data (premature end of file)"], "\(run.stderr)")
        #expect(folder.contents() == ["cut.jpg"])
    }

    /// A PNG file gives what the same bytes on standard input give (one of 32 Mpixels or more streams,
    /// `PNGRowReader.streamedPixels`: StreamedFilterTests compare its rows with the whole read); a
    /// PNG with transparency keeps it; a truncated one leaves no output.
    @Test func aPNGFileAndStandardInputGiveTheSamePixels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = Corpus.repository + "/SampleImages/coffee.png"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        for (verb, arguments) in [("blur", ["--sigma", "6"]), ("resize", ["--width", "150"]), ("adjust", ["--contrast", "1.3"])] {
            for format in ["png", "jpg"] {
                #expect(try FrostRun.run([verb, png, folder.file("file.\(format)")] + arguments).status == 0)
                #expect(try FrostRun.run([verb, "-", folder.file("stdin.\(format)")] + arguments, stdin: bytes).status == 0)
                let a = try Image(contentsOfFile: folder.file("file.\(format)")), b = try Image(contentsOfFile: folder.file("stdin.\(format)"))
                #expect(identical(a, b), "\(verb) to \(format)")
            }
        }
        let cutout = Corpus.repository + "/SampleImages/coffee-cutout.png"
        #expect(try ImageInfo(contentsOfFile: cutout).hasAlpha)
        #expect(try FrostRun.run(["blur", cutout, folder.file("cutout.png"), "--sigma", "3"]).status == 0)
        #expect(try Image(contentsOfFile: folder.file("cutout.png")).hasAlpha)
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: folder.file("cut.png")))
        let run = try FrostRun.run(["blur", folder.file("cut.png"), folder.file("out.png"), "--sigma", "3"])
        #expect(run.status == 1 && run.errorLines.count == 1 && run.stderr.hasPrefix("frost: \(folder.file("cut.png")): "), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.png")))
    }

    /// EXIF, XMP and the ICC profile reach a streamed JPEG as they reach a whole one.
    @Test func metadataIsKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["blur", Self.photo, folder.file("out.jpg"), "--sigma", "2"])
        #expect(run.status == 0)
        let source = try FileIO.read(Self.photo), written = try FileIO.read(folder.file("out.jpg"))
        #expect(ImageMetadata(reading: written) == ImageMetadata(reading: source).uprighted())
        #expect((try Image(decoding: written)).iccProfile == (try Image(decoding: source)).iccProfile)
    }
}
