import FrostCodecs
@_spi(Kernels) import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// Encode → decode round trips and metadata pass-through.
@Suite struct RoundTripTests {
    /// A 37×23 noise image, gray (R = G = B, `isGray`) when asked.
    static func noise(gray: Bool, opaque: Bool) -> Image {
        var image = noiseImage(width: 37, height: 23, opaque: opaque)
        if gray {
            for i in stride(from: 0, to: image.pixels.count, by: 4) {
                image.pixels[i + 1] = image.pixels[i]; image.pixels[i + 2] = image.pixels[i]
            }
            image.isGray = true
        }
        return image
    }

    /// The PNG writer's three paths: run-length deflate (level 1), libdeflate (a fixed filter at
    /// another level) and libpng with zlib (adaptive filters).
    static let encoderPaths: [(level: Int, filter: Int?)] = [(1, 2), (2, 4), (6, nil)]

    /// PNG is lossless for every kind Frost writes, and the kind is kept.
    @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
    func pngRoundTripIsExact(gray: Bool, alpha: Bool) throws {
        let image = Self.noise(gray: gray, opaque: !alpha)
        // Each fixed filter at libdeflate's levels and level 1 (Frost's run-length deflate; Paeth, the default, through the
        // AVX2 residuals in release builds); zlib with adaptive filters.
        let settings: [(level: Int, filter: Int?)] = [(0, 2), (1, 0), (1, 1), (1, 4), (2, 2), (2, 3), (2, 4), (9, 4), (2, nil), (9, nil)]
        for (level, filter) in settings {
            let bytes = try image.encoded(as: .png, options: EncodeOptions(compressionLevel: level, pngFilter: filter))
            let info = try FrostCodecs.ImageInfo(bytes: bytes)
            #expect(info.channels == (gray ? 1 : 3) + (alpha ? 1 : 0))
            let back = try Image(decoding: bytes)
            #expect(back.pixels == image.pixels)
            #expect(back.isGray == gray && back.hasAlpha == alpha)
        }
    }

    /// An image that says it has no alpha but holds a pixel below 255 (built by hand) keeps its
    /// alpha: the encoder sees it as it packs the rows, wherever the pixel is (the first, one in a
    /// four-pixel step of the color packing, one in a row's tail), on both encoder paths.
    @Test(arguments: [true, false])
    func pngKeepsAlphaThatHasAlphaDenies(gray: Bool) throws {
        let positions = [(0, 0), (17, 11), (31, 5), (36, 22)]
        for (x, y) in positions {
            var image = Self.noise(gray: gray, opaque: true)
            image.hasAlpha = false
            image.pixels[(y * 37 + x) * 4 + 3] = 254
            for (level, filter) in Self.encoderPaths {
                let bytes = try image.encoded(as: .png, options: EncodeOptions(compressionLevel: level, pngFilter: filter))
                #expect(try FrostCodecs.ImageInfo(bytes: bytes).channels == (gray ? 2 : 4), "pixel (\(x), \(y)), level \(level)")
                let back = try Image(decoding: bytes)
                #expect(back.pixels == image.pixels && back.hasAlpha, "pixel (\(x), \(y)), level \(level)")
            }
        }
    }

    /// Every valid 8-bit-or-less PngSuite file survives decode → encode → decode unchanged.
    @Test func pngSuiteRoundTripsExactly() throws {
        for file in PNGSuiteTests.valid {
            let image = try Image(contentsOfFile: Corpus.path("pngsuite/" + file))
            let back = try Image(decoding: try image.encoded(as: .png))
            #expect(back.pixels == image.pixels, "\(file)")
        }
    }

