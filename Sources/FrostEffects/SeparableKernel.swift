@_spi(Kernels) import FrostCore

/// A symmetric separable convolution (weights w₀…w_R, w₀ the center), edges extended, streamed:
/// each band of output rows keeps a ring of the horizontally filtered rows it needs, so the
/// source is read once, the destination written once, and no full-size intermediate exists.
///
/// Rows stay interleaved RGBA: the same channel of a pixel k away is 4k samples away, so both
/// passes run on contiguous vectors of mixed channels in which every lane meets only its own
/// channel. An opaque image's rows carry its three colors only (3k apart) and get their alpha
/// back on the way out: a quarter less arithmetic for the same bytes (RGB 4096², σ 4: 1.07x,
/// cache-10 1.02-1.08x; the kernels' instructions fell 24%, their memory traffic less). The
/// planar layout this replaced (four channel rows per row) paid a split and a pack of every
/// pixel at the two ends, a transpose for Float sources, and gave the vertical pass four row
/// streams per tap to fetch from L2 instead of one. The arithmetic is 16-bit fixed
/// point (FixedPointKernel, FixedPointPasses), for 8-bit images and the 8.7 planes behind σ ≥ 8
/// alike: the Float kernel it replaced ran its FMA ports near their peak at half the lanes.
///
/// The vertical pass makes `rowsPerSweep` output rows per sweep, `blockSamples` at a time. Their
/// windows overlap, so each block of the ring comes from L2 once and is reused from L1; one row
/// per sweep over the whole width read all 2R+1 ring rows from L2 for every output row.
struct SeparableKernel {
    let weights: [Float]
    let threads: Int

    static let rowsPerSweep = 4
    /// Samples per block: eight 16-lane accumulators.
    static let blockSamples = 128

    var radius: Int { weights.count - 1 }

    /// Runs the kernel over `src` into `dst`, which is `src` less `crop` pixels on every side (a
    /// margin the kernel reads but nobody keeps: a reduced level's is cropped as it is written).
    /// An `opaque` source (every alpha 255) is blurred in its three colors only and its output
    /// given alpha 255: the same bytes for a quarter less arithmetic. Only the output rows
    /// `outputRows` are made (all by default), reading source rows within R of them: a strip.
    func run<Source: RowSource, D: FixedPointTarget>(_ src: Source, _ dst: Plane<D>, crop c: Int = 0, opaque: Bool = false,
                                                     rows outputRows: Range<Int>? = nil)
    where Source.Sample: FixedPointSource {
        precondition(dst.width == src.width - 2 * c && dst.height == src.height - 2 * c)
        let w = src.width, h = src.height, r = radius
        let layout = RowLayout(width: w, radius: r, channels: opaque ? 3 : 4)
        let sweep = Self.rowsPerSweep
        let slots = 2 * r + sweep, stride = layout.stride
        let made = outputRows ?? 0..<dst.height
        RowBands.run(made.count, threads: threads, minimumBand: 16) { band in
            let rows = (band.lowerBound + made.lowerBound + c)..<(band.upperBound + made.lowerBound + c)
            // Cache-line aligned: every ring load of the vertical pass is then a whole-line load.
            // A cropped output starts its blocks 4·crop samples into a row, so its last block reads
            // up to a block past the row's samples: into the next ring row (values it discards),
            // and for the last row into this slack (AddressSanitizer found the overrun).
            let ringBytes = UnsafeMutableRawPointer.allocate(byteCount: 2 * (slots * stride + Self.blockSamples), alignment: 64)
            let ring = ringBytes.bindMemory(to: UInt16.self, capacity: slots * stride)
            let taps = UnsafeMutablePointer<UnsafePointer<UInt16>>.allocate(capacity: sweep * (2 * r + 1))
            let scratch = UnsafeMutablePointer<Source.Sample>.allocate(capacity: 4 * w)
            let passes = FixedPointPasses<Source.Sample, D>(self, layout)
            defer { ringBytes.deallocate(); taps.deallocate(); scratch.deallocate(); passes.deallocate() }
            // Logical row L (may lie outside the image) lives in slot (L + offset) % slots.
            let offset = slots * (r + 2)
            @inline(__always) func slot(_ logical: Int) -> UnsafeMutablePointer<UInt16> {
                ring + ((logical + offset) % slots) * stride
            }
            @inline(__always) func filter(_ logical: Int) {
                passes.filter(src.row(min(max(logical, 0), h - 1), scratch: scratch), into: slot(logical))
            }
            for logical in (rows.lowerBound - r)..<(rows.lowerBound + r) { filter(logical) }
            var y = rows.lowerBound
            while y < rows.upperBound {
                let n = min(sweep, rows.upperBound - y)
                for logical in (y + r)..<(y + r + n) { filter(logical) }
                for o in 0..<n {
                    for t in 0...(2 * r) { taps[o * (2 * r + 1) + t] = UnsafePointer(slot(y + o - r + t)) }
                }
                passes.vertical(taps, rows: n, into: dst, firstRow: y - c, crop: c)
                y += n
            }
        }
    }

