@testable import FrostCodecs
import FrostCore
import FrostEffects
import FrostFiles
@testable import FrostStream
import FrostTestSupport
import Testing

/// A streamed command gives the whole-image path's pixels: every step alone and chained, at any
/// strip height and thread count; its JPEG is the whole image's JPEG in strips, byte for byte, and
/// its PNG (written in strips) decodes to the same pixels.
@Suite struct StreamedFilterTests {
    /// The photo (640×427, ICC, 4:2:0), a taller noise image at 4:4:4 (quality 90) and a gray one.
    static let sources: [[UInt8]] = {
        let noise = noiseImage(width: 301, height: 517, opaque: true).gaussianBlurred(sigma: 1.2)
        var gray = noise
        for i in stride(from: 0, to: gray.pixels.count, by: 4) { (gray.pixels[i + 1], gray.pixels[i + 2]) = (gray.pixels[i], gray.pixels[i]) }
        gray.isGray = true
        return [try! FileIO.read(Corpus.path("photos/rocket.jpg")), try! noise.encoded(as: .jpeg, options: EncodeOptions(quality: 90)),
                try! gray.encoded(as: .jpeg, options: EncodeOptions(quality: 80))]
    }()

    static let adjustment = ColorAdjustment(brightness: 0.1, contrast: 1.2, saturation: 1.3, gamma: 0.8)

    static let chains: [[FilterStep]] = [
        [],
        [.gaussian(sigma: 0.2)],    // below 0.3: a copy
        [.gaussian(sigma: 1.5)],    // a direct kernel
        [.gaussian(sigma: 9)],      // reduced by 2
        [.gaussian(sigma: 20)],     // reduced by 4
        [.adjust(adjustment)],
        [.resize(width: 200, height: nil, fit: .contain, noEnlarge: false, padding: .clear)],   // lanczos3, the default
        [.resize(width: 213, height: nil, fit: .contain, noEnlarge: false, padding: .clear, kernel: .area)],
        [.resize(width: 700, height: 333, fit: .fill, noEnlarge: false, padding: .clear, kernel: .nearest)],
        [.resize(width: 150, height: 300, fit: .fill, noEnlarge: false, padding: .clear, kernel: .mitchell)],
        [.resize(width: 90, height: 90, fit: .cover, noEnlarge: false, padding: .clear)],
        [.resize(width: 500, height: 130, fit: .fill, noEnlarge: false, padding: .clear)],     // shrinks one axis only
        [.resize(width: 900, height: nil, fit: .contain, noEnlarge: false, padding: .clear)],   // enlarges
        [.resize(width: 900, height: nil, fit: .contain, noEnlarge: true, padding: .clear)],
        [.gaussian(sigma: 4), .adjust(ColorAdjustment(brightness: 0.1)), .resize(width: 117, height: nil, fit: .contain, noEnlarge: false, padding: .clear)],
        [.resize(width: 333, height: nil, fit: .contain, noEnlarge: false, padding: .clear), .gaussian(sigma: 10)],
    ]

    static func whole(_ bytes: [UInt8], _ steps: [FilterStep]) throws -> Image {
        try steps.reduce(try Image(decoding: bytes)) { try $1.apply(to: $0, limits: DecodeOptions(), threads: 2) }
    }

    static func streamed(_ bytes: [UInt8], _ steps: [FilterStep], threads: Int, stripRows: Int?) throws -> StreamedFilter {
        let reader = try JPEGRowReader(bytes: bytes, options: DecodeOptions())
        try reader.start()
        return try StreamedFilter(reader: reader, steps: steps, limits: DecodeOptions(), threads: threads, stripRows: stripRows)
    }

