@testable import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// JPEG decoding against libjpeg-turbo's own output and the EXIF orientation set.
@Suite struct JPEGTests {
    /// Every reftest JPEG that has a reference PNG beside it (decoded by ImageMagick over libjpeg-turbo),
    /// but the CMYK ones: their PNGs are a naive conversion, and Frost reads profile-less CMYK under its
    /// default CMYK profile (ColorConversionTests checks those against lcms2).
    static let references: [String] = {
        let folders = ["jpeg-decoder/reftest", "jpeg-decoder/reftest/mozilla"]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: Corpus.path(folder))) ?? [])
                .filter { $0.hasSuffix(".jpg") && !$0.contains("cmyk") && FileManager.default.fileExists(atPath: Corpus.path(folder + "/" + $0.dropLast(4) + ".png")) }
                .map { folder + "/" + $0 }
        }.sorted()
    }()

    @Test func referencesArePresent() { #expect(Self.references.count >= 30) }

    /// Same pixels as the reference within the IDCT rounding of libjpeg-turbo's SIMD paths:
    /// differences of at most 2 levels (ImageMagick may use a different IDCT/upsampling build).
    @Test(arguments: references)
    func matchesReferenceDecoding(_ file: String) throws {
        let image = try CorpusTests.decodeValid(file)
        let reference = try Image(contentsOfFile: Corpus.path(String(file.dropLast(4)) + ".png"))
        #expect(image.width == reference.width && image.height == reference.height)
        let difference = PixelDifference(image, reference, channels: 3)
        #expect(difference.max <= 2, "\(file): \(difference)")
    }

    @Test func cmykAndYCCKBecomeRGB() throws {
        for file in ["pillow/jpeg/pil_sample_cmyk.jpg", "jpeg-decoder/reftest/mozilla/jpg-cmyk-1.jpg"] {
            let image = try Image(contentsOfFile: Corpus.path(file))
            #expect(!image.isGray && !image.hasAlpha && image.iccProfile == nil, "untagged sRGB after the CMYK profile")
        }
        // pil_sample_cmyk (YCCK) is pil_sample_rgb separated naively (C = 255 − R); read as a press
        // prints it, it is the same picture, duller: the same shapes, the colours within a press's gamut.
        let cmyk = try Image(contentsOfFile: Corpus.path("pillow/jpeg/pil_sample_cmyk.jpg"))
        let rgb = try Image(contentsOfFile: Corpus.path("pillow/jpeg/pil_sample_rgb.jpg"))
        #expect(PixelDifference(cmyk, rgb, channels: 3).mean < 40)
    }

    @Test func arithmeticCodingDecodesLikeHuffman() throws {
        let arithmetic = try Image(contentsOfFile: Corpus.path("libjpeg-turbo/testimgari.jpg"))
        let huffman = try Image(contentsOfFile: Corpus.path("libjpeg-turbo/testimgint.jpg"))
        #expect(arithmetic == huffman)
    }

    /// Orientation 0–8: every file shows the same upright picture as orientation 1.
    @Test(arguments: ["Landscape", "Portrait"])
    func everyOrientationIsUpright(_ kind: String) throws {
        let upright = try Image(contentsOfFile: Corpus.path("exif-orientation-examples/\(kind)_1.jpg"))
        for n in [0, 2, 3, 4, 5, 6, 7, 8] {
            let file = Corpus.path("exif-orientation-examples/\(kind)_\(n).jpg")
            let image = try Image(contentsOfFile: file)
            try #require(image.width == upright.width && image.height == upright.height, "orientation \(n)")
            // Separately encoded JPEGs of one picture: close, not equal (measured means 3.3–3.7;
            // a wrongly turned picture differs by more than 20).
            #expect(PixelDifference(image, upright, channels: 3).mean < 5, "orientation \(n)")
            // ...and the stored pixels really differ, so the test would notice an ignored tag.
            let stored = try Image(contentsOfFile: file, options: DecodeOptions(autoOrient: false))
            let sameSize = stored.width == upright.width && stored.height == upright.height
            if n > 1 { #expect(!sameSize || PixelDifference(stored, upright, channels: 3).mean > 20, "orientation \(n)") }
        }
    }

    @Test func iccProfileIsReassembledOrDropped() throws {
        let big = try Image(contentsOfFile: Corpus.path("pillow/jpeg/icc_profile_big.jpg"))
        #expect(big.iccProfile?.count == 399788)
        // Chunks out of order, reassembled: 254 bytes of jpeg-decoder's test data, no profile lcms2
        // reads, so ignored on reading (its reason said).
        let order = try JPEGDecoder.Session(copying: try FileIO.read(Corpus.path("jpeg-decoder/icc/icc_chunk_order.jpeg")))
        #expect(order.header.icc_length == 254 && order.info.ignoredProfile == "lcms2 cannot read it" && order.info.hasICCProfile)
        for broken in ["icc_chunk_seq_no_0", "icc_missing_chunk", "icc_chunk_count_mismatch"] {
            #expect(try Image(contentsOfFile: Corpus.path("jpeg-decoder/icc/\(broken).jpeg")).iccProfile == nil)
        }
    }
}
