import CFrostCodecs

/// A baseline JPEG encoded as horizontal strips on several threads, then joined into one file.
///
/// Every strip is an independent JPEG with a restart marker after each MCU row, and all but the
/// last are a multiple of 8 MCU rows tall. Restart markers reset the DC predictions and count
/// RST0…RST7 modulo 8 (ITU T.81 §F.1.2.3, §B.2.4.4), so strip k's entropy-coded data is exactly
/// what one encoder would write from that row on, and the strips join with the RST7 that ends
/// each multiple of 8 intervals. The DCT, quantisation and (without `optimize_coding`) the
/// standard Huffman tables are the same in every strip: the joined file decodes to the very
/// pixels of a one-piece encode, for about 2 bytes more per MCU row.
struct JPEGStrips: Sendable {
    let height: Int
    /// Rows per strip but the last: a multiple of 8 MCU rows.
    let stripRows: Int
    var count: Int { (height + stripRows - 1) / stripRows }
    /// Whether every MCU row ends with a restart marker: in an image of 4 units (32 MCU rows) or
    /// more, however many strips it is cut into, so that the file's bytes do not depend on the
    /// threads that encoded it, nor on whether it was streamed. A smaller image is one strip.
    let restarts: Bool

    /// One strip per thread.
    init(height: Int, mcuRows: Int, threads: Int) {
        let unit = 8 * mcuRows, units = (height + unit - 1) / unit
        self.init(height: height, mcuRows: mcuRows, units: (units + max(threads, 1) - 1) / max(threads, 1))
    }

    /// Strips of `units` × 8 MCU rows.
    init(height: Int, mcuRows: Int, units: Int) {
        let unit = 8 * mcuRows
        self.height = height
        restarts = (height + unit - 1) / unit >= 4
        stripRows = restarts ? min(unit * max(units, 1), height) : max(height, 1)
    }

    func rows(_ i: Int) -> Range<Int> { i * stripRows..<min(height, (i + 1) * stripRows) }

    /// Every strip's piece (`piece`), in order.
    func join(_ strips: [[UInt8]]) throws -> [UInt8] {
        try strips.indices.flatMap { try piece($0, of: strips[$0]) }
    }

    /// Strip i's part of the joined file: for strip 0 its header (the frame's height replaced by
    /// the whole height) and its scan data, for the others RST7 and their scan data; the last
    /// one ends with EOI. One strip is its own file.
    func piece(_ i: Int, of strip: [UInt8]) throws -> [UInt8] {
        let (frame, scan) = try Self.layout(strip)
        var output: [UInt8]
        if i == 0 {
            output = Array(strip[..<scan])
            output[frame + 5] = UInt8(height >> 8)
            output[frame + 6] = UInt8(height & 0xFF)
        } else {
            output = [0xFF, 0xD7]
        }
        output += strip[scan..<(strip.count - 2)]
        return i == count - 1 ? output + [0xFF, 0xD9] : output
    }

    /// Offsets of the SOF marker and of the first byte after the SOS header.
    static func layout(_ jpeg: [UInt8]) throws -> (frame: Int, scan: Int) {
        var i = 2, frame: Int?
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1], length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if (0xC0...0xC2).contains(marker) { frame = i }
            if marker == 0xDA, let frame, jpeg.suffix(2) == [0xFF, 0xD9] { return (frame, i + 2 + length) }
            i += 2 + length
        }
        throw CodecError(.encode, "JPEG encoder: unexpected strip layout")
    }
}

/// A baseline JPEG encoded strip by strip as its rows are made, on any thread and in any order:
/// each strip is encoded alone and comes back as its piece of the file (`JPEGStrips.piece`); the
/// pieces in order are the file, the same bytes as `Image.encoded(as: .jpeg)` of the whole image
/// in strips. What a streamed command writes (package FrostStream).
package struct JPEGStripEncoder: Sendable {
    let strips: JPEGStrips
    let width: Int
    let gray: Bool
    let options: EncodeOptions
    let iccProfile: [UInt8]?

    /// An image of `width` × `height` (`gray`: one component, from the red samples): strips of
    /// `units` × 8 MCU rows (`stripRows`). Progressive JPEGs cannot be made in strips: refused.
    package init(width: Int, height: Int, gray: Bool, units: Int, options: EncodeOptions, iccProfile: [UInt8]?) throws {
        try options.checkJPEG()
        precondition(!options.progressive, "a progressive JPEG is not written in strips")
        self.width = width
        self.gray = gray
        self.options = options
        self.iccProfile = iccProfile
        strips = JPEGStrips(height: height, mcuRows: options.jpegMCURows(gray: gray), units: units)
    }

    package var stripRows: Int { strips.stripRows }
    package var count: Int { strips.count }
    package func rows(_ i: Int) -> Range<Int> { strips.rows(i) }

    /// Strip i's piece of the file from its rows (RGBA8, opaque, `rowBytes` apart); strip 0's
    /// carries the ICC profile and `options.metadata`.
    package func piece(_ i: Int, pixels: UnsafePointer<UInt8>, rowBytes: Int) throws -> [UInt8] {
        var strip = try encodeJPEGRows(pixels, width: width, rows: rows(i).count, rowBytes: rowBytes, options: options, gray: gray,
                                       restarts: strips.restarts, iccProfile: i == 0 ? iccProfile : nil)
        if i == 0, let metadata = options.metadata {
            strip = metadata.inserted(into: strip, as: .jpeg, hasAlpha: false, width: width, height: strips.height)
        }
        return try strips.piece(i, of: strip)
    }
}

extension EncodeOptions {
    func checkJPEG() throws {
        guard (1...100).contains(quality) else { throw CodecError(.encode, "JPEG quality \(quality) is not in 1...100") }
    }

    /// Chroma is subsampled 4:2:0 below quality 90 (libjpeg's and libvips's habit) unless
    /// `jpegSubsampling` says otherwise, so an MCU is 16 rows tall there and 8 at 4:4:4 or in gray.
    func jpegMCURows(gray: Bool) -> Int {
        let halved = jpegSubsampling.map { $0 == .yuv420 } ?? (quality < 90)
        return halved && !gray ? 16 : 8
    }
}

/// `rows` rows of RGBA8 pixels as one baseline (or progressive) JPEG through libjpeg-turbo; with
/// `restarts` a restart marker ends every MCU row (so that strips join, `JPEGStrips`).
func encodeJPEGRows(_ pixels: UnsafePointer<UInt8>, width: Int, rows: Int, rowBytes: Int, options: EncodeOptions, gray: Bool,
                    restarts: Bool, iccProfile: [UInt8]?) throws -> [UInt8] {
    var settings = frost_jpeg_write_options()
    settings.quality = Int32(options.quality)
    settings.progressive = options.progressive ? 1 : 0
    settings.gray = gray ? 1 : 0
    settings.subsample_420 = options.jpegMCURows(gray: gray) == 16 ? 1 : 0
    settings.restart_rows = restarts ? 1 : 0
    return try (iccProfile ?? []).withUnsafeBufferPointer { icc in
        if icc.count > 0 { (settings.icc, settings.icc_length) = (icc.baseAddress, UInt32(icc.count)) }
        return try encoderOutput(.jpeg) { frost_jpeg_encode(pixels, UInt32(width), UInt32(rows), rowBytes, &settings, $0, $1, $2) }
    }
}
