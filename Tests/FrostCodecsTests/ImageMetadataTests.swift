import Foundation
@testable import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// EXIF, XMP, IPTC and resolution: read from each container, written where each format keeps
/// them, the files still read as images, and the orientation reset when pixels were turned.
@Suite struct ImageMetadataTests {
    /// Big-endian TIFF, IFD0 with one entry: Orientation (SHORT) = 6.
    static let exif: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
    static let xmp = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>"#.utf8)
    static let iptc = Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [4, 4, 0, 0, 0, 0, 0, 4, 0x1C, 2, 0, 0]
    static let metadata = ImageMetadata(exif: exif, xmp: xmp, iptc: iptc, density: (300, 150))

    /// What each format keeps of `metadata`.
    static func kept(_ format: ImageFormat) -> ImageMetadata {
        switch format {
        case .jpeg: metadata
        case .png: ImageMetadata(exif: exif, xmp: xmp, density: (300, 150))
        case .webp: ImageMetadata(exif: exif, xmp: xmp)
        case .avif: ImageMetadata(exif: upright, xmp: xmp)   // the turn in irot/imir, said once
        case .heic: ImageMetadata(exif: upright, xmp: xmp)   // the pixels turned instead
        case .gif: ImageMetadata()
        }
    }

    /// `exif` with its orientation set to 1.
    static let upright = Array(exif[..<19]) + [1] + Array(exif[20...])

    /// GIF keeps none of it (its comment and application blocks hold no EXIF that readers look for).
    @Test(arguments: ImageFormat.writable.filter { $0 != .gif }, [false, true])
    func writtenAndReadBackInEveryFormat(_ format: ImageFormat, alpha: Bool) throws {
        let image = noiseImage(width: 23, height: 9, opaque: !alpha || format == .jpeg)
        var options = EncodeOptions()
        options.metadata = Self.metadata
        let bytes = try image.encoded(as: format, options: options)
        let read = ImageMetadata(reading: bytes), kept = Self.kept(format)
        #expect(read.exif == kept.exif && read.xmp == kept.xmp && read.iptc == kept.iptc, "\(format)")
        // PNG stores whole pixels per metre: 150 dpi is 5905.5 of them, read back as 150.01.
        #expect((read.density == nil) == (kept.density == nil))
        if let density = read.density { #expect(abs(density.x - 300) < 0.02 && abs(density.y - 150) < 0.02, "\(density)") }
        guard format != .heic else {
            // Written upright (HEIFTests.anOrientationShowsTheSame): turned, the EXIF saying so.
            #expect(try ImageInfo(bytes: bytes).orientation == 1 && (try Image(decoding: bytes)).width == 9)
            return
        }
        // Still an image, the same pixels, the orientation seen (and applied).
        let plain = try image.encoded(as: format)
        let stored = try Image(decoding: bytes, options: DecodeOptions(autoOrient: false))
        #expect(stored.pixels == (try Image(decoding: plain)).pixels)
        #expect(stored.hasAlpha == (try Image(decoding: plain)).hasAlpha)
        #expect(try ImageInfo(bytes: bytes).orientation == 6)
        #expect(try Image(decoding: bytes).width == 9)
    }

    /// A lossy WebP with alpha is already an extended container: its flags gain EXIF and XMP.
    @Test func lossyWebPWithAlpha() throws {
        let image = noiseImage(width: 30, height: 20)
        var options = EncodeOptions(webpQuality: 70)
        options.metadata = Self.metadata
        let bytes = try image.encoded(as: .webp, options: options)
        #expect(ImageMetadata(reading: bytes) == Self.kept(.webp))
        #expect(try Image(decoding: bytes, options: DecodeOptions(autoOrient: false)).pixels
                == (try Image(decoding: try image.encoded(as: .webp, options: EncodeOptions(webpQuality: 70)))).pixels)
    }

    @Test func uprightingSetsTheOrientationToOneInEitherByteOrder() {
        let little: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]
        for tiff in [Self.exif, little] {
            let upright = ImageMetadata(exif: tiff).uprighted().exif!
            #expect(upright.withUnsafeBufferPointer { EXIFOrientation.read($0) } == 1)
            #expect(upright.count == tiff.count && zip(upright, tiff).filter { $0 != $1 }.count == 1)
        }
        let none: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0]
        #expect(ImageMetadata(exif: none).uprighted().exif == none)
    }

    /// A camera-style file from the corpus: its EXIF, orientation 6, and JFIF resolution.
    @Test func aRealFilesMetadata() throws {
        let bytes = try FileIO.read(Corpus.path("exif-orientation-examples/Landscape_6.jpg"))
        let metadata = ImageMetadata(reading: bytes)
        let exif = try #require(metadata.exif)
        #expect(exif.withUnsafeBufferPointer { EXIFOrientation.read($0) } == 6)
        // Damaged containers give what was read before the damage, never a trap.
        for cut in stride(from: 0, to: min(bytes.count, 4000), by: 37) {
            _ = ImageMetadata(reading: Array(bytes[..<cut]))
        }
    }
}
