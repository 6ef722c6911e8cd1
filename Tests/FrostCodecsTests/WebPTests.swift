import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// WebP through libwebp: Frost's own round trips, files made by libwebp's tools (cwebp, img2webp,
/// webpmux, from Debian's `webp`), and broken files.
@Suite struct WebPTests {
    static let tools = FileManager.default.isExecutableFile(atPath: "/usr/bin/cwebp")

    /// Runs a libwebp tool; its output goes to `/dev/null`.
    static func tool(_ name: String, _ arguments: [String]) throws {
        let run = try FrostRun.run(arguments, executable: "/usr/bin/" + name)
        try #require(run.status == 0, "\(name) failed: \(run.stderr)")
    }

    /// An EXIF orientation in the container (set by webpmux, with and without JPEG's "Exif\0\0"
    /// prefix) is read and applied as a JPEG's is; --no-auto-orient keeps the pixels as stored.
    @Test(arguments: [false, true])
    func exifOrientationIsApplied(prefixed: Bool) throws {
        guard Self.tools else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = noiseImage(width: 13, height: 7, opaque: true)
        try image.write(toFile: folder.file("plain.webp"))
        // Big-endian TIFF, one IFD entry: Orientation (0x0112), SHORT, 1, value 6 (turn 90° clockwise).
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
        try Data((prefixed ? Array("Exif\0\0".utf8) : []) + tiff).write(to: URL(fileURLWithPath: folder.file("o.exif")))
        try Self.tool("webpmux", ["-set", "exif", folder.file("o.exif"), folder.file("plain.webp"), "-o", folder.file("turned.webp")])
        #expect(try ImageInfo(contentsOfFile: folder.file("turned.webp")).orientation == 6)
        let turned = try Image(contentsOfFile: folder.file("turned.webp"))
        #expect(turned.width == 7 && turned.height == 13)
        #expect(turned.pixels == image.oriented(.right).pixels)
        let stored = try Image(contentsOfFile: folder.file("turned.webp"), options: DecodeOptions(autoOrient: false))
        #expect(stored.pixels == image.pixels)
    }

    @Test func losslessRoundTripIsBitExactWithAlpha() throws {
        // Straight RGBA noise with every alpha, the color under alpha 0 included.
        let image = noiseImage(width: 97, height: 61)
        let bytes = try image.encoded(as: .webp)
        #expect(ImageFormat(sniffing: bytes) == .webp)
        let back = try Image(decoding: bytes)
        #expect(identical(back, image) && back.hasAlpha)
        let info = try ImageInfo(bytes: bytes)
        #expect(info.format == .webp && info.width == 97 && info.height == 61 && info.hasAlpha && info.colorModel == "lossless")
    }