    @Test(arguments: 0..<chains.count)
    func stripsGiveTheWholeImagesPixels(_ chain: Int) throws {
        for bytes in Self.sources {
            let expected = try Self.whole(bytes, Self.chains[chain])
            for (threads, rows) in [(1, nil), (2, 7), (3, 32), (2, 300)] as [(Int, Int?)] {
                let image = try Self.streamed(bytes, Self.chains[chain], threads: threads, stripRows: rows).image()
                #expect(image.width == expected.width && image.height == expected.height)
                let same = image.pixels == expected.pixels   // (not inside #expect: it would print every byte)
                #expect(same, "chain \(chain), \(threads) threads, strips of \(rows ?? 0) rows")
                #expect(image.iccProfile == expected.iccProfile && image.isGray == expected.isGray)
            }
        }
    }

    /// Restart markers end every MCU row of an image 4 units tall or more, on any path and thread
    /// count; a smaller one is a strip of its own (chain 6: 200×133).
    @Test(arguments: [0, 4, 6, 11])
    func jpegInStripsIsTheWholeImagesJPEG(_ chain: Int) throws {
        for bytes in Self.sources {
            for quality in [80, 90] {
                let options = EncodeOptions(quality: quality)
                let image = try Self.whole(bytes, Self.chains[chain])
                let expected = try image.encoded(as: .jpeg, options: options, threads: 2)
                #expect(try image.encoded(as: .jpeg, options: options, threads: 1) == expected)
                var pieces: [UInt8] = []
                let filter = try Self.streamed(bytes, Self.chains[chain], threads: 2, stripRows: 64)
                try filter.writeJPEG(options: options) { pieces += $0 }
                let decoded = try Image(decoding: pieces)
                let samePixels = decoded.pixels == (try Image(decoding: expected)).pixels, sameBytes = pieces == expected
                #expect(samePixels)
                #expect(sameBytes, "chain \(chain), quality \(quality)")
            }
        }
    }

