import FrostCore

/// A symmetric separable convolution (weights w₀…w_R, w₀ the center), edges extended, streamed:
/// each band of output rows keeps a ring of the horizontally filtered rows it needs, so the
/// source is read once, the destination written once, and no full-size intermediate exists.
///
/// Rows stay interleaved RGBA: the same channel of a pixel k away is 4k samples away, so both
/// passes run on contiguous vectors of mixed channels in which every lane meets only its own
/// channel. The planar layout this replaced (four channel rows per row) paid a split and a pack
/// of every pixel at the two ends, a transpose for Float sources, and gave the vertical pass
/// four row streams per tap to fetch from L2 instead of one. The arithmetic of the passes is
/// separate (KernelPasses): 16-bit fixed point for 8-bit images (FixedPointPasses), Float for
/// Float planes (FloatPasses: the reduced planes behind σ ≥ 8).
///
/// The vertical pass makes `rowsPerSweep` output rows per sweep, `blockSamples` at a time. Their
/// windows overlap, so each block of the ring comes from L2 once and is reused from L1; one row
/// per sweep over the whole width read all 2R+1 ring rows from L2 for every output row.
struct SeparableKernel {
    let weights: [Float]
    let threads: Int

    static let rowsPerSweep = 4
    /// Samples per block: eight 8-lane Float accumulators, or four 16-lane fixed-point ones.
    static let blockSamples = 64

    var radius: Int { weights.count - 1 }

    /// Float between the passes: any source and destination samples.
    func run<Source: RowSource, D: PlaneSample>(_ src: Source, _ dst: Plane<D>) {
        stream(src, dst, FloatPasses<Source.Sample, D>.self)
    }

    /// 8-bit in and out, 16-bit fixed point between the passes (FixedPointPasses): twice the
    /// samples per instruction of Float, within 1/128 of a level of it.
    func runInFixedPoint<Source: RowSource<UInt8>>(_ src: Source, _ dst: Plane<UInt8>) {
        stream(src, dst, FixedPointPasses.self)
    }

    /// The schedule, whatever the arithmetic: bands of output rows, each with its ring of
    /// horizontally filtered rows, `rowsPerSweep` output rows per vertical sweep.
    private func stream<Source: RowSource, P: KernelPasses>(_ src: Source, _ dst: Plane<P.Target>, _: P.Type)
    where P.Sample == Source.Sample {
        let w = src.width, h = src.height, r = radius
        let layout = RowLayout(width: w, radius: r)
        let sweep = Self.rowsPerSweep
        let slots = 2 * r + sweep, stride = layout.stride(of: P.Element.self)
        RowBands.run(h, threads: threads, minimumBand: 16) { rows in
            // Cache-line aligned: every ring load of the vertical pass is then a whole-line load.
            let ringBytes = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<P.Element>.stride * slots * stride, alignment: 64)
            let ring = ringBytes.bindMemory(to: P.Element.self, capacity: slots * stride)
            let taps = UnsafeMutablePointer<UnsafePointer<P.Element>>.allocate(capacity: sweep * (2 * r + 1))
            let scratch = UnsafeMutablePointer<Source.Sample>.allocate(capacity: 4 * w)
            let passes = P(self, layout)
            defer { ringBytes.deallocate(); taps.deallocate(); scratch.deallocate(); passes.deallocate() }
            // Logical row L (may lie outside the image) lives in slot (L + offset) % slots.
            let offset = slots * (r + 2)
            @inline(__always) func slot(_ logical: Int) -> UnsafeMutablePointer<P.Element> {
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
                passes.vertical(taps, rows: n, into: dst, firstRow: y)
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
        /// Samples per filtered row: 4 per pixel, in whole vertical blocks.
        var samples: Int { (4 * width + SeparableKernel.blockSamples - 1) / SeparableKernel.blockSamples * SeparableKernel.blockSamples }
        /// Elements from one ring row to the next: the samples and one more cache line.
        func stride<Element>(of _: Element.Type) -> Int { samples + 64 / MemoryLayout<Element>.stride }
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

    /// Repeats a row's first and last pixel (at samples `pixels` of `line`) over the rest of `span`.
    @inline(__always)
    static func extendEdges<Element>(_ line: UnsafeMutablePointer<Element>, pixels: Range<Int>, to span: Range<Int>) {
        let first = line + pixels.lowerBound, last = line + pixels.upperBound - 4
        for i in stride(from: span.lowerBound, to: pixels.lowerBound, by: 4) { (line + i).update(from: first, count: 4) }
        for i in stride(from: pixels.upperBound, to: span.upperBound, by: 4) { (line + i).update(from: last, count: 4) }
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
    private static func convolveBlock<Taps: BlockTaps<Float>>(_ taps: Taps, radius r: Int, _ wk: UnsafeBufferPointer<Float>,
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
protocol BlockTaps<Element> {
    associatedtype Element
    var center: UnsafePointer<Element> { get }
    func pair(_ k: Int) -> (UnsafePointer<Element>, UnsafePointer<Element>)
}

/// Along an interleaved RGBA row: the same channel k pixels away is 4k samples away.
struct RowTaps<Element>: BlockTaps {
    let center: UnsafePointer<Element>
    @inline(__always) func pair(_ k: Int) -> (UnsafePointer<Element>, UnsafePointer<Element>) { (center - 4 &* k, center + 4 &* k) }
}

/// Down a column of ring rows: `rows` holds the 2R+1 rows, the block starts at sample x.
struct ColumnTaps<Element>: BlockTaps {
    let rows: UnsafePointer<UnsafePointer<Element>>
    let radius: Int
    let x: Int
    var center: UnsafePointer<Element> { rows[radius] + x }
    @inline(__always) func pair(_ k: Int) -> (UnsafePointer<Element>, UnsafePointer<Element>) {
        (rows[radius &- k] + x, rows[radius &+ k] + x)
    }
}
