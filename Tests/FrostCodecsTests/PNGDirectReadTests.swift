import FrostCore
import FrostFiles
import FrostTestSupport
import Testing
@testable import FrostCodecs

/// The direct PNG read (CFrostCodecs/png_direct.c: libdeflate's inflate and Frost's own
/// unfiltering) against libpng reading the same file, the reference: the same pixels, or the same
/// error. PNGs written here from scratch choose every row's filter; the corpus brings the files
/// other encoders wrote, broken ones included.
@Suite struct PNGDirectReadTests {
    /// What one reader made of a file.
    struct Reading: Equatable {
        var pixels: [UInt8]? = nil
        var error: String? = nil
    }

    static func read(_ bytes: [UInt8], libpngOnly: Bool) -> (reading: Reading, readDirect: Bool) {
        do {
            let (image, readDirect) = try bytes.withUnsafeBufferPointer {
                try PNGDecoder.decode($0, options: DecodeOptions(autoOrient: false), libpngOnly: libpngOnly)
            }
            return (Reading(pixels: image.pixels), readDirect)
        } catch {
            return (Reading(error: "\(error)"), false)
        }
    }

    /// The file through both readers: they agree, and the default one read it directly or not.
    @discardableResult
    static func expectBothAgree(_ bytes: [UInt8], readDirect expected: Bool, _ label: String) -> Reading {
        let (direct, readDirect) = read(bytes, libpngOnly: false)
        let (libpng, _) = read(bytes, libpngOnly: true)
        #expect(direct == libpng, "\(label): the direct read and libpng disagree")
        #expect(readDirect == expected, "\(label): direct read \(readDirect ? "taken" : "not taken")")
        return libpng
    }

    // MARK: PNGs written here

    static let colorTypes = [1: UInt8(0), 2: 4, 3: 2, 4: 6]

    /// Samples with flat runs (where Paeth's three distances tie), ramps and noise, in
    /// `channels` channels, and the RGBA8 pixels a decoder must make of them.
    static func samples(width: Int, height: Int, channels: Int, seed: UInt64) -> (samples: [UInt8], rgba: [UInt8]) {
        let noise = noiseImage(width: width * channels, height: height, seed: seed).pixels
        var samples = [UInt8](repeating: 0, count: width * height * channels)
        for i in samples.indices {
            let x = i / channels % width, y = i / (width * channels)
            samples[i] = x < width / 3 ? UInt8(40 * (i % channels) + 7)
                : x < 2 * width / 3 ? UInt8(truncatingIfNeeded: 3 * x + 5 * y + 11 * (i % channels))
                : noise[i]
        }
        var rgba: [UInt8] = []
        for p in stride(from: 0, to: samples.count, by: channels) {
            let s = samples[p..<p + channels].map { $0 }
            switch channels {
            case 1: rgba += [s[0], s[0], s[0], 255]
            case 2: rgba += [s[0], s[0], s[0], s[1]]
            case 3: rgba += s + [255]
            default: rgba += s
            }
        }
        return (samples, rgba)
    }

