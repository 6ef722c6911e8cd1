import CFrostCodecs
@_spi(Kernels) import FrostCore

/// A PNG written strip by strip as its rows are made, on any thread and in any order: each strip's
/// rows are filtered (Paeth; a strip's first row Sub, the row above it being another strip's) and
/// deflated alone into one IDAT chunk holding its piece of the zlib stream (Frost's run-length
/// deflate: pieces end byte-aligned, so they join by appending, as its segments do). The pieces in
/// order, then `end()` (the stream's Adler-32, combined from the strips', and IEND), are the file.
/// For opaque images at the default level (`streams`); what a streamed command writes (package
/// FrostStream). The pixels are those of `Image.encoded(as: .png)`; the bytes differ where strips
/// begin.
package struct PNGStripEncoder: Sendable {
    let width: Int
    let height: Int
    let gray: Bool
    package let stripRows: Int
    let header: [UInt8]
    /// Each strip's Adler-32 and filtered byte count, for `end()`.
    private let checksums: ResultSlots<(adler: UInt32, count: Int)>

    /// Whether `options` write a PNG this way: true colour (no palette) at level 1, Paeth.
    package static func streams(_ options: EncodeOptions) -> Bool {
        options.colors == nil && (options.compressionLevel ?? EncodeOptions.defaultPNGLevel) == 1 && options.pngFilter == 4
    }

    /// An image of `width` × `height` (`gray`: one channel, the red samples) in strips of
    /// `stripRows` rows; the header carries the ICC profile and `options.metadata`.
    package init(width: Int, height: Int, gray: Bool, stripRows: Int, options: EncodeOptions, iccProfile: [UInt8]?) throws {
        precondition(Self.streams(options), "only level 1 over Paeth is written in strips")
        guard width > 0, height > 0 else { throw CodecError(.encode, "cannot write an empty image") }
        (self.width, self.height, self.gray, self.stripRows) = (width, height, gray, max(1, stripRows))
        var header = try (iccProfile ?? []).withUnsafeBufferPointer { icc in
            try encoderOutput(.png) { out, size, error in
                frost_png_stream_header(UInt32(width), UInt32(height), gray ? 1 : 3, icc.baseAddress, UInt32(icc.count), out, size, error)
            }
        }
        if let metadata = options.metadata { header += metadata.fitted(width: width, height: height).pngChunks() }
        self.header = header
        checksums = ResultSlots(count: (height + self.stripRows - 1) / self.stripRows)
    }

    package var count: Int { (height + stripRows - 1) / stripRows }
    package func rows(_ i: Int) -> Range<Int> { i * stripRows..<min(height, (i + 1) * stripRows) }

    /// Strip i's piece of the file from its rows (RGBA8, opaque, `rowBytes` apart); strip 0's
    /// begins with the header.
    package func piece(_ i: Int, pixels: UnsafePointer<UInt8>, rowBytes: Int) throws -> [UInt8] {
        var adler: UInt32 = 0, filtered = 0
        let chunk = try encoderOutput(.png) { out, size, error in
            frost_png_stream_strip(pixels, UInt32(width), UInt32(rows(i).count), rowBytes, gray ? 1 : 3, i == 0 ? 1 : 0,
                                   i == count - 1 ? 1 : 0, out, size, &adler, &filtered, error)
        }
        checksums.set(i, (adler, filtered))
        return i == 0 ? header + chunk : chunk
    }

    /// After every piece: the stream's checksum and IEND.
    package func end() -> [UInt8] {
        let values = checksums.values
        var tail = [UInt8](repeating: 0, count: 28)
        values.map(\.adler).withUnsafeBufferPointer { adlers in
            values.map(\.count).withUnsafeBufferPointer { counts in
                frost_png_stream_end(adlers.baseAddress, counts.baseAddress, values.count, &tail)
            }
        }
        return tail
    }
}
