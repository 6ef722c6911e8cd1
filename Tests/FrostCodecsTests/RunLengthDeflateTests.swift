import FrostCore
import FrostFiles
import FrostTestSupport
import Testing
@testable import FrostCodecs

/// PNG level 1 is Frost's own deflate (CFrostCodecs/deflate_runs.c): literals and runs at
/// distance 1, Huffman codes per block, stored blocks where those are shorter. Every stream here
/// is read back by libdeflate and by libpng with zlib, inflaters independent of it, and must give
/// the same pixels.
@Suite struct RunLengthDeflateTests {
    /// A gray image whose bytes are the given values, row by row, with no filter: the deflate
    /// input is then exactly these bytes, with a filter byte 0 before each row.
    private func grayImage(width: Int, _ values: [UInt8]) -> Image {
        precondition(values.count % width == 0)
        let pixels = values.flatMap { value -> [UInt8] in [value, value, value, 255] }
        return Image(width: width, height: values.count / width, pixels: pixels, hasAlpha: false, isGray: true)
    }

    private func roundTrip(_ image: Image, filter: Int = 0, threads: Int? = nil) throws -> [UInt8] {
        let bytes = try image.encoded(as: .png, options: EncodeOptions(compressionLevel: 1, pngFilter: filter), threads: threads)
        // Two inflaters, neither of them this encoder's: libdeflate (the direct read) and zlib (libpng).
        for libpngOnly in [false, true] {
            let back = try bytes.withUnsafeBufferPointer {
                try PNGDecoder.decode($0, options: DecodeOptions(), libpngOnly: libpngOnly).image
            }
            #expect(back.width == image.width && back.height == image.height)
            #expect(back.pixels == image.pixels)
        }
        return bytes
    }

    /// Over 1 MiB of rows is deflated in segments (on threads where there are several), each
    /// closed byte-aligned: the same bytes on 1, 2 and 3 threads, read back by both inflaters, with
    /// runs that cross the segments' seams (a flat band across the first seam, noise elsewhere).
    @Test func segmentsOnThreadsGiveOneStream() throws {
        var image = noiseImage(width: 1100, height: 700, opaque: true)
        for y in 310...330 { for x in 0..<1100 { for c in 0..<3 { image.pixels[(y * 1100 + x) * 4 + c] = 77 } } }
        let streams = try [1, 2, 3].map { try roundTrip(image, filter: 4, threads: $0) }
        #expect(streams[0] == streams[1] && streams[1] == streams[2])
    }

    /// Runs of every length from 1 to 300 (over 258 a match is split, with 1 or 2 bytes left as
    /// literals after 259 and 260), of zeros and of other bytes, starting at every offset of the
    /// 64-byte chunks the parser reads and spanning its blocks of 65 472 bytes and the rows.
    @Test func runsOfEveryLengthSurviveAtEveryOffset() throws {
        var values: [UInt8] = []
        var length = 1, value: UInt8 = 0
        while values.count < 180_000 {
            values += [UInt8](repeating: value, count: length)
            length = length % 300 + 1
            value = value == 0 ? UInt8(length % 7 + 1) : value == 3 ? 0 : value &+ 37
        }
        let width = 997
        _ = try roundTrip(grayImage(width: width, Array(values.prefix(values.count / width * width))))
    }

    /// A flat image is one long run: a few bytes per block; and the first byte of the stream,
    /// which has nothing before it, is a literal.
    @Test func flatImagesAreRuns() throws {
        for (color, size) in [((0, 0, 0, 0) as (UInt8, UInt8, UInt8, UInt8), 512), ((200, 10, 10, 255), 300), ((7, 7, 7, 7), 1)] {
            let image = Image(width: size, height: size, filledWith: color)
            let bytes = try roundTrip(image, filter: 2)
            #expect(bytes.count < 300 + size * size / 50, "\(size)² flat image took \(bytes.count) bytes")
        }
    }

    /// Noise does not compress: its blocks are stored, so the stream is at most 5 bytes per
    /// block bigger than the filtered rows.
    @Test func noiseIsStored() throws {
        let image = noiseImage(width: 300, height: 200)
        let bytes = try roundTrip(image)
        let rows = 200 * (300 * 4 + 1), blocks = (rows + 65_471) / 65_472
        #expect(bytes.count <= rows + 5 * blocks + 6 + 200, "\(bytes.count) bytes for \(rows) of noise")
    }

    /// Real photos, every kind Frost writes (gray, RGB, RGBA with an alpha ramp), with each filter.
    /// On continuous-tone photos the runs are what the filtered rows are made of, and the size
    /// stays near libdeflate's level 2 (measured 0.96-1.04x). eagle.png is palette art (a colormap
    /// file): its repeated strings need an LZ77 search, and level 1 writes 1.75x level 2's bytes.
    @Test(arguments: [("photos/coffee.png", true), ("photos/rocket.jpg", true), ("photos/UNIS_EV0.jpg", true), ("photos/eagle.png", false)])
    func photosRoundTrip(file: String, continuousTone: Bool) throws {
        let photo = try Image(contentsOfFile: Corpus.path(file))
        let ours = try (0...4).map { try roundTrip(photo, filter: $0).count }[2]   // Up, the default filter
        let libdeflate = try photo.encoded(as: .png, options: EncodeOptions(compressionLevel: 2, pngFilter: 2)).count
        if continuousTone { #expect(Double(ours) < 1.1 * Double(libdeflate), "\(file): \(ours) bytes against libdeflate's \(libdeflate)") }
        var gray = photo, translucent = photo
        gray.isGray = true
        translucent.hasAlpha = true
        for i in stride(from: 0, to: photo.pixels.count, by: 4) {
            (gray.pixels[i + 1], gray.pixels[i + 2]) = (gray.pixels[i], gray.pixels[i])
            translucent.pixels[i + 3] = UInt8(i / 4 % photo.width * 255 / max(photo.width - 1, 1))
        }
        _ = try roundTrip(gray, filter: 2)
        _ = try roundTrip(translucent, filter: 2)
    }

    /// Runs of random lengths and values in images of random sizes (a fixed seed): streams that
    /// end inside a 64-byte chunk, a block or a run at any offset.
    @Test func randomRunsOfRandomSizes() throws {
        var random = XorShift64(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        for _ in 0..<40 {
            let width = next(300) + 1, height = next(120) + 1, longest = [1, 4, 12, 1000][next(4)]
            var values: [UInt8] = []
            while values.count < width * height {
                let value = UInt8(next(longest == 4 ? 3 : 256))
                values += [UInt8](repeating: value, count: next(longest) + 1)
            }
            _ = try roundTrip(grayImage(width: width, Array(values.prefix(width * height))))
        }
    }

    /// The smallest images: one pixel, one row, one column.
    @Test func tinyImages() throws {
        for (width, height) in [(1, 1), (5, 1), (1, 9), (3, 3)] {
            _ = try roundTrip(noiseImage(width: width, height: height, opaque: true), filter: 4)
        }
    }
}