    /// The PNG specification's Paeth predictor (§9.4), written from its text.
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Rows filtered with the given types (PNG specification §9.2), each with its type byte first.
    static func filteredRows(_ samples: [UInt8], width: Int, channels: Int, filters: [UInt8]) -> [UInt8] {
        let n = width * channels
        var out: [UInt8] = []
        for (y, filter) in filters.enumerated() {
            out.append(filter)
            for i in 0..<n {
                let a = i >= channels ? Int(samples[y * n + i - channels]) : 0
                let b = y > 0 ? Int(samples[(y - 1) * n + i]) : 0
                let c = y > 0 && i >= channels ? Int(samples[(y - 1) * n + i - channels]) : 0
                let prediction = [0, a, b, (a + b) / 2, paeth(a, b, c)][min(Int(filter), 4)]
                out.append(UInt8(truncatingIfNeeded: Int(samples[y * n + i]) - prediction))
            }
        }
        return out
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4), `header` its first byte.
    static func storedZlib(_ data: [UInt8], header: UInt8 = 0x78) -> [UInt8] {
        var out: [UInt8] = [header, 0]
        out[1] = UInt8(31 - (Int(header) * 256) % 31)  // FCHECK: the header is a multiple of 31
        var at = 0
        repeat {
            let length = min(65_535, data.count - at)
            let final: UInt8 = at + length == data.count ? 1 : 0
            out += [final, UInt8(length & 255), UInt8(length >> 8), UInt8(~length & 255), UInt8((~length >> 8) & 255)]
            out += data[at..<at + length]
            at += length
        } while at < data.count
        var s1: UInt32 = 1, s2: UInt32 = 0
        for byte in data { s1 = (s1 + UInt32(byte)) % 65_521; s2 = (s2 + s1) % 65_521 }
        return out + bigEndian(s2 << 16 | s1)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A whole file: IHDR, then `middle` (the IDAT chunks and whatever a test puts among them), IEND.
    static func file(width: Int, height: Int, channels: Int, middle: [UInt8], end: [UInt8] = chunk("IEND", [])) -> [UInt8] {
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colorTypes[channels]!, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + middle + end
    }

    /// Filter types per row: runs of Paeth of every length next to every other type, from a seed.
    static func filterSequence(height: Int, seed: UInt64) -> [UInt8] {
        var random = XorShift64(seed: seed | 1)
        return (0..<height).map { _ in
            let value = random.next()
            return value % 3 == 0 ? UInt8((value >> 8) % 4) : 4
        }
    }

    /// Every filter, alone and mixed, in every channel layout, on widths and heights around the
    /// edges of the unfiltering loops (one pixel; the first row; Paeth rows read in pairs, so odd
    /// runs leave one over; RGB pixels read as 4-byte words up to the row's end).
    @Test(arguments: 1...4)
    func everyFilterInEveryLayoutDecodes(channels: Int) {
        for (width, height) in [(1, 1), (1, 6), (2, 3), (3, 2), (5, 7), (64, 9), (257, 12)] {
            let (samples, rgba) = Self.samples(width: width, height: height, channels: channels, seed: UInt64(width * 31 + height))
            var sequences = (0...4).map { [UInt8](repeating: $0, count: height) }
            sequences += (1...3).map { Self.filterSequence(height: height, seed: UInt64($0 * 977 + width)) }
            for filters in sequences {
                let stream = Self.storedZlib(Self.filteredRows(samples, width: width, channels: channels, filters: filters))
                let png = Self.file(width: width, height: height, channels: channels, middle: Self.chunk("IDAT", stream))
                let label = "\(channels) channels, \(width)x\(height), filters \(filters)"
                let reading = Self.expectBothAgree(png, readDirect: true, label)
                #expect(reading.pixels == rgba, "\(label)")
            }
        }
    }

    /// The stream may be cut into IDAT chunks anywhere, empty ones included.
    @Test func idatSplitIntoChunksIsJoined() {
        let (samples, rgba) = Self.samples(width: 40, height: 30, channels: 3, seed: 5)
        let stream = Self.storedZlib(Self.filteredRows(samples, width: 40, channels: 3, filters: Self.filterSequence(height: 30, seed: 9)))
        let cuts = [0, 1, 1, 700, stream.count - 3, stream.count]
        let middle = zip(cuts, cuts.dropFirst()).flatMap { Self.chunk("IDAT", Array(stream[$0..<$1])) }
        let reading = Self.expectBothAgree(Self.file(width: 40, height: 30, channels: 3, middle: middle), readDirect: true, "split IDAT")
        #expect(reading.pixels == rgba)
    }

    /// Anything off sends the file to libpng, which decodes it or refuses it in its own words.
    @Test func anythingOffIsLeftToLibpng() {
        let width = 20, height = 6, channels = 4
        let (samples, rgba) = Self.samples(width: width, height: height, channels: channels, seed: 3)
        let rows = Self.filteredRows(samples, width: width, channels: channels, filters: [4, 4, 1, 2, 3, 4])
        let stream = Self.storedZlib(rows)
        func png(_ middle: [UInt8], end: [UInt8] = Self.chunk("IEND", [])) -> [UInt8] {
            Self.file(width: width, height: height, channels: channels, middle: middle, end: end)
        }
        var badFilter = rows
        badFilter[2 * (width * channels + 1)] = 5
        var badCRC = Self.chunk("IDAT", stream)
        badCRC[badCRC.count - 1] ^= 1
        var badTextCRC = Self.chunk("tEXt", Array("Comment\0x".utf8))
        badTextCRC[badTextCRC.count - 1] ^= 1
        let cases: [(String, [UInt8], decodes: Bool)] = [
            ("filter type 5", png(Self.chunk("IDAT", Self.storedZlib(badFilter))), false),
            ("IDAT CRC", png(badCRC), false),
            ("16 KiB window declared", png(Self.chunk("IDAT", Self.storedZlib(rows, header: 0x68))), true),
            ("a row too few", png(Self.chunk("IDAT", Self.storedZlib(Array(rows.dropLast(width * channels + 1))))), false),
            ("a row too many", png(Self.chunk("IDAT", Self.storedZlib(rows + rows.suffix(width * channels + 1)))), true),
            ("bytes after the stream", png(Self.chunk("IDAT", stream + [0, 0])), true),
            ("tEXt between IDATs", png(Self.chunk("IDAT", Array(stream.prefix(50))) + Self.chunk("tEXt", Array("Comment\0x".utf8))
                + Self.chunk("IDAT", Array(stream.dropFirst(50)))), false),
            ("tEXt after IDAT with a bad CRC", png(Self.chunk("IDAT", stream) + badTextCRC), true),
            ("no IEND", png(Self.chunk("IDAT", stream), end: []), false),
            ("IEND with a body", png(Self.chunk("IDAT", stream), end: Self.chunk("IEND", [0])), false),
        ]
        for (label, file, decodes) in cases {
            let reading = Self.expectBothAgree(file, readDirect: false, label)
            #expect((reading.pixels != nil) == decodes, "\(label): \(reading.error ?? "decoded")")
            if decodes { #expect(reading.pixels == rgba, "\(label)") }
        }
        // The unbroken file, for contrast, is read directly.
        #expect(Self.expectBothAgree(png(Self.chunk("IDAT", stream) + Self.chunk("tEXt", Array("Comment\0x".utf8))),
                                     readDirect: true, "unbroken").pixels == rgba)
    }