    /// JPEG error on a real photo (coffee.png, measured): quality 90 4:4:4 → mean 2.44 levels,
    /// quality 75 4:2:0 progressive → mean 4.02. The bounds leave 20% headroom.
    @Test func jpegRoundTripIsClose() throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/coffee.png"))
        let q90 = try Image(decoding: try photo.encoded(as: .jpeg))
        let d90 = PixelDifference(q90, photo, channels: 3)
        #expect(d90.mean < 2.9, "\(d90)")
        let q75 = try Image(decoding: try photo.encoded(as: .jpeg, options: EncodeOptions(quality: 75, progressive: true)))
        let d75 = PixelDifference(q75, photo, channels: 3)
        #expect(d75.mean < 4.8 && d75.mean > d90.mean, "\(d75)")
    }

    @Test func jpegSubsamplingFollowsQuality() throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/coffee.png"))
        // SOF0 component 1 sampling byte: 0x11 for 4:4:4, 0x22 for 4:2:0.
        func lumaSampling(_ bytes: [UInt8]) -> UInt8? {
            guard let sof = (0..<bytes.count - 1).first(where: { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) }) else { return nil }
            return bytes[sof + 11]
        }
        #expect(lumaSampling(try photo.encoded(as: .jpeg, options: EncodeOptions(quality: 90))) == 0x11)
        #expect(lumaSampling(try photo.encoded(as: .jpeg, options: EncodeOptions(quality: 89))) == 0x22)
    }

    @Test func grayStaysGrayInJPEG() throws {
        let gray = try Image(contentsOfFile: Corpus.path("pillow/jpeg/hopper_gray.jpg"))
        let info = try FrostCodecs.ImageInfo(bytes: try gray.encoded(as: .jpeg))
        #expect(info.channels == 1)
    }

    @Test func iccProfileIsCarriedAcrossFormats() throws {
        let source = try Image(contentsOfFile: Corpus.path("libjpeg-turbo/vgl_5674_0098.png"))
        let profile = try #require(source.iccProfile)
        for format in ImageFormat.writable where format != .gif {   // GIF keeps no profile
            let back = try Image(decoding: try source.encoded(as: format))
            #expect(back.iccProfile == profile, "\(format)")
        }
    }

    @Test(arguments: [true, false])
    func premultipliedImagesAreWrittenStraight(gray: Bool) throws {
        let premultiplied = Self.noise(gray: gray, opaque: false).premultiplied()
        // The encoder divides as it packs the rows: the scalar reference's bytes, on each path.
        var expected = premultiplied.pixels
        premultiplied.pixels.withUnsafeBufferPointer { source in
            expected.withUnsafeMutableBufferPointer { unpremultiplyScalar(source.baseAddress!, into: $0.baseAddress!, pixels: 37 * 23) }
        }
        for (level, filter) in Self.encoderPaths {
            let bytes = try premultiplied.encoded(as: .png, options: EncodeOptions(compressionLevel: level, pngFilter: filter))
            #expect(try FrostCodecs.ImageInfo(bytes: bytes).channels == (gray ? 2 : 4))
            let back = try Image(decoding: bytes)
            #expect(back.pixels == expected, "level \(level)")
        }
    }
}

/// JPEGs encoded in strips on several threads are the bytes of a one-thread encode (restart
/// markers end every MCU row of an image 32 MCU rows tall or more, however it is encoded).
@Suite struct JPEGStripTests {
    @Test(arguments: [(90, false, 1000), (80, false, 1000), (75, true, 700), (90, false, 263), (85, false, 4099)])
    func stripsDecodeAsOnePiece(quality: Int, gray: Bool, height: Int) throws {
        // The photo tiled to 523 × height (gray: its red channel).
        let photo = try Image(contentsOfFile: Corpus.path("photos/rocket.jpg"))
        var pixels = [UInt8](repeating: 255, count: 523 * height * 4)
        for y in 0..<height { for x in 0..<523 { for c in 0..<3 {
            pixels[(y * 523 + x) * 4 + c] = photo.pixels[((y % photo.height) * photo.width + x % photo.width) * 4 + (gray ? 0 : c)]
        } } }
        let image = Image(width: 523, height: height, pixels: pixels, isGray: gray, iccProfile: photo.iccProfile)
        let options = EncodeOptions(quality: quality)
        let whole = try image.encoded(as: .jpeg, options: options, threads: 1)
        let reference = try Image(decoding: whole)
        for threads in [2, 3, 5] {
            let strips = try image.encoded(as: .jpeg, options: options, threads: threads)
            let decoded = try Image(decoding: strips)
            #expect(decoded.width == 523 && decoded.height == height && decoded.iccProfile == image.iccProfile)
            #expect(identical(decoded, reference), "\(threads) threads")
            #expect(strips == whole, "\(threads) threads")
            #expect(try ImageInfo(bytes: strips).height == height)
        }
    }
}
