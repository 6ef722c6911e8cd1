import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Every file of the corpus's MANIFEST.tsv (Tests/Corpus/) does what the manifest says: valid files decode,
/// corrupt files are rejected with an error, no-crash files end cleanly. In-process, so a crash
/// in the C layer fails the run.
@Suite struct CorpusTests {
    /// Valid in the source, but formats Frost refuses on purpose with a "not supported" error.
    static let unsupported = [
        "libjpeg-turbo/testorig12.jpg", "libjpeg-turbo/monkey12.jpg",
        "jpeg-decoder/reftest/lossless/1/jpeg_lossless_sel1.jpg",
    ]
    /// Valid in the source and decoded by Pillow past libjpeg's warnings, but damaged: cut short (a
    /// progressive file missing its last scans) or with broken scan data (a bad Huffman code; the
    /// file's point in Pillow's tests is its EXIF). Errors unless the caller allows a damaged file,
    /// as libvips's fail=true and sharp's default refuse them (issue 56).
    static let damaged = ["jpeg-decoder/reftest/partial_progressive.jpg", "pillow/jpeg/hopper_bad_exif.jpg"]

    /// How a valid file of the corpus is decoded: a damaged one with `allowTruncated`, after
    /// checking that it fails without.
    static func decodeValid(_ file: String) throws -> Image {
        guard damaged.contains(file) else { return try Image(contentsOfFile: Corpus.path(file)) }
        #expect(throws: CodecError.self) { try Image(contentsOfFile: Corpus.path(file)) }
        return try Image(contentsOfFile: Corpus.path(file), options: DecodeOptions(allowTruncated: true))
    }
    static let validPNG = Corpus.files(format: "png", expected: "valid")
    static let validJPEG = Corpus.files(format: "jpeg", expected: "valid").filter { !unsupported.contains($0) }
    static let corrupt = Corpus.files(format: "png", expected: "corrupt") + Corpus.files(format: "jpeg", expected: "corrupt")
    static let noCrash = Corpus.files(format: "png", expected: "no-crash") + Corpus.files(format: "jpeg", expected: "no-crash")

    @Test func manifestIsPresent() {
        #expect(Self.validPNG.count > 400)
        #expect(Self.validJPEG.count > 90)
        #expect(Self.corrupt.count == 66)
        #expect(Self.noCrash.count == 102)
    }

    @Test(arguments: validPNG + validJPEG)
    func validFileDecodes(_ file: String) throws {
        let image = try Self.decodeValid(file)
        let info = try ImageInfo(contentsOfFile: Corpus.path(file))
        let (w, h) = Orientation(exifValue: info.orientation).swapsAxes ? (info.height, info.width) : (info.width, info.height)
        #expect(image.width == w && image.height == h)
    }

    @Test(arguments: corrupt)
    func corruptFileIsRejected(_ file: String) {
        #expect(throws: CodecError.self) { try Image(contentsOfFile: Corpus.path(file)) }
    }

    @Test(arguments: noCrash)
    func noCrashFileEndsCleanly(_ file: String) {
        _ = try? Image(contentsOfFile: Corpus.path(file))
    }

    @Test(arguments: unsupported)
    func highPrecisionAndLosslessJPEGAreNotSupported(_ file: String) {
        #expect {
            try Image(contentsOfFile: Corpus.path(file))
        } throws: { error in
            let error = error as! CodecError
            return error.kind == .unsupported && error.message.contains("not supported")
        }
    }

    @Test func truncatedJPEGFailsByDefaultAndLoadsOnRequest() throws {
        let file = Corpus.path("pillow/jpeg/truncated_jpeg.jpg")
        #expect {
            try Image(contentsOfFile: file)
        } throws: { ($0 as! CodecError).kind == .truncated }
        let image = try Image(contentsOfFile: file, options: DecodeOptions(allowTruncated: true))
        #expect(image.width == 100 && image.height == 100)
    }

    @Test func declaredSizeOverBudgetIsRefusedBeforeDecoding() {
        // 65535×65535 in a tiny file: refused from the header, no allocation.
        #expect {
            try Image(contentsOfFile: Corpus.path("jpeg-decoder/crashtest/max_size.jpg"))
        } throws: { ($0 as! CodecError).kind == .tooLarge }
        #expect {
            try Image(contentsOfFile: Corpus.path("photos/coffee.png"), options: DecodeOptions(maxPixels: 600 * 400 - 1))
        } throws: { ($0 as! CodecError).kind == .tooLarge }
    }

    @Test func formatComesFromContentNotName() throws {
        // jpg-size-6x6.jpg is really a PNG.
        let image = try Image(contentsOfFile: Corpus.path("jpeg-decoder/reftest/mozilla/jpg-size-6x6.jpg"))
        #expect(image.width == 6)
        #expect(throws: CodecError(.unknownFormat, "not a PNG, JPEG, WebP, AVIF, HEIC or GIF file")) {
            try Image(decoding: Array("BM6.........".utf8))
        }
    }
}
