/// A baseline JPEG encoded as horizontal strips on several threads, then joined into one file.
///
/// Every strip is an independent JPEG with a restart marker after each MCU row, and all but the
/// last are a multiple of 8 MCU rows tall. Restart markers reset the DC predictions and count
/// RST0…RST7 modulo 8 (ITU T.81 §F.1.2.3, §B.2.4.4), so strip k's entropy-coded data is exactly
/// what one encoder would write from that row on, and the strips join with the RST7 that ends
/// each multiple of 8 intervals. The DCT, quantisation and (without `optimize_coding`) the
/// standard Huffman tables are the same in every strip: the joined file decodes to the very
/// pixels of a one-piece encode, for about 2 bytes more per MCU row.
struct JPEGStrips {
    let height: Int
    /// Rows per strip but the last: a multiple of 8 MCU rows.
    let stripRows: Int
    var count: Int { (height + stripRows - 1) / stripRows }

    /// One strip per thread, or one strip when the image is under 4 units (32 MCU rows) tall.
    init(height: Int, mcuRows: Int, threads: Int) {
        let unit = 8 * mcuRows
        self.height = height
        let units = (height + unit - 1) / unit
        stripRows = threads < 2 || units < 4 ? max(height, 1) : unit * ((units + threads - 1) / threads)
    }

    func rows(_ i: Int) -> Range<Int> { i * stripRows..<min(height, (i + 1) * stripRows) }

    /// Strip 0's header (its frame height replaced by the whole height), every strip's scan data
    /// with RST7 between them, EOI.
    func join(_ strips: [[UInt8]]) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(strips.reduce(0) { $0 + $1.count })
        for (i, strip) in strips.enumerated() {
            let (frame, scan) = try Self.layout(strip)
            if i == 0 {
                output += strip[..<scan]
                output[frame + 5] = UInt8(height >> 8)
                output[frame + 6] = UInt8(height & 0xFF)
            } else {
                output += [0xFF, 0xD7]
            }
            output += strip[scan..<(strip.count - 2)]
        }
        return output + [0xFF, 0xD9]
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