    /// A PNG written strip by strip decodes (libpng and the direct read, each checking every CRC and
    /// the stream's Adler-32) to the whole image's pixels, gray staying one channel, at any strip
    /// height; the profile and metadata are in its header.
    @Test(arguments: [0, 3, 6, 14])
    func pngInStripsHasTheWholeImagesPixels(_ chain: Int) throws {
        for bytes in Self.sources {
            let expected = try Self.whole(bytes, Self.chains[chain])
            let whole = try expected.encoded(as: .png, threads: 2)
            for (threads, rows) in [(1, nil), (2, 1), (2, 7), (3, 64), (2, 1000)] as [(Int, Int?)] {
                var options = EncodeOptions()
                options.metadata = ImageMetadata(exif: nil, xmp: Array("<x:xmpmeta/>".utf8), iptc: nil, density: (x: 254, y: 254))
                var file: [UInt8] = []
                try Self.streamed(bytes, Self.chains[chain], threads: threads, stripRows: rows).writePNG(options: options) { file += $0 }
                for libpngOnly in [false, true] {
                    let (decoded, direct) = try file.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: DecodeOptions(), libpngOnly: libpngOnly) }
                    #expect(direct == !libpngOnly)
                    let same = decoded.pixels == expected.pixels
                    #expect(same, "chain \(chain), \(threads) threads, strips of \(rows ?? 0) rows, libpng only: \(libpngOnly)")
                }
                let info = try ImageInfo(bytes: file)
                #expect(info.channels == (try ImageInfo(bytes: whole)).channels && info.hasICCProfile == (expected.iccProfile != nil))
                #expect(ImageMetadata(reading: file) == options.metadata)
                // Level 1's size at the strip heights commands use: a strip's first row is Sub, its piece ends byte-aligned.
                if (rows ?? 64) >= 64 {
                    #expect(Double(file.count) < Double(whole.count) * 1.03 + 1000, "\(file.count) against \(whole.count), strips of \(rows ?? 0) rows")
                }
            }
        }
    }

    /// An opaque PNG read row by row (gray at 1–8 bits, palettes, RGB; the corpus's PngSuite and
    /// others, and the sources re-encoded) streams to the whole path's pixels through a chain;
    /// transparent, 16-bit, interlaced and animated PNGs are not taken, nor gray ones under a
    /// profile (PngSuite's gAMA 1.0 gray files: read whole, converted to sRGB).
    @Test func opaquePNGsStreamAsTheyDecode() throws {
        var files: [(String, [UInt8])] = try Corpus.files(format: "png", expected: "valid").map { ($0, try FileIO.read(Corpus.path($0))) }
        for (k, source) in Self.sources.enumerated() {
            let image = try Image(decoding: source)
            files.append(("source \(k)", try image.encoded(as: .png)))
            var palette = EncodeOptions()
            palette.colors = 16
            files.append(("source \(k), 16 colours", try image.encoded(as: .png, options: palette)))
        }
        var streamedCount = 0
        let chain: [FilterStep] = [.gaussian(sigma: 2.5), .adjust(Self.adjustment), .resize(width: 23, height: nil, fit: .contain, noEnlarge: false, padding: .clear)]
        for (name, bytes) in files {
            // (Large photos add time, not cases: the sources stand for them.)
            guard let info = try? ImageInfo(bytes: bytes), PNGRowReader.streams(info), info.width * info.height <= 1 << 19 else { continue }
            #expect(!info.hasAlpha && info.bitDepth <= 8 && !info.interlaced && info.frames == 1)
            streamedCount += 1
            var options = DecodeOptions()
            options.autoOrient = false
            let whole = Result { try chain.reduce(try Image(decoding: bytes, options: options)) { try $1.apply(to: $0, limits: options, threads: 2) } }
            let streamed = Result { try StreamedFilter(reader: try PNGRowReader(bytes: bytes, options: options), steps: chain, limits: options, threads: 2, stripRows: 5).image() }
            switch (whole, streamed) {
            case (.success(let whole), .success(let streamed)):
                let same = streamed.pixels == whole.pixels && streamed.isGray == whole.isGray && streamed.iccProfile == whole.iccProfile
                #expect(same, "\(name)")
            case (.failure, .failure):
                break   // a damaged file both paths refuse
            default:
                Issue.record("\(name): whole \(whole), streamed \(streamed)")
            }
        }
        #expect(streamedCount > 40, "\(streamedCount) PNGs streamed")
        // A PNG cut short fails as it is read, after the strips before the damage.
        let cut = Array(try Image(decoding: Self.sources[0]).encoded(as: .png).dropLast(5000))
        #expect(throws: CodecError.self) {
            try StreamedFilter(reader: try PNGRowReader(bytes: cut, options: DecodeOptions()), steps: chain, limits: DecodeOptions(), threads: 2).image()
        }
    }

    /// Whether a PNG file streams is decided from its first 24 bytes (IHDR's size) before it is read.
    @Test func aPNGsSizeIsReadFromItsHead() throws {
        for (width, height) in [(1, 1), (301, 517), (7, 2)] {
            let png = try noiseImage(width: width, height: height, opaque: true).encoded(as: .png)
            #expect(PNGRowReader.announcedPixels(Array(png.prefix(24))) == width * height)
        }
        // 5793² is the first square at the threshold (a head of such a file, its IHDR's size bytes set).
        var head = Array(try noiseImage(width: 3, height: 3, opaque: true).encoded(as: .png).prefix(24))
        head.replaceSubrange(16..<24, with: [0, 0, 0x16, 0xA1, 0, 0, 0x16, 0xA1])
        #expect(PNGRowReader.announcedPixels(head) == 5793 * 5793 && 5793 * 5793 >= PNGRowReader.streamedPixels)
        #expect(5792 * 5792 < PNGRowReader.streamedPixels)
        #expect(PNGRowReader.announcedPixels([0x89, 0x50, 0x4E, 0x47]) == 0)
    }

    /// Every valid JPEG of the corpus (progressive, arithmetic, gray, odd sizes, restart intervals)
    /// streams to the whole path's pixels, shrunk on load as the command does it; a CMYK one is
    /// refused by the row reader (its profile converts the whole image).
    @Test func everyCorpusJPEGStreamsAsItDecodes() throws {
        var options = DecodeOptions()
        options.autoOrient = false   // a turn takes the whole-image path
        let files = Corpus.files(format: "jpeg", expected: "valid")
        #expect(files.count > 100)
        for file in files {
            let bytes = try FileIO.read(Corpus.path(file))
            guard ImageFormat(sniffing: bytes) == .jpeg else { continue }   // a PNG named .jpg is not streamed
            let info = try? ImageInfo(bytes: bytes)   // nil: both paths must refuse it alike
            let plan = ShrinkOnLoad(steps: [.adjust(ColorAdjustment(brightness: 0.1)), .resize(width: 48, height: nil, fit: .contain, noEnlarge: true, padding: .clear)],
                                    width: info?.width ?? 1, height: info?.height ?? 1)
            options.reduction = plan.reduction
            let whole = Result { try plan.steps.reduce(try Image(decoding: bytes, options: options)) { try $1.apply(to: $0, limits: options, threads: 2) } }
            if ["cmyk", "ycck"].contains(info?.colorModel) {
                #expect(throws: CodecError.self) { try JPEGRowReader(bytes: bytes, options: options).start(reduction: plan.reduction) }
                continue
            }
            let streamed = Result {
                let reader = try JPEGRowReader(bytes: bytes, options: options)
                try reader.start(reduction: plan.reduction)
                return try StreamedFilter(reader: reader, steps: plan.steps, limits: options, threads: 2, stripRows: 16).image()
            }
            switch (whole, streamed) {
            case (.success(let whole), .success(let streamed)):
                let same = streamed.pixels == whole.pixels && streamed.isGray == whole.isGray
                #expect(same, "\(file)")
            case (.failure(let a), .failure(let b)):   // what Frost does not read (lossless, 12-bit): the same refusal
                #expect("\(a)" == "\(b)", "\(file)")
            default:
                Issue.record("\(file): whole \(whole), streamed \(streamed)")
            }
        }
    }

    @Test func metadataAndProfileReachTheFirstPiece() throws {
        let bytes = Self.sources[0]
        let reader = try JPEGRowReader(bytes: bytes, options: DecodeOptions())
        #expect(reader.metadata == ImageMetadata(reading: bytes))
        #expect(reader.iccProfile == (try Image(decoding: bytes)).iccProfile)
        var options = EncodeOptions(quality: 85)
        options.metadata = ImageMetadata(exif: nil, xmp: Array("<x:xmpmeta/>".utf8), iptc: nil, density: (x: 300, y: 300))
        try reader.start()
        var file: [UInt8] = []
        try StreamedFilter(reader: reader, steps: [.gaussian(sigma: 2)], limits: DecodeOptions(), threads: 2, stripRows: 128)
            .writeJPEG(options: options) { file += $0 }
        #expect(ImageMetadata(reading: file) == options.metadata)
        #expect((try Image(decoding: file)).iccProfile == reader.iccProfile)
    }

    @Test func aTruncatedFileFailsAndEmitsNothingPastTheDamage() throws {
        let bytes = Array(Self.sources[1].prefix(Self.sources[1].count / 2))
        var emitted = 0
        #expect(throws: CodecError.self) {
            try Self.streamed(bytes, [.gaussian(sigma: 3)], threads: 2, stripRows: 64).writeJPEG(options: EncodeOptions()) { emitted += $0.count }
        }
        #expect(emitted < Self.sources[1].count)
    }

    /// The memory a 16384² blur at σ = 20 holds: the ring and two threads' windows, a fraction of
    /// the 1 GiB image (measured peak RSS in docs/performance.md).
    @Test func aLargeBlurHoldsAWindow() throws {
        let filter = StripExecutor(reader: Geometry(width: 16384, height: 16384),
                                   operations: [GaussianRows(sigma: 20, width: 16384, height: 16384)],
                                   strips: stride(from: 0, to: 16384, by: 256).map { $0..<($0 + 256) }, threads: 2)
        #expect(filter.windowBytes < 96 << 20)
    }

    /// A ring large enough to be mapped in huge pages (`frost_map_buffer`: the 2048×1536 photo's
    /// ring of some 550 rows) gives the whole image's pixels too.
    @Test func aRingInHugePagesGivesTheSamePixels() throws {
        let bytes = try FileIO.read(Corpus.path("photos/UNIS_EV0.jpg"))
        let steps: [FilterStep] = [.gaussian(sigma: 4), .adjust(Self.adjustment)]
        let filter = try Self.streamed(bytes, steps, threads: 2, stripRows: nil)
        let rows = filter.stripRows(unit: 16)
        let executor = StripExecutor(reader: filter.reader, operations: filter.operations,
                                     strips: stride(from: 0, to: filter.height, by: rows).map { $0..<min($0 + rows, filter.height) },
                                     threads: 2)
        #expect(executor.ringRows * filter.width * 4 >= StripExecutor.hugeRingBytes)
        #expect(try filter.image().pixels == Self.whole(bytes, steps).pixels)
    }

    /// Only the size of an image, for the executor's arithmetic (it reads nothing).
    final class Geometry: RowReader {
        let width: Int, height: Int
        init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
        func read(_ rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws { Issue.record("read") }
    }
}