    @Test func losslessRoundTripOfAPhotoAndItsProfile() throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/rocket.jpg"))
        #expect(photo.iccProfile != nil)
        for effort in [0, 2, 9] {
            let back = try Image(decoding: try photo.encoded(as: .webp, options: EncodeOptions(compressionLevel: effort)))
            #expect(identical(back, photo), "effort \(effort)")
            #expect(!back.hasAlpha && back.iccProfile == photo.iccProfile)
        }
    }

    @Test func premultipliedImagesAreWrittenStraight() throws {
        let straight = noiseImage(width: 40, height: 30)
        let back = try Image(decoding: try straight.premultiplied().encoded(as: .webp))
        #expect(identical(back, straight.premultiplied().unpremultiplied()))
    }

    @Test func lossyIsCloseAndSmaller() throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/rocket.jpg"))
        let lossless = try photo.encoded(as: .webp)
        let lossy = try photo.encoded(as: .webp, options: EncodeOptions(webpQuality: 80))
        #expect(lossy.count * 3 < lossless.count)
        #expect(try ImageInfo(bytes: lossy).colorModel == "lossy")
        let difference = PixelDifference(photo, try Image(decoding: lossy), channels: 3)
        #expect(difference.mean < 3, "\(difference)")
        let transparent = try Image(contentsOfFile: Corpus.repository + "/SampleImages/coffee-cutout.png")
        let back = try Image(decoding: try transparent.encoded(as: .webp, options: EncodeOptions(webpQuality: 90)))
        #expect(back.hasAlpha && PixelDifference(transparent.premultiplied(), back.premultiplied()).mean < 2)
    }

    @Test func tooLargeForWebPIsAnEncodeError() throws {
        let wide = Image(width: 16384, height: 1, filledWith: (0, 0, 0, 255))
        #expect(throws: CodecError.self) { try wide.encoded(as: .webp) }
    }

    @Test(.enabled(if: tools, "cwebp/dwebp missing: install Debian's webp (make deps)"))
    func filesMadeByLibwebpToolsDecodeAsDwebpDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.repository + "/SampleImages/coffee-cutout.png"
        for (name, options) in [("lossless", ["-lossless"]), ("lossy", ["-q", "75"]), ("lossy-alpha", ["-q", "60", "-alpha_q", "50"])] {
            let webp = folder.file(name + ".webp"), reference = folder.file(name + ".png")
            try Self.tool("cwebp", ["-quiet"] + options + [source, "-o", webp])
            try Self.tool("dwebp", ["-quiet", webp, "-o", reference])
            let mine = try Image(contentsOfFile: webp), theirs = try Image(contentsOfFile: reference)
            #expect(mine.width == 600 && mine.height == 400 && mine.hasAlpha, "\(name)")
            // dwebp's default output is libwebp's own RGBA decode: the same library, the same bytes.
            #expect(identical(mine, theirs), "\(name)")
        }
        // An ICC profile added by webpmux is read back.
        let profile = folder.file("p.icc")
        let icc = try Image(contentsOfFile: Corpus.path("photos/rocket.jpg")).iccProfile!
        try Data(icc).write(to: URL(fileURLWithPath: profile))
        try Self.tool("webpmux", ["-set", "icc", profile, folder.file("lossy.webp"), "-o", folder.file("icc.webp")])
        #expect(try Image(contentsOfFile: folder.file("icc.webp")).iccProfile == icc)
        #expect(try ImageInfo(contentsOfFile: folder.file("icc.webp")).hasICCProfile)
        // An animation read as an image is its first frame.
        try Self.tool("img2webp", ["-q", "50", source, Corpus.path("photos/coffee.png"), "-o", folder.file("anim.webp")])
        #expect(try ImageInfo(contentsOfFile: folder.file("anim.webp")).colorModel == "animated")
        let first = try Image(contentsOfFile: folder.file("anim.webp"))
        #expect(identical(first, try AnimatedWebPFrames(try FileIO.read(folder.file("anim.webp"))).frames[0]))
    }

    @Test func brokenFilesFailCleanly() throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/coffee.png"))
        for bytes in [try photo.encoded(as: .webp), try photo.encoded(as: .webp, options: EncodeOptions(webpQuality: 70))] {
            // Cut at every length class: header only, mid-bitstream, one byte short.
            for length in [12, 20, 30, 40, bytes.count / 3, bytes.count / 2, bytes.count - 1] {
                #expect(throws: CodecError.self, "cut at \(length)") { try Image(decoding: Array(bytes.prefix(length))) }
            }
            // Bytes flipped through the bitstream: an error or an image, never a crash.
            var random = XorShift64(seed: 7)
            for _ in 0..<200 {
                var broken = bytes
                for _ in 0..<4 { broken[20 + Int(random.next() % UInt64(bytes.count - 20))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
                if let image = try? Image(decoding: broken) { #expect(image.width == photo.width) }
            }
        }
        #expect(throws: CodecError.self) { try Image(decoding: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) }
    }

    @Test func thePixelLimitHoldsBeforeDecoding() throws {
        let bytes = try Image(width: 300, height: 200, filledWith: (10, 20, 30, 255)).encoded(as: .webp)
        #expect(throws: CodecError(.tooLarge, "image is 300×200, more than the limit of 50000 pixels (see --max-pixels)")) {
            try Image(decoding: bytes, options: DecodeOptions(maxPixels: 50_000))
        }
        #expect(try Image(decoding: bytes, options: DecodeOptions(maxPixels: 60_000)).width == 300)
    }

    /// Animated WebP: transparent noise frames (every alpha, color under alpha 0 included) come back
    /// exactly when lossless, a repeated frame is folded into its predecessor's time, and a writer
    /// never finished leaves no file.
    @Test func animationsRoundTripLossless() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let frames = [noiseImage(width: 33, height: 21, seed: 7), noiseImage(width: 33, height: 21, seed: 8)]
        let path = folder.file("a.webp")
        let writer = try AnimatedWebPWriter(path: path, width: 33, height: 21, hasAlpha: true)
        for (frame, delay) in zip(frames + [frames[1]], [0.1, 0.05, 0.2]) { try writer.append(frame, delay: delay) }
        #expect(throws: CodecError.self) { try writer.append(noiseImage(width: 8, height: 8), delay: 0.1) }
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.finish()
        #expect(throws: CodecError.self) { try writer.append(frames[0], delay: 0.1) }
        let read = try AnimatedWebPFrames(try FileIO.read(path))
        #expect(read.frames.count == 2 && read.delays == [0.1, 0.25])
        for (a, b) in zip(read.frames, frames) { #expect(identical(a, b)) }
        #expect(try ImageInfo(contentsOfFile: path).format == .webp)
        #expect(throws: CodecError.self) { try AnimatedWebPFrames(try FileIO.read(path), options: DecodeOptions(maxPixels: 33 * 21)) }

        do {
            let abandoned = try AnimatedWebPWriter(path: folder.file("b.webp"), width: 8, height: 8, hasAlpha: false)
            try abandoned.append(noiseImage(width: 8, height: 8, opaque: true), delay: 0.1)
        }
        #expect(folder.contents() == ["a.webp"])
        #expect(throws: CodecError.self) { try AnimatedWebPFrames(Array("RIFF....WEBPVP8X".utf8)) }
    }
}
