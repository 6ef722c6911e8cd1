import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Palettes made by libimagequant: GIF (still and animated) and palette PNG, read back by Frost
/// and by ffmpeg.
@Suite struct PaletteTests {
    /// A picture of `colors` flat colours in stripes that move `shift` pixels to the right.
    static func stripes(width: Int = 40, height: Int = 24, colors: Int, shift: Int = 0, alpha: UInt8 = 255) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = ((x + shift) / 5 + y / 6) % colors, i = (y * width + x) * 4
                pixels[i] = UInt8(c * 37 % 256)
                pixels[i + 1] = UInt8(c * 91 % 256)
                pixels[i + 2] = UInt8(c * 53 % 256)
                pixels[i + 3] = alpha
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: alpha < 255)
    }

    static func psnr(_ a: Image, _ b: Image) -> Double {
        var total = 0.0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            for c in 0..<3 { total += pow(Double(a.pixels[i + c]) - Double(b.pixels[i + c]), 2) }
        }
        return 10 * log10(255 * 255 / (total / Double(a.pixels.count / 4 * 3)))
    }

    @Test func aFewColoursComeBackExactly() throws {
        let image = Self.stripes(colors: 12)
        let gif = try image.encoded(as: .gif)
        #expect(try ImageFormat(sniffing: gif) == .gif && identical(Image(decoding: gif), image))
        var options = EncodeOptions()
        options.colors = 16
        let png = try image.encoded(as: .png, options: options)
        let info = try ImageInfo(bytes: png)
        #expect(info.colorModel == "palette" && info.bitDepth == 4)
        #expect(identical(try Image(decoding: png), image))
    }

    /// A photograph: close (PSNR), smaller than true colour; fewer colours, smaller still.
    @Test func aPhotographIsCloseAndSmaller() throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/coffee.png"))
        let gif = try photo.encoded(as: .gif)
        #expect(Self.psnr(photo, try Image(decoding: gif)) > 30)
        var options = EncodeOptions()
        options.colors = 64
        let png64 = try photo.encoded(as: .png, options: options)
        options.colors = 256
        let png256 = try photo.encoded(as: .png, options: options)
        let truecolor = try photo.encoded(as: .png)
        #expect(png64.count < png256.count && png256.count < truecolor.count)
        #expect(try Self.psnr(photo, Image(decoding: png256)) > 30)
        #expect(try Self.psnr(photo, Image(decoding: png64)) > 26)
        options.dither = 0
        #expect(try photo.encoded(as: .png, options: options) != png256)
    }

    /// GIF keeps one transparent index: alpha below 128 is transparent, the rest opaque. A palette
    /// PNG keeps alpha as it is (tRNS).
    @Test func transparency() throws {
        let cutout = try Image(contentsOfFile: Corpus.repository + "/SampleImages/coffee-cutout.png")
        let gif = try Image(decoding: try cutout.encoded(as: .gif))
        #expect(gif.hasAlpha)
        for i in stride(from: 3, to: cutout.pixels.count, by: 4 * 97) {
            #expect(gif.pixels[i] == (cutout.pixels[i] < 128 ? 0 : 255))
        }
        var options = EncodeOptions()
        options.colors = 256
        let png = try Image(decoding: try cutout.encoded(as: .png, options: options))
        #expect(png.hasAlpha)
        #expect(PixelDifference(cutout.premultiplied(), png.premultiplied(), channels: 4).mean < 3)
    }

    /// An opaque animation stores what changed: the frames come back exactly (a few colours), a
    /// repeated frame is folded into its predecessor's time, and ffmpeg reads the same frames.
    @Test func animationsStoreWhatChanged() throws {
        let frames = [Self.stripes(colors: 8), Self.stripes(colors: 8, shift: 3), Self.stripes(colors: 8, shift: 3), Self.stripes(colors: 8, shift: 9)]
        let animation = Animation(frames: frames, delays: [0.1, 0.2, 0.3, 0.05])
        let memory = MemoryFile()
        try animation.write(into: memory, .gif())
        let back = try Animation(decoding: memory.bytes)
        try #require(back.frames.count == 3)
        #expect(back.delays == [0.1, 0.5, 0.05])
        #expect(identical(back.frames[0], frames[0]) && identical(back.frames[1], frames[1]) && identical(back.frames[2], frames[3]))
        let whole = try frames.map { try $0.encoded(as: .gif).count }.reduce(0, +)
        #expect(memory.bytes.count < whole, "\(memory.bytes.count) against \(whole)")
        #expect(try ImageInfo(bytes: memory.bytes).duration == 0.65)

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else { return }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileIO.writeAtomically(memory.bytes, to: folder.file("a.gif"))
        let run = try FrostRun.run(["-v", "error", "-i", folder.file("a.gif"), "-fps_mode", "passthrough", "-pix_fmt", "rgba",
                                    "-start_number", "0", folder.file("f-%d.png")], executable: "/usr/bin/ffmpeg")
        try #require(run.status == 0, "\(run.stderr)")
        for (k, frame) in back.frames.enumerated() {
            #expect(identical(try Image(contentsOfFile: folder.file("f-\(k).png")), frame), "frame \(k)")
        }
    }

    /// GIF counts hundredths and browsers show 0 and 1 as 10: at 60 fps frames that would start
    /// under 2 hundredths after the last one kept are left out, and the time adds up.
    @Test func sixtyFramesASecondKeepTheirPace() throws {
        let frames = (0..<6).map { Self.stripes(colors: 6, shift: $0) }
        let memory = MemoryFile()
        try Animation(frames: frames, delay: 1.0 / 60).write(into: memory, .gif())
        let back = try Animation(decoding: memory.bytes)
        #expect(back.delays == [0.02, 0.03, 0.02, 0.03])
        #expect(identical(back.frames[1], frames[1]) && identical(back.frames[2], frames[3]) && identical(back.frames[3], frames[4]))
    }

    @Test func badSettingsAreErrors() throws {
        var options = EncodeOptions()
        options.colors = 1
        #expect(throws: CodecError.self) { try Self.stripes(colors: 3).encoded(as: .gif, options: options) }
        #expect(throws: CodecError.self) { try Self.stripes(colors: 3).encoded(as: .png, options: options) }
        #expect(throws: CodecError.self) { try Image(width: 70000, height: 1, filledWith: (0, 0, 0, 255)).encoded(as: .gif) }
    }
}
