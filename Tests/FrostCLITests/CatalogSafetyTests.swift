import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// A catalog run that loses nothing (issue 56): damaged files fail alone and loudly, no output
/// replaces an input or another output, animations keep their loop counts, metadata describes the
/// pixels written, and options read as vips and sharp users expect.
@Suite struct CatalogSafetyTests {
    static let jpeg = Corpus.path("photos/UNIS_EV0.jpg")
    static let gif = Corpus.repository + "/Tests/Fixtures/animation/disposal.gif"

    static func copy(_ source: String, to path: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    // MARK: Crashes and silent wrong output

    /// 24 bytes: a PNG signature and an IHDR whose width × height overflows. It killed every filter
    /// (SIGILL) in the stream-or-whole decision; now it fails alone and the batch finishes.
    @Test(arguments: [["blur", "--sigma", "2"], ["resize", "--width", "20"], ["convert"], ["adjust", "--brightness", "0.1"]])
    func anOverflowingPNGHeaderFailsAloneInABatch(_ verb: [String]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        let head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + Array(repeating: 0xFF, count: 8)
        try Data(head).write(to: URL(fileURLWithPath: folder.file("in/a-bad.png")))
        try Self.copy(Corpus.path("pillow/jpeg/hopper.jpg"), to: folder.file("in/b-good.jpg"))
        let run = try FrostRun.run([verb[0], folder.file("in"), "-o", folder.file("out/")] + verb.dropFirst())
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.errorLines.count == 1 && run.errorLines[0].hasPrefix("frost: \(folder.file("in/a-bad.png")): "), "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("out/b-good.jpg")))
    }

    /// A JPEG cut short and closed with an EOI marker decoded to a gray lower part, silently; so did
    /// a header claiming 15000² over data for 128². Both are errors, streamed or whole, unless
    /// --allow-truncated.
    @Test func aTruncatedJPEGEndingInEOIIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cut = folder.file("cut.jpg")
        try Data(Array(try Data(contentsOf: URL(fileURLWithPath: Self.jpeg)).prefix(300_000)) + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: cut))
        for verb in [["convert"], ["blur", "--sigma", "3"], ["resize", "--width", "100"]] {
            let run = try FrostRun.run([verb[0], cut, folder.file("o.png")] + verb.dropFirst())
            #expect(run.status == 1 && run.errorLines == ["frost: \(cut): truncated or corrupt JPEG data (premature end of data segment)"],
                    "\(verb): \(run.stderr)")
        }
        #expect(try FrostRun.run(["convert", cut, folder.file("o.png"), "--allow-truncated"]).status == 0)

        let small = folder.file("small.jpg"), huge = folder.file("huge.jpg")
        #expect(try FrostRun.run(["resize", Self.jpeg, small, "--width", "128", "--height", "128", "--fit", "fill"]).status == 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: small)))
        var i = 2
        while i + 9 < bytes.count {
            if [0xC0, 0xC1, 0xC2].contains(bytes[i + 1]) {
                bytes.replaceSubrange((i + 5)..<(i + 9), with: [0x3A, 0x98, 0x3A, 0x98])   // 15000 × 15000
                break
            }
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: huge))
        let run = try FrostRun.run(["convert", huge, folder.file("h.png")])
        #expect(run.status == 1 && run.stderr.contains("truncated or corrupt JPEG data"), "\(run.stderr)")
    }

    /// --allow-truncated applies to PNG (the rows before the cut) and GIF (the whole frames before
    /// the break); without it both are errors; a GIF broken after frame 0 still gives --frame 0.
    @Test func allowTruncatedReadsWhatACutPNGOrGIFHolds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = folder.file("cut.png"), gif = folder.file("cut.gif")
        try Data(Array(try Data(contentsOf: URL(fileURLWithPath: Corpus.path("photos/coffee.png")))).prefix(30_000)).write(to: URL(fileURLWithPath: png))
        try Data(Array(try Data(contentsOf: URL(fileURLWithPath: Self.gif))).prefix(5000)).write(to: URL(fileURLWithPath: gif))
        #expect(try FrostRun.run(["convert", png, folder.file("p.png")]).status == 1)
        let kept = try FrostRun.run(["convert", png, folder.file("p.png"), "--allow-truncated"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let whole = try Image(contentsOfFile: Corpus.path("photos/coffee.png")), partial = try Image(contentsOfFile: folder.file("p.png"))
        #expect(partial.width == whole.width && partial.height == whole.height)
        let row = whole.width * 4
        #expect(Array(partial.pixels.prefix(row * 2)) == Array(whole.pixels.prefix(row * 2)), "the rows before the cut are the file's")
        #expect(partial.pixels.suffix(row).allSatisfy { $0 == 0 }, "the rows after the cut are transparent black")

        #expect(try FrostRun.run(["convert", gif, folder.file("g.png")]).status == 1)
        #expect(try FrostRun.run(["convert", gif, folder.file("g0.png"), "--frame", "0"]).status == 0)
        #expect(try FrostRun.run(["convert", gif, folder.file("g.png"), "--allow-truncated"]).status == 0)
        let frames = try ImageInfo(contentsOfFile: folder.file("g.png")).frames
        #expect(frames > 1 && frames < 5, "the whole frames before the break: \(frames)")
    }

    // MARK: Files overwritten

    /// Two inputs that write one file meet in one shard, where they are refused.
    @Test func shardsRefuseCollidingOutputs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("photos"), withIntermediateDirectories: true)
        try Self.copy(Corpus.path("pillow/jpeg/hopper.jpg"), to: folder.file("photos/IMG_1.jpg"))
        try Self.copy(Corpus.path("photos/coffee.png"), to: folder.file("photos/IMG_1.png"))
        var refused = 0
        for k in 0..<3 {
            let run = try FrostRun.run(["convert", folder.file("photos"), "-o", folder.file("out/"), "--format", "png", "--shard", "\(k)/3"])
            if run.status == 64, run.stderr.contains("would both write") { refused += 1 } else { #expect(run.status == 0, "\(run.stderr)") }
        }
        #expect(refused == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/IMG_1.png")))
    }

    /// An output that is one of the inputs (however named) is refused unless --in-place; an output
    /// folder inside an input folder is not walked into.
    @Test func outputsNeverReplaceInputs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let a = folder.file("a.jpg")
        try Self.copy(Corpus.path("pillow/jpeg/hopper.jpg"), to: a)
        let original = try Data(contentsOf: URL(fileURLWithPath: a))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.jpg"), withDestinationPath: a)
        for output in [a, folder.file("link.jpg"), folder.file("./a.jpg")] {
            let run = try FrostRun.run(["blur", a, output, "--sigma", "2"])
            #expect(run.status == 1 && run.stderr.contains("--in-place"), "\(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == original)
        let src = folder.file("src")
        try FileManager.default.createDirectory(atPath: src, withIntermediateDirectories: true)
        try Self.copy(a, to: src + "/b.jpg")
        let refused = try FrostRun.run(["resize", src, "-o", src + "/", "--width", "50"])
        #expect(try refused.status == 1 && Image(contentsOfFile: src + "/b.jpg").width == 128)
        #expect(try FrostRun.run(["resize", src, "-o", src + "/", "--width", "50", "--in-place"]).status == 0)
        #expect(try Image(contentsOfFile: src + "/b.jpg").width == 50)
        // Twice into a folder inside the input folder: the second run does not take the first's outputs.
        for _ in 0..<2 {
            let run = try FrostRun.run(["resize", src, "-o", src + "/thumbs/", "--width", "20"])
            #expect(run.status == 0 && run.stderr.contains("wrote 1, failed 0"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: src + "/thumbs/thumbs"))
    }

    @Test func aFolderNamedLikeAFileIsNotASingleOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("out.png"), withIntermediateDirectories: true)
        let run = try FrostRun.run(["blur", Corpus.path("pillow/jpeg/hopper.jpg"), folder.file("out.png"), "--sigma", "1"])
        #expect(run.status == 64 && run.stderr.contains("is a folder"), "\(run.stderr)")
        #expect(try folder.contents() == ["out.png"] && FileManager.default.contentsOfDirectory(atPath: folder.file("out.png")).isEmpty)
    }

    // MARK: Animation and metadata

    /// A loop count goes through GIF, WebP and APNG and back, is shown by `info`, set by --loop;
    /// a GIF played once (no NETSCAPE2.0 block) stays played once.
    @Test func loopCountsSurviveEveryAnimationFormat() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let three = folder.file("three.gif")
        #expect(try FrostRun.run(["convert", Self.gif, three, "--loop", "3"]).status == 0)
        var previous = three
        for name in ["a.webp", "b.png", "c.gif", "d.webp"] {
            #expect(try FrostRun.run(["resize", previous, folder.file(name), "--width", "32"]).status == 0)
            let info = try ImageInfo(contentsOfFile: folder.file(name))
            #expect(info.frames == 5 && info.loops == 3, "\(name): \(info.loops)")
            previous = folder.file(name)
        }
        let json = try FrostRun.run(["info", folder.file("b.png"), "--json"])
        #expect(json.stdout.contains(#""loops": 3"#))
        #expect(try FrostRun.run(["convert", Self.gif, folder.file("once.gif"), "--loop", "1"]).status == 0)
        #expect(try FrostRun.run(["convert", folder.file("once.gif"), folder.file("once.webp")]).status == 0)
        #expect(try ImageInfo(contentsOfFile: folder.file("once.webp")).loops == 1)
        #expect(try ImageInfo(contentsOfFile: Self.gif).loops == 0)
        #expect(try FrostRun.run(["convert", Self.gif, folder.file("x.jpg"), "--loop", "2"]).status == 64)
    }

    /// Equal frames stay an animation of the same duration and loop count in every animation format
    /// (libwebp's encoder merged them into a still; a GIF folded them into one frame).
    @Test func anAnimationOfEqualFramesStaysAnAnimation() throws {
        let frame = noiseImage(width: 24, height: 16, seed: 5, opaque: true)
        var animation = Animation(frames: [frame, frame, frame], delay: 0.1)
        animation.loops = 4
        for format in [ImageFormat.png, .webp, .gif] {
            let memory = MemoryFile()
            try animation.write(into: memory, as: format, options: EncodeOptions())
            let info = try ImageInfo(bytes: memory.bytes)
            #expect(info.frames >= 2 && abs(info.duration - 0.3) < 0.011 && info.loops == 4, "\(format): \(info.frames) frames, \(info.duration) s")
            let decoded = try Animation(decoding: memory.bytes)
            #expect(decoded.frames.allSatisfy { $0.pixels == decoded.frames[0].pixels }, "\(format)")
        }
    }

    /// A resize drops EXIF's thumbnail (IFD1) and writes the new pixel dimensions.
    @Test func exifDescribesTheResizedPixels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for format in ["jpg", "avif", "png", "webp"] {
            let out = folder.file("r.\(format)")
            #expect(try FrostRun.run(["resize", Self.jpeg, out, "--width", "200"]).status == 0)
            let exif = try #require(ImageMetadata(reading: Array(try Data(contentsOf: URL(fileURLWithPath: out)))).exif)
            #expect(exif.count < 20_000, "\(format): \(exif.count) bytes of EXIF (the source's 41 kB were mostly its thumbnail)")
            let tiff = exif
            let little = tiff[0] == 0x49
            func u16(_ at: Int) -> Int { little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1]) }
            func u32(_ at: Int) -> Int { little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
            let ifd0 = u32(4), count = u16(ifd0)
            #expect(u32(ifd0 + 2 + count * 12) == 0, "\(format): IFD1 is still linked")
            let exifIFD = (0..<count).map { ifd0 + 2 + $0 * 12 }.first { u16($0) == 0x8769 }.map { u32($0 + 8) }
            let entries = exifIFD.map { e in (0..<u16(e)).map { e + 2 + $0 * 12 } } ?? []
            let dims = entries.filter { [0xA002, 0xA003].contains(u16($0)) }.map { u16($0 + 2) == 3 ? u16($0 + 8) : u32($0 + 8) }
            #expect(dims == [200, 150], "\(format): \(dims)")
        }
    }

    /// --no-auto-orient into an AVIF: the rotation goes into irot/imir and the EXIF says 1.
    @Test func anAVIFSignalsItsOrientationOnce() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.file("six.avif")
        #expect(try FrostRun.run(["convert", Corpus.path("exif-orientation-examples/Landscape_6.jpg"), out, "--no-auto-orient"]).status == 0)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(try ImageInfo(bytes: bytes).orientation == 6)
        let exif = try #require(ImageMetadata(reading: bytes).exif)
        #expect(exif.withUnsafeBufferPointer { EXIFOrientationProbe.read($0) } == 1)
    }

    /// A JPEG's gain-map XMP (hdrgm, Container:Directory) goes with the gain map Frost drops.
    @Test func gainMapXMPIsDropped() throws {
        let xmp = #"<x:xmpmeta><rdf:Description hdrgm:Version="1.0" dc:title="kept"><Container:Directory><rdf:Seq/></Container:Directory></rdf:Description></x:xmpmeta>"#
        let jpegBytes = try noiseImage(width: 8, height: 8, opaque: true).encoded(as: .jpeg)
        let app1 = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
        let file = Array(jpegBytes[0..<2]) + segment + jpegBytes[2...]
        let kept = String(decoding: try #require(ImageMetadata(reading: file).xmp), as: UTF8.self)
        #expect(!kept.contains("hdrgm") && !kept.contains("Container:Directory") && kept.contains(#"dc:title="kept""#), "\(kept)")
    }

    // MARK: Defaults and options

    /// WebP is lossy (quality 80) by default, as cwebp, libvips and sharp; --lossless asks.
    @Test func webpIsLossyByDefault() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try FrostRun.run(["resize", Self.jpeg, folder.file("d.webp"), "--width", "1024"]).status == 0)
        #expect(try FrostRun.run(["resize", Self.jpeg, folder.file("q.webp"), "--width", "1024", "--quality", "80"]).status == 0)
        #expect(try FrostRun.run(["resize", Self.jpeg, folder.file("l.webp"), "--width", "1024", "--lossless"]).status == 0)
        let size = { (name: String) in (try FileManager.default.attributesOfItem(atPath: folder.file(name))[.size] as! NSNumber).intValue }
        #expect(try size("d.webp") == size("q.webp"))
        #expect(try ImageInfo(contentsOfFile: folder.file("d.webp")).colorModel == "lossy")
        #expect(try ImageInfo(contentsOfFile: folder.file("l.webp")).colorModel == "lossless")
        #expect(try FrostRun.run(["resize", Self.jpeg, folder.file("x.webp"), "--width", "10", "--lossless", "--quality", "50"]).status == 64)
        #expect(try FrostRun.run(["resize", Self.jpeg, folder.file("x.jpg"), "--width", "10", "--lossless"]).status == 64)
    }

    /// CSS colours in --background (which then flattens every output), --tint and tint presets.
    @Test(arguments: [("red", [255, 0, 0]), ("#f00", [255, 0, 0]), ("#00ff0080", [128, 255, 128]), ("rgb(0 0 255 / 50%)", [0, 0, 255]),
                      ("rgba(0, 0, 255, 1)", [0, 0, 255]), ("hotpink", [255, 105, 180]), ("transparent", [0, 0, 0])])
    func cssColoursAreColours(_ text: String, _ expected: [Int]) throws {
        let color = try Color(parsing: text)
        let rgb = [color.red, color.green, color.blue].map { Int(($0 * 255).rounded()) }
        if text == "#00ff0080" { #expect(rgb == [0, 255, 0] && abs(color.alpha - 128.0 / 255) < 1e-9) } else { #expect(rgb == expected, "\(text)") }
        #expect(try Color(parsing: "lavender") == Color.palette["lavender"], "Secret's palette wins over CSS's name")
    }

    @Test func anExplicitBackgroundFlattensEveryOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for format in ["png", "webp"] {
            let out = folder.file("flat.\(format)")
            let run = try FrostRun.run(["convert", Corpus.path("pngsuite/basn6a08.png"), out, "--background", "rgb(255 0 0)", "--lossless"]
                .filter { format == "webp" || $0 != "--lossless" })
            #expect(run.status == 0, "\(run.stderr)")
            let image = try Image(contentsOfFile: out)
            #expect(!image.hasAlpha || !image.containsTransparency, "\(format)")
        }
        let bad = try FrostRun.run(["convert", Self.jpeg, folder.file("x.png"), "--background", "hotpinkk"])
        #expect(bad.status == 64 && bad.stderr.contains("did you mean hotpink?"), "\(bad.stderr)")
    }

    /// `-o -` is standard output for a drawn placeholder and a page; a drawn placeholder is written
    /// in the format its name says.
    @Test func dashIsStandardOutputAndNamesSayTheFormat() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let hash = "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
        let piped = try FrostRun.run(["placeholder", "--decode", hash, "-o", "-"])
        #expect(piped.status == 0 && ImageFormat(sniffing: piped.stdoutBytes) == .png, "\(piped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "-"))
        #expect(try FrostRun.run(["placeholder", "--decode", hash, "-o", folder.file("p.jpg")]).status == 0)
        #expect(ImageFormat(sniffing: Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("p.jpg"))))) == .jpeg)
        let cache = folder.file("c.frost")
        #expect(try FrostRun.run(["cache", Corpus.path("pillow/jpeg/hopper.jpg"), "-o", cache, "--levels", "3"]).status == 0)
        let page = try FrostRun.run(["page", cache, "-o", "-"])
        #expect(page.status == 0 && page.stdout.lowercased().hasPrefix("<!doctype html>") && !page.stdout.contains("levels of"), "\(page.stderr)")
    }

    /// Value errors name the nearest value; a shard, an unknown short option and a scene's JSON
    /// syntax error say what is wrong where.
    @Test func errorsNameTheNearestValueAndThePlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = Corpus.path("pillow/jpeg/hopper.jpg")
        let cases: [([String], String)] = [
            (["resize", photo, folder.file("o.jpg"), "--width", "10", "--kernel", "lanczos2"], "did you mean lanczos3?"),
            (["effect", photo, folder.file("o.jpg"), "--preset", "lite"], "light, extra-light, dark, tint:COLOR"),
            (["blur", photo, folder.file("o.jpg"), "--sigma", "1", "--shard", "-1/3"], "part K (counted from 0) of N"),
            (["resize", photo, folder.file("o.jpg"), "-w", "10"], "unknown option '-w' (did you mean --width?)"),
            (["convert", photo, folder.file("o.png"), "--format", "pgn"], "did you mean png?"),
        ]
        for (arguments, expected) in cases {
            let run = try FrostRun.run(arguments)
            #expect(run.status == 64 && run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
        let scene = folder.file("bad.json")
        try Data("{\n \"width\": 10,\n \"x\": [1, 2,, 3]\n}".utf8).write(to: URL(fileURLWithPath: scene))
        let run = try FrostRun.run(["compose", scene, "-o", folder.file("s.png")])
        #expect(run.status == 1 && run.stderr.contains("not valid JSON at line 3, column 13"), "\(run.stderr)")
        // Paths without doubled slashes.
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.file("in/junk.png")))
        let junk = try FrostRun.run(["convert", folder.file("in") + "/", "-o", folder.file("out/")])
        #expect(junk.errorLines.first?.hasPrefix("frost: \(folder.file("in/junk.png")):") == true, "\(junk.stderr)")
    }

    /// `info --json` and `placeholder --json` both say the stored and the displayed size.
    @Test func infoAndPlaceholderSayBothSizes() throws {
        let photo = Corpus.path("exif-orientation-examples/Landscape_6.jpg")
        let info = try FrostRun.run(["info", photo, "--json"]), placeholder = try FrostRun.run(["placeholder", photo, "--json"])
        let stored = try ImageInfo(contentsOfFile: photo)
        for run in [info, placeholder] {
            #expect(run.stdout.contains(#""stored_width": \#(stored.width), "stored_height": \#(stored.height)"#), "\(run.stdout)")
            #expect(run.stdout.contains(#""display_width": \#(stored.height), "display_height": \#(stored.width)"#), "\(run.stdout)")
        }
    }

    /// Limits checked from the header, before decoding: WebP's 16383 pixels a side, and --frame K
    /// past a still's one frame (streamed or whole).
    @Test func limitsAreCheckedBeforeDecoding() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let wide = folder.file("wide.jpg")
        #expect(try FrostRun.run(["resize", Corpus.path("pillow/jpeg/hopper.jpg"), wide, "--width", "17000", "--height", "8", "--fit", "fill"]).status == 0)
        let run = try FrostRun.run(["blur", wide, folder.file("w.webp"), "--sigma", "1"])
        #expect(run.status == 1 && run.stderr.contains("17000x8 is too large for WebP"), "\(run.stderr)")
        #expect(try FrostRun.run(["resize", wide, folder.file("w.webp"), "--width", "1000"]).status == 0)
        for output in ["f.png", "f.jpg"] {
            let frame = try FrostRun.run(["convert", Self.jpeg, folder.file(output), "--frame", "3"])
            #expect(frame.status == 1 && frame.stderr.contains("there is no frame 3"), "\(output): \(frame.stderr)")
        }
    }
}

/// The EXIF orientation as the codecs read it (their reader is internal).
enum EXIFOrientationProbe {
    static func read(_ tiff: UnsafeBufferPointer<UInt8>) -> Int {
        guard tiff.count >= 8 else { return 1 }
        let little = tiff[0] == 0x49
        func u16(_ at: Int) -> Int { little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1]) }
        func u32(_ at: Int) -> Int { little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2) }
        let ifd = u32(4)
        for entry in 0..<u16(ifd) where u16(ifd + 2 + entry * 12) == 0x0112 { return u16(ifd + 2 + entry * 12 + 8) }
        return 1
    }
}
