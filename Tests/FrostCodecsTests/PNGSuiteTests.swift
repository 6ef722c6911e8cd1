import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing
@testable import FrostCodecs

/// PngSuite conformance: decoded pixels against the reference CRC-32s in pngsuite/pngsuite.tsv.
///
/// `crc32_rgb8` is the CRC of the samples after palette/low-depth expansion and tRNS → alpha,
/// in the file's own channel layout; `crc32_raw` (used for 16-bit files) is the CRC of the raw
/// big-endian samples. Frost decodes to RGBA, so the tests rebuild those layouts from it.
@Suite struct PNGSuiteTests {
    static let rows = Corpus.table("pngsuite/pngsuite.tsv")
    static let valid = rows.filter { $0["expected"] == "valid" }.map { $0["file"]! }
    static let corrupt = rows.filter { $0["expected"] == "corrupt" }.map { $0["file"]! }

    static func row(_ file: String) -> [String: String] { rows.first { $0["file"] == file }! }

    @Test func suiteIsPresent() {
        #expect(Self.valid.count == 162)
        #expect(Self.corrupt.count == 14)
    }

    @Test(arguments: valid)
    func decodesToReferencePixels(_ file: String) throws {
        let row = Self.row(file)
        let bytes = try FileIO.read(Corpus.path("pngsuite/" + file))
        let colorType = Int(row["ihdr_color_type"]!)!
        let info = try ImageInfo(bytes: bytes)
        #expect(info.width == Int(row["ihdr_width"]!)!)
        #expect(info.height == Int(row["ihdr_height"]!)!)
        var samples: [UInt8] = []
        if info.bitDepth == 16 {
            // Raw 16-bit samples in the file's channels (tRNS not applied), big-endian.
            let (_, wide, _) = try bytes.withUnsafeBufferPointer {
                try PNGDecoder.decode16($0, options: DecodeOptions(autoOrient: false))
            }
            let picks: [Int] = [0: [0], 2: [0, 1, 2], 4: [0, 3], 6: [0, 1, 2, 3]][colorType]!
            for p in stride(from: 0, to: wide.count, by: 4) {
                for c in picks { samples += [UInt8(wide[p + c] >> 8), UInt8(wide[p + c] & 0xFF)] }
            }
            #expect(crc32(samples) == UInt32(row["crc32_raw"]!)!, "\(file)")
        } else {
            // The decoder's samples, before a gray file's gAMA is converted to sRGB (ColorConversionTests).
            let image = try bytes.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: DecodeOptions(autoOrient: false)) }
            let gray = colorType == 0 || colorType == 4
            let picks = (gray ? [0] : [0, 1, 2]) + (info.hasAlpha ? [3] : [])
            for p in stride(from: 0, to: image.pixels.count, by: 4) {
                for c in picks { samples.append(image.pixels[p + c]) }
            }
            #expect(crc32(samples) == UInt32(row["crc32_rgb8"]!)!, "\(file)")
        }
    }

    @Test(arguments: corrupt)
    func rejectsCorruptFile(_ file: String) throws {
        #expect(throws: CodecError.self) { try Image(contentsOfFile: Corpus.path("pngsuite/" + file)) }
    }

    /// The 16 → 8 reduction is round(v · 255 / 65535) for every 16-bit value.
    @Test func sixteenBitReductionRounds() {
        for v in 0...65535 {
            let exact = (Double(v) * 255 / 65535).rounded()
            #expect(Double(reduceSample16(UInt16(v))) == exact)
        }
    }
}
