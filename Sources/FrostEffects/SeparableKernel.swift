import FrostCore

/// A symmetric separable convolution (weights w₀…w_R, w₀ the center), edges extended, streamed:
/// each band of output rows keeps a ring of the horizontally filtered rows it needs, so the
/// source is read once, the destination written once, and no full-size intermediate exists.
///
/// Rows stay interleaved RGBA, in Float: the same channel of a pixel k away is 4k samples away,
/// so both passes run on contiguous 8-lane vectors of mixed channels in which every lane meets
/// only its own channel. The planar layout this replaced (four channel rows per row) paid a
/// split and a pack of every pixel at the two ends, a transpose for Float sources, and gave the
/// vertical pass four row streams per tap to fetch from L2 instead of one.
///
/// The vertical pass makes `rowsPerSweep` output rows per sweep, `blockSamples` at a time. Their
/// windows overlap, so each block of the ring comes from L2 once and is reused from L1; one row
/// per sweep over the whole width read all 2R+1 ring rows from L2 for every output row.
struct SeparableKernel {
    let weights: [Float]
    let threads: Int

    static let rowsPerSweep = 4
    /// Samples per vertical block: eight 8-lane accumulators.
    static let blockSamples = 64

    var radius: Int { weights.count - 1 }

    func run<Source: RowSource, D: PlaneSample>(_ src: Source, _ dst: Plane<D>) {
        let w = src.width, h = src.height, r = radius
        let layout = RowLayout(width: w, radius: r)
        let sweep = Self.rowsPerSweep
        let slots = 2 * r + sweep
        RowBands.run(h, threads: threads, minimumBand: 16) { rows in
            // Cache-line aligned: every ring load of the vertical pass is then a whole-line load.
            let ringBytes = UnsafeMutableRawPointer.allocate(byteCount: 4 * slots * layout.stride, alignment: 64)
            let ring = ringBytes.bindMemory(to: Float.self, capacity: slots * layout.stride)
            let padded = UnsafeMutablePointer<Float>.allocate(capacity: layout.paddedCount)
            let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: sweep * (2 * r + 1))
            let block = UnsafeMutablePointer<Float>.allocate(capacity: Self.blockSamples)
            let scratch = UnsafeMutablePointer<Source.Sample>.allocate(capacity: 4 * w)
            defer {
                ringBytes.deallocate(); padded.deallocate(); taps.deallocate(); block.deallocate(); scratch.deallocate()
            }
            weights.withUnsafeBufferPointer { wk in
                // Logical row L (may lie outside the image) lives in slot (L + offset) % slots.
                let offset = slots * (r + 2)
                @inline(__always) func slot(_ logical: Int) -> UnsafeMutablePointer<Float> {
                    ring + ((logical + offset) % slots) * layout.stride
                }
                @inline(__always) func filter(_ logical: Int) {
                    horizontal(src.row(min(max(logical, 0), h - 1), scratch: scratch), layout, into: slot(logical), padded, wk)
                }
                for logical in (rows.lowerBound - r)..<(rows.lowerBound + r) { filter(logical) }
                var y = rows.lowerBound
                while y < rows.upperBound {
                    let n = min(sweep, rows.upperBound - y)
                    for logical in (y + r)..<(y + r + n) { filter(logical) }
                    for o in 0..<n {
                        for t in 0...(2 * r) { taps[o * (2 * r + 1) + t] = UnsafePointer(slot(y + o - r + t)) }
                    }
                    vertical(taps, rows: n, layout, into: dst, firstRow: y, block, wk)
                    y += n
                }
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
        /// Samples per filtered row: 4 per pixel, in whole vertical blocks.
        var samples: Int { (4 * width + SeparableKernel.blockSamples - 1) / SeparableKernel.blockSamples * SeparableKernel.blockSamples }
        /// Floats from one ring row to the next.
        var stride: Int { samples + 16 }
        /// The padded source row: R edge pixels, the row, edge pixels up to `samples` + R pixels.
        var paddedCount: Int { samples + 8 * radius }
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    /// One source row into one ring row: out[i] = w₀·p[i] + Σ_k w_k·(p[i−4k] + p[i+4k]), on a Float
    /// copy padded with R edge pixels before it and edge pixels up to the block end after it.
    @inline(__always)
    private func horizontal<S: PlaneSample>(_ row: UnsafePointer<S>, _ layout: RowLayout, into out: UnsafeMutablePointer<Float>,
                                            _ padded: UnsafeMutablePointer<Float>, _ wk: UnsafeBufferPointer<Float>) {
        let r = radius, n = 4 * layout.width
        let line = padded + 4 * r
        S.loadSamples(row, count: n, into: line)
        Self.extendEdges(line, pixels: 0..<n, to: -4 * r..<(layout.samples + 4 * r))
        convolveRow(UnsafePointer(line), count: layout.samples, into: out, wk)
    }

    /// Repeats a row's first and last pixel (at samples `pixels` of `line`) over the rest of `span`.
    @inline(__always)
    static func extendEdges(_ line: UnsafeMutablePointer<Float>, pixels: Range<Int>, to span: Range<Int>) {
        let first = Float.loadPixel(line + pixels.lowerBound), last = Float.loadPixel(line + pixels.upperBound - 4)
        for i in stride(from: span.lowerBound, to: pixels.lowerBound, by: 4) { Float.storePixel(first, line + i) }
        for i in stride(from: pixels.upperBound, to: span.upperBound, by: 4) { Float.storePixel(last, line + i) }
    }

    /// out[i] = w₀·p[i] + Σ_k w_k·(p[i−4k] + p[i+4k]) for `count` (a multiple of 64) samples of
    /// one interleaved row. Not inlined: inside the generic callers the vectoriser split these
    /// 8-lane chains into 4-lane halves (perf annotate); on its own it stays one FMA per vector.
    @inline(never)
    func convolveRow(_ p: UnsafePointer<Float>, count: Int, into target: UnsafeMutablePointer<Float>,
                     _ wk: UnsafeBufferPointer<Float>) {
        var i = 0
        while i < count {
            Self.convolveBlock(RowTaps(center: p + i), radius: radius, wk, into: target + i)
            i += Self.blockSamples
        }
    }

    /// `n` output rows from the ring, `blockSamples` at a time (`convolveColumn`), stored into
    /// `dst`. `taps` holds each output row's 2R+1 ring rows. A Float destination takes whole
    /// blocks straight from the accumulators; bytes (and a row's partial last block) go through
    /// `block`. (Converting to bytes straight from the accumulators measured slower at σ 2 and 4:
    /// the conversions no longer stayed inline.)
    @inline(__always)
    private func vertical<D: PlaneSample>(_ taps: UnsafeMutablePointer<UnsafePointer<Float>>, rows n: Int, _ layout: RowLayout,
                                          into dst: Plane<D>, firstRow y0: Int, _ block: UnsafeMutablePointer<Float>,
                                          _ wk: UnsafeBufferPointer<Float>) {
        let span = 2 * radius + 1, count = 4 * layout.width
        var x = 0
        while x < count {
            let m = min(Self.blockSamples, count - x)
            for o in 0..<n {
                if D.self == Float.self && m == Self.blockSamples {
                    let target = UnsafeMutableRawPointer(dst.row(y0 + o) + x).assumingMemoryBound(to: Float.self)
                    convolveColumn(taps + o * span, at: x, into: target, wk)
                } else {
                    convolveColumn(taps + o * span, at: x, into: block, wk)
                    D.storeSamples(block, count: m, into: dst.row(y0 + o) + x)
                }
            }
            x += Self.blockSamples
        }
    }

    /// One output block: out = w₀·row₀ + Σ_k w_k·(row₋ₖ + row₊ₖ) for the 64 samples at x, into
    /// `block`. Not inlined, for the reason `convolveRow` is not.
    @inline(never)
    func convolveColumn(_ t: UnsafePointer<UnsafePointer<Float>>, at x: Int,
                        into block: UnsafeMutablePointer<Float>, _ wk: UnsafeBufferPointer<Float>) {
        Self.convolveBlock(ColumnTaps(rows: t, radius: radius, x: x), radius: radius, wk, into: block)
    }

    /// out = w₀·center + Σ_k w_k·(pair k) for 64 contiguous samples, in eight accumulators: each
    /// is a chain of dependent FMAs (4 cycles apiece), and four chains left the two FMA ports
    /// half idle (perf annotate).
    @inline(__always)
    private static func convolveBlock<Taps: BlockTaps>(_ taps: Taps, radius r: Int, _ wk: UnsafeBufferPointer<Float>,
                                                       into out: UnsafeMutablePointer<Float>) {
        let w0 = wk[0], center = taps.center
        var s0 = load(center) * w0, s1 = load(center + 8) * w0
        var s2 = load(center + 16) * w0, s3 = load(center + 24) * w0
        var s4 = load(center + 32) * w0, s5 = load(center + 40) * w0
        var s6 = load(center + 48) * w0, s7 = load(center + 56) * w0
        for k in 1...r {
            let weight = wk[k], (a, b) = taps.pair(k)
            s0.addProduct(load(a) + load(b), weight)
            s1.addProduct(load(a + 8) + load(b + 8), weight)
            s2.addProduct(load(a + 16) + load(b + 16), weight)
            s3.addProduct(load(a + 24) + load(b + 24), weight)
            s4.addProduct(load(a + 32) + load(b + 32), weight)
            s5.addProduct(load(a + 40) + load(b + 40), weight)
            s6.addProduct(load(a + 48) + load(b + 48), weight)
            s7.addProduct(load(a + 56) + load(b + 56), weight)
        }
        store(s0, out); store(s1, out + 8); store(s2, out + 16); store(s3, out + 24)
        store(s4, out + 32); store(s5, out + 40); store(s6, out + 48); store(s7, out + 56)
    }
}

/// Where the samples of one 64-sample block's taps are: its center and, for k in 1...R, the
/// two samples k pixels (along a row) or k rows (down a column) away on either side.
private protocol BlockTaps {
    var center: UnsafePointer<Float> { get }
    func pair(_ k: Int) -> (UnsafePointer<Float>, UnsafePointer<Float>)
}

/// Along an interleaved RGBA row: the same channel k pixels away is 4k samples away.
private struct RowTaps: BlockTaps {
    let center: UnsafePointer<Float>
    @inline(__always) func pair(_ k: Int) -> (UnsafePointer<Float>, UnsafePointer<Float>) { (center - 4 &* k, center + 4 &* k) }
}

/// Down a column of ring rows: `rows` holds the 2R+1 rows, the block starts at sample x.
private struct ColumnTaps: BlockTaps {
    let rows: UnsafePointer<UnsafePointer<Float>>
    let radius: Int
    let x: Int
    var center: UnsafePointer<Float> { rows[radius] + x }
    @inline(__always) func pair(_ k: Int) -> (UnsafePointer<Float>, UnsafePointer<Float>) {
        (rows[radius &- k] + x, rows[radius &+ k] + x)
    }
}