/// Shrink on load: the reduction chosen, and how far its result lies from the full decode's.
@Suite struct ShrinkOnLoadTests {
    @Test func theLargestReductionThatKeepsAShrinkOfTwo() {
        func reduction(_ steps: [FilterStep], _ w: Int, _ h: Int) -> Int { ShrinkOnLoad(steps: steps, width: w, height: h).reduction }
        let to1170 = FilterStep.resize(width: 1170, height: nil, fit: .contain, noEnlarge: false, padding: .clear)
        #expect(reduction([to1170], 4096, 4096) == 1)      // 3.5×: 1/2 would leave 1.75
        #expect(reduction([to1170], 4680, 4680) == 2)
        #expect(reduction([to1170], 16384, 16384) == 4)    // 14×: 1/8 would leave 1.75
        #expect(reduction([to1170], 18720, 18720) == 8)
        #expect(reduction([.adjust(ColorAdjustment(brightness: 0.1)), to1170], 16384, 16384) == 4)
        #expect(reduction([.gaussian(sigma: 4), to1170], 16384, 16384) == 1)   // a blur is not scale-free
        #expect(reduction([.resize(width: 100, height: 100, fit: .cover, noEnlarge: false, padding: .clear)], 1600, 400) == 2)  // the short side decides
        // The resize names the size the whole image would have given.
        #expect(ShrinkOnLoad(steps: [to1170], width: 16384, height: 9000).steps == [.resize(width: 1170, height: 643, fit: .fill, noEnlarge: false, padding: .clear)])
    }