    /// Where the ring and the padded source row keep their samples.
    ///
    /// Ring rows are an odd multiple of 64 bytes apart: at a power-of-two distance (4096 pixels)
    /// every tap of a block mapped to the same L1 sets and the lines a block needs kept evicting
    /// each other (σ = 4 at 4096²: 672 → 350 ms with this, planar layout).
    struct RowLayout {
        let width: Int
        let radius: Int
        /// Samples per pixel: 4 (RGBA), or 3 for an opaque image's colors.
        let channels: Int
        /// Samples per filtered row, in whole vertical blocks.
        var samples: Int {
            (channels * width + SeparableKernel.blockSamples - 1) / SeparableKernel.blockSamples * SeparableKernel.blockSamples
        }
        /// 16-bit samples from one ring row to the next: the samples and one more cache line.
        var stride: Int { samples + 32 }
        /// The padded source row: R edge pixels, the row, edge pixels up to `samples` + R pixels,
        /// and room for the four lanes a three-channel conversion stores past its row (toFixedPoint).
        var paddedCount: Int { samples + 2 * channels * radius + 4 }

        /// Repeats the first and last of the row's pixels `pixels` (of `line`, padded as
        /// `paddedCount` says) over the R pixels before sample 0 and up to R pixels past `samples`.
        @inline(__always)
        func extendEdges(_ line: UnsafeMutablePointer<UInt16>, pixels: Range<Int>) {
            let c = channels, start = c * pixels.lowerBound, end = c * pixels.upperBound
            let first = line + start, last = line + end - c
            for i in Swift.stride(from: -c * radius, to: start, by: c) { (line + i).update(from: first, count: c) }
            for i in Swift.stride(from: end, to: samples + c * radius, by: c) { (line + i).update(from: last, count: c) }
        }
    }
}

/// Where the 8.7 samples of one block's taps are: its center and, for k in 1...R, the two
/// samples k pixels (along a row) or k rows (down a column) away on either side.
protocol BlockTaps {
    var center: UnsafePointer<UInt16> { get }
    func pair(_ k: Int) -> (UnsafePointer<UInt16>, UnsafePointer<UInt16>)
}

/// Along an interleaved row: the same channel k pixels away is `channels`·k samples away.
struct RowTaps: BlockTaps {
    let center: UnsafePointer<UInt16>
    let channels: Int
    @inline(__always) func pair(_ k: Int) -> (UnsafePointer<UInt16>, UnsafePointer<UInt16>) {
        (center - channels &* k, center + channels &* k)
    }
}

/// Down a column of ring rows: `rows` holds the 2R+1 rows, the block starts at sample x.
struct ColumnTaps: BlockTaps {
    let rows: UnsafePointer<UnsafePointer<UInt16>>
    let radius: Int
    let x: Int
    var center: UnsafePointer<UInt16> { rows[radius] + x }
    @inline(__always) func pair(_ k: Int) -> (UnsafePointer<UInt16>, UnsafePointer<UInt16>) {
        (rows[radius &- k] + x, rows[radius &+ k] + x)
    }
}