    // MARK: The corpus

    static let corpusPNGs = Corpus.table("MANIFEST.tsv").filter { $0["format"] == "png" }.map { $0["path"]! }
        + Corpus.table("pngsuite/pngsuite.tsv").map { "pngsuite/" + $0["file"]! }

    /// Whether a file is in the direct read's scope by its IHDR, tRNS and zlib header: 8-bit,
    /// not interlaced, no palette, no tRNS, a 32 KiB window.
    static func inScope(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 33, bytes[24] == 8, [0, 2, 4, 6].contains(bytes[25]), bytes[28] == 0 else { return false }
        var at = 8
        while at + 8 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            if type == "tRNS" { return false }
            if type == "IDAT" { return at + 8 < bytes.count && bytes[at + 8] == 0x78 }
            at += 12 + length
        }
        return false
    }

    /// In scope and decoded by libpng, but with data past the image that libpng lets pass with a
    /// warning: the direct read leaves these to it.
    static let leftToLibpng = [
        "pillow/png/hopper_idat_after_image_end.png",  // IDAT data after the last row
        "pillow/png/padded_idat.png",                  // bytes after the zlib stream's end
    ]

    /// Every PNG of the corpus, whatever the manifest expects of it, reads the same through both;
    /// the direct read takes every file in its scope that libpng decodes, but those above.
    @Test(arguments: corpusPNGs)
    func corpusFileReadsAsLibpngReadsIt(_ file: String) throws {
        let bytes = try FileIO.read(Corpus.path(file))
        let expected = Self.inScope(bytes) && Self.read(bytes, libpngOnly: true).reading.pixels != nil
            && !Self.leftToLibpng.contains(file)
        Self.expectBothAgree(bytes, readDirect: expected, file)
    }

    /// The corpus holds enough files in scope for the test above to mean something.
    @Test func corpusHasFilesInScope() throws {
        let inScope = try Self.corpusPNGs.filter { Self.inScope(try FileIO.read(Corpus.path($0))) }
        #expect(inScope.count > 100)
    }
}
