import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// What users of vips, ImageMagick and sharp expect of a command line: mistakes named before
/// anything is read, outputs bounded like inputs, options that do not apply refused, standard
/// output for image data only, `-` wherever one image is read or written.
@Suite struct CommandLineContractTests {
    static let photo = Corpus.repository + "/SampleImages/rocket.jpg"

    @Test func misspeltNamesAreReportedFirstWithTheNearestOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [([String], String)] = [
            (["blurr", Self.photo, folder.file("a.png")], "frost: unknown verb 'blurr' (did you mean blur?)"),
            (["blur", "--sigam", "2", Self.photo, folder.file("a.png")], "frost: blur: unknown option '--sigam' (did you mean --sigma?)"),
            // The unknown key, not the missing --width, is the mistake to name.
            (["run", Self.photo, folder.file("a.png"), "resize:widht=100"], "frost: resize:widht=100: resize has no key 'widht' (did you mean width?)"),
            (["run", Self.photo, "-o", folder.file("rr/%s.jpg"), "blur:sigma=2", "adjst:gamma=2"],
             "frost: adjst:gamma=2: unknown step 'adjst' (did you mean adjust?)"),
            (["blur", "--sigma", "-1", Self.photo, folder.file("a.png")], "frost: --sigma must be between 0 and 250"),
        ]
        for (arguments, message) in cases {
            let run = try FrostRun.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix(message) && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        }
        #expect(folder.contents().isEmpty, "a typo writes nothing")
    }

    @Test func versionIsPrinted() throws {
        let run = try FrostRun.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: ".").count == 3, "\(run.stdout)")
    }

    /// A resize target beyond --max-pixels is refused before its memory exists: under a 1 GiB
    /// address-space limit the refusal is the message, not an abort.
    @Test func outputsAreBoundedLikeInputs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let huge = try FrostRun.run(["-c", "ulimit -v 1048576 && exec \"$0\" resize \"$1\" \"$2\" --width 65535",
                                     FrostRun.binary, Self.photo, folder.file("big.jpg")], executable: "/bin/sh")
        #expect(huge.status == 1)
        #expect(huge.stderr.contains("the result would be 65535×43724, more than the limit of 256000000 pixels (see --max-pixels)"), "\(huge.stderr)")
        let limited = try FrostRun.run(["resize", Self.photo, folder.file("b.jpg"), "--width", "2000", "--max-pixels", "1000000"])
        #expect(limited.status == 1 && limited.stderr.contains("the result would be 2000×1334"), "\(limited.stderr)")
        let scene = folder.file("s.json")
        try Data(#"{"width": 2000, "height": 1000, "layers": []}"#.utf8).write(to: URL(fileURLWithPath: scene))
        let canvas = try FrostRun.run(["compose", scene, "-o", folder.file("s.png"), "--max-pixels", "1000000"])
        #expect(canvas.status == 1 && canvas.stderr.contains("the canvas would be 2000×1000"), "\(canvas.stderr)")
        #expect(folder.contents() == ["s.json"])
    }

    @Test func resizeCanNeverEnlarge() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try Image(contentsOfFile: Self.photo)
        for (arguments, expected) in [(["--width", "2000"], (source.width, source.height)),
                                      (["--width", "320"], (320, 214)),
                                      (["--width", "320", "--height", "2000", "--fit", "cover"], (source.width, source.height))] {
            let run = try FrostRun.run(["resize", Self.photo, folder.file("r.png"), "--no-enlarge"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let out = try Image(contentsOfFile: folder.file("r.png"))
            #expect(out.width == expected.0 && out.height == expected.1, "\(arguments): \(out.width)x\(out.height)")
        }
    }

    @Test func optionsTheOutputDoesNotUseAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [([String], String)] = [
            (["convert", Self.photo, folder.file("a.png"), "--quality", "50"], "--quality does not apply to PNG output"),
            (["convert", Self.photo, folder.file("a.jpg"), "--compression", "9"], "--compression does not apply to JPEG output"),
            (["convert", Self.photo, folder.file("a.webp"), "--progressive"], "--progressive does not apply to WebP output"),
            (["convert", Self.photo, folder.file("a.png"), "--format", "jpg"], "--format jpg disagrees with the output's name"),
            (["convert", Self.photo, folder.file("a.tiff")], "must end in .png, .jpg, .jpeg, .webp, .avif, .heic or .gif"),
            (["animate", Corpus.repository + "/SampleImages/motion/secret-viewer.json", "-o", folder.file("v.avif")],
             ".avif is not an animation Frost writes"),
            (["animate", Corpus.repository + "/SampleImages/motion/secret-viewer.json", "-o", folder.file("v.png"), "--colors", "16"],
             "--colors and --dither apply to a GIF only"),
            (["animate", Corpus.repository + "/SampleImages/motion/secret-viewer.json", "-o", folder.file("v.png"), "--quality", "80"],
             "--quality does not apply to PNG output"),
        ]
        for (arguments, message) in cases {
            let run = try FrostRun.run(arguments)
            #expect(run.status == 64 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(folder.contents().isEmpty)
    }

    /// Standard input longer than the first read (1 MiB, straight into the bytes kept) arrives
    /// whole: the rest comes in chunks.
    @Test func standardInputOverOneMebibyteArrivesWhole() throws {
        let path = Corpus.repository + "/SampleImages/UNIS_EV0.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 1 << 20)
        let arguments = ["--width", "64", "--format", "png"]
        let piped = try FrostRun.run(["resize", "-", "-"] + arguments, stdin: bytes)
        let read = try FrostRun.run(["resize", path, "-"] + arguments)
        #expect(piped.status == 0 && read.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
        // The same pixels (a file's read streams its PNG strip by strip, so the chunks differ).
        #expect(identical(try Image(decoding: piped.stdoutBytes), try Image(decoding: read.stdoutBytes)))
    }

    /// `-` reads or writes the one image of info, fade, compose and sheet as of the filters.
    @Test func standardInputAndOutputForEveryOneImageVerb() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.photo))
        // A JPEG in, a JPEG out at a quality: the input's format, so the quality applies.
        let piped = try FrostRun.run(["blur", "-", "-", "--sigma", "1", "--quality", "80"], stdin: bytes)
        #expect(piped.status == 0 && ImageFormat(sniffing: piped.stdoutBytes) == .jpeg, "\(piped.stderr)")
        let info = try FrostRun.run(["info", "-"], stdin: bytes)
        #expect(info.status == 0 && info.stdout.hasPrefix("-: jpeg 640x427"), "\(info.stdout) \(info.stderr)")

        let cache = folder.file("c")
        #expect(try FrostRun.run(["cache", Self.photo, "-o", cache, "--levels", "2", "--max-sigma", "4"]).status == 0)
        let fade = try FrostRun.run(["fade", cache, "--fraction", "0.5", "-o", "-"])
        #expect(fade.status == 0, "\(fade.stderr)")
        #expect(try Image(decoding: fade.stdoutBytes).width == 640)
        let blend = try FrostRun.run(["fade", "-", Self.photo, "--fraction", "0.5", "-o", "-"], stdin: bytes)
        #expect(blend.status == 0, "\(blend.stderr)")
        #expect(try Image(decoding: blend.stdoutBytes).height == 427)
        let sheet = try FrostRun.run(["sheet", cache, "-o", "-", "--no-labels"])
        #expect(sheet.status == 0 && ImageFormat(sniffing: sheet.stdoutBytes) == .png, "\(sheet.stderr)")
        let scene = Data(#"{"width": 20, "height": 10, "background": "white", "layers": []}"#.utf8)
        let compose = try FrostRun.run(["compose", "-", "-o", "-"], stdin: scene)
        #expect(compose.status == 0, "\(compose.stderr)")
        #expect(try Image(decoding: compose.stdoutBytes).width == 20)
    }

    /// Image data never goes to a terminal (`script` gives the command one).
    @Test func imageDataIsNotWrittenToATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let command = "'\(FrostRun.binary)' convert '\(Self.photo)' -; echo \"exit $?\""
        let run = try FrostRun.run(["-qec", command, "/dev/null"], executable: "/usr/bin/script")
        #expect(run.stdout.contains("image data is not written to a terminal"), "\(run.stdout)")
        #expect(run.stdout.contains("exit 64"), "\(run.stdout)")
        #expect(!run.stdout.contains("JFIF"))
    }

    /// Transparency into a JPEG: onto white by default, with a note; onto --background, silently.
    @Test func alphaIntoAJPEGIsFlattenedOntoTheBackground() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cutout = Corpus.repository + "/SampleImages/coffee-cutout.png"
        let plain = try FrostRun.run(["convert", cutout, folder.file("w.jpg")])
        #expect(plain.status == 0)
        #expect(plain.stderr == "frost: \(cutout): note: transparency flattened onto white in the JPEG (--background COLOR chooses)\n")
        #expect(try Image(contentsOfFile: folder.file("w.jpg")).pixels[0..<3].allSatisfy { $0 >= 250 }, "a corner is white")
        let black = try FrostRun.run(["convert", cutout, folder.file("b.jpg"), "--background", "black"])
        #expect(black.status == 0 && black.stderr.isEmpty, "\(black.stderr)")
        #expect(try Image(contentsOfFile: folder.file("b.jpg")).pixels[0..<3].allSatisfy { $0 <= 5 }, "a corner is black")
        let png = try FrostRun.run(["convert", cutout, folder.file("c.png")])
        #expect(png.status == 0 && png.stderr.isEmpty, "PNG keeps the alpha: nothing to say")
    }

    /// --fit pad is sharp's contain: the box filled, the image centred on --background (else clear);
    /// --fit contain keeps its meaning (sharp's inside).
    @Test func resizePadFillsTheBox() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let coffee = Corpus.repository + "/SampleImages/coffee.png"   // 600 × 400
        #expect(try FrostRun.run(["resize", coffee, folder.file("p.png"), "--width", "200", "--height", "200", "--fit", "pad"]).status == 0)
        let padded = try Image(contentsOfFile: folder.file("p.png"))
        #expect(padded.width == 200 && padded.height == 200 && padded.hasAlpha)
        #expect(padded.pixels[3] == 0 && padded.pixels[(100 * 200 + 100) * 4 + 3] == 255, "clear above, the photo in the middle")
        let run = try FrostRun.run(["run", coffee, folder.file("r.jpg"), "resize:width=200,height=200,fit=pad", "--background", "#ff0000"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let red = try Image(contentsOfFile: folder.file("r.jpg"))
        #expect(red.pixels[0] > 240 && red.pixels[1] < 15 && red.pixels[2] < 15)
        #expect(try FrostRun.run(["resize", coffee, folder.file("c.png"), "--width", "200", "--height", "200"]).status == 0)
        let contained = try Image(contentsOfFile: folder.file("c.png"))
        #expect(contained.width == 200 && contained.height == 133)
    }

    /// Metadata as vips keeps it: EXIF (its orientation 1 once the pixels are turned), XMP, IPTC
    /// and the resolution go on into every format that holds them; --no-auto-orient keeps the
    /// stored pixels and their tag; --strip writes none.
    @Test func metadataIsKeptUnlessStripped() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let camera = Corpus.path("exif-orientation-examples/Landscape_6.jpg")
        for format in ["jpg", "png", "webp"] {
            let turned = try FrostRun.run(["resize", camera, folder.file("t.\(format)"), "--width", "300"])
            #expect(turned.status == 0, "\(turned.stderr)")
            let info = try ImageInfo(contentsOfFile: folder.file("t.\(format)"))
            #expect(info.width == 300 && info.height == 200 && info.orientation == 1, "\(format)")
            #expect(ImageMetadata(reading: try FileIO.read(folder.file("t.\(format)"))).exif != nil, "\(format): the EXIF goes on")
            #expect(try FrostRun.run(["resize", camera, folder.file("k.\(format)"), "--width", "300", "--no-auto-orient"]).status == 0)
            let kept = try ImageInfo(contentsOfFile: folder.file("k.\(format)"))
            #expect(kept.width == 300 && kept.height == 450 && kept.orientation == 6, "\(format): stored pixels, tag kept")
            #expect(try FrostRun.run(["resize", camera, folder.file("s.\(format)"), "--width", "300", "--strip"]).status == 0)
            #expect(ImageMetadata(reading: try FileIO.read(folder.file("s.\(format)"))).isEmpty, "\(format): stripped")
        }
        // XMP, IPTC and the resolution of a file that has them.
        var options = EncodeOptions()
        options.metadata = ImageMetadata(xmp: Array("<x:xmpmeta/>".utf8), iptc: Array("Photoshop 3.0\0".utf8) + [1, 2, 3, 4], density: (240, 240))
        try Image(contentsOfFile: Self.photo).write(toFile: folder.file("tagged.jpg"), options: options)
        #expect(try FrostRun.run(["blur", folder.file("tagged.jpg"), folder.file("b.jpg"), "--sigma", "1"]).status == 0)
        let blurred = ImageMetadata(reading: try FileIO.read(folder.file("b.jpg")))
        #expect(blurred.xmp == options.metadata?.xmp && blurred.iptc == options.metadata?.iptc && blurred.density?.x == 240)
        #expect(try FrostRun.run(["convert", folder.file("tagged.jpg"), folder.file("c.png")]).status == 0)
        #expect(ImageMetadata(reading: try FileIO.read(folder.file("c.png"))).xmp == options.metadata?.xmp)
    }

    /// A 16-bit PNG converted to PNG keeps its 16-bit samples, channels and profile; an operation
    /// works on 8 bits (the samples rounded) and writes 8.
    @Test(arguments: ["basn0g16.png", "basn4a16.png", "basn2c16.png", "basn6a16.png"])
    func sixteenBitPNGsStaySixteenBitThroughConvert(_ name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.path("pngsuite/\(name)")
        #expect(try FrostRun.run(["convert", source, folder.file("c.png"), "--compression", "9"]).status == 0)
        let (before, after) = (try ImageInfo(contentsOfFile: source), try ImageInfo(contentsOfFile: folder.file("c.png")))
        #expect(after.bitDepth == 16 && after.channels == before.channels && after.hasAlpha == before.hasAlpha, "\(after)")
        let samples = { (path: String) in try SixteenBitPNG(bytes: try FileIO.read(path), options: DecodeOptions())!.samples }
        #expect(try samples(folder.file("c.png")) == samples(source))
        #expect(try FrostRun.run(["blur", source, folder.file("b.png"), "--sigma", "1"]).status == 0)
        #expect(try ImageInfo(contentsOfFile: folder.file("b.png")).bitDepth == 8)
    }
}