    /// libjpeg's 1/4 DCT scaling (or libwebp's rescaler) then a shrink of 2 against the full
    /// decode shrunk by 8: measured on the photo, the difference is a fraction of a level on average.
    @Test(arguments: [ImageFormat.jpeg, .webp])
    func aReducedDecodeStaysCloseToTheFullOne(_ format: ImageFormat) throws {
        let big = try Image(decoding: try FileIO.read(Corpus.path("photos/UNIS_EV0.jpg")))   // 2048×1536
        var encoding = EncodeOptions(quality: 92)
        encoding.webpQuality = 92
        let bytes = try big.encoded(as: format, options: encoding)
        let steps = [FilterStep.resize(width: 256, height: nil, fit: .contain, noEnlarge: false, padding: .clear)]
        let plan = ShrinkOnLoad(steps: steps, width: big.width, height: big.height)
        #expect(plan.reduction == 4)
        let full = try StreamedFilterTests.whole(bytes, steps)
        var options = DecodeOptions()
        options.reduction = plan.reduction
        let reduced = try plan.steps.reduce(try Image(decoding: bytes, options: options)) { try $1.apply(to: $0, limits: options, threads: 2) }
        #expect(reduced.width == full.width && reduced.height == full.height)
        let differences = zip(reduced.pixels, full.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        print("shrink on load 1/4 vs full decode, \(format), 2048×1536 → 256: mean \(mean), max \(differences.max()!)")
        #expect(mean < 1.0)
    }
}
