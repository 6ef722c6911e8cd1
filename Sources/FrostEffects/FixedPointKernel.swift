import CFrostSystem
import FrostCore

/// A symmetric kernel's arithmetic in 16-bit fixed point: every gaussian kernel of Frost.
///
/// Samples are held as 8.7 fixed point (value × 128, at most 32 640) and weights as 0.16 fixed
/// point (w × 65 536, the center's set so that they sum to exactly 65 536). Two samples sum to at
/// most 65 280, so a pair of taps is one 16-bit add and one high-half multiply (pmulhuw, through
/// CFrostSystem): sixteen samples per instruction against eight for Float FMAs, and no Float
/// conversions at either end (FixedPointSource, FixedPointTarget). Every product is truncated,
/// losing half a unit on average, so the accumulators start at the expected loss of the R + 1
/// products of a pass: ⌊(R + 1)/2⌋ units for the horizontal pass and ⌈(R + 1)/2⌉ for the
/// vertical one, R + 1 for both together (rounding both up biased the cache chain's fifth level
/// by +1 in 4.5% of its bytes). A pass is within a few 1/128 levels of its exact value
/// (BlurPropertiesTests, GaussianAccuracyTests).
///
/// Bounds: a pass adds at most its bias to the largest input (the weights sum to one), so a
/// horizontal pass over 8.7 samples stays below 32 640 + 25 (R ≤ 48) and the vertical pass's
/// pairs below 65 536. Values handed on to another kernel (the cache chain) are clamped back to
/// 32 640, which only removes bias: the exact value never exceeds it.
struct FixedPointKernel {
    /// The largest 8.7 sample, 255 × 128.
    static let maximum: UInt16 = 32_640

    let radius: Int
    /// W₀…W_R in 0.16 fixed point.
    let weights: UnsafeMutablePointer<UInt16>
    /// Where each pass's accumulators start: the expected truncation of its R + 1 products.
    let rowBias: UInt16
    let columnBias: UInt16

    init(_ kernel: SeparableKernel) {
        radius = kernel.radius
        let fixed = Self.weights(kernel.weights)
        weights = .allocate(capacity: fixed.count)
        weights.initialize(from: fixed, count: fixed.count)
        (rowBias, columnBias) = Self.biases(radius: kernel.radius)
    }

    func deallocate() { weights.deallocate() }

    /// W_k = round(w_k · 2¹⁶) for k ≥ 1 and W₀ = 2¹⁶ − 2·ΣW_k, so that a flat row stays flat.
    static func weights(_ w: [Float]) -> [UInt16] {
        let sides = w.dropFirst().map { UInt16((Double($0) * 65_536).rounded()) }
        let center = 65_536 - 2 * sides.reduce(0) { $0 + Int($1) }
        precondition((1...65_535).contains(center), "a fixed-point kernel needs a center weight below 1")
        return [UInt16(center)] + sides
    }

    static func biases(radius r: Int) -> (row: UInt16, column: UInt16) { (UInt16((r + 1) / 2), UInt16((r + 2) / 2)) }

    /// The horizontal pass over `count` (whole blocks) samples of a padded 8.7 row of `channels`
    /// samples per pixel: h[i] = bias + ⌊p[i]·W₀⌋ + Σ_k ⌊(p[i−ck] + p[i+ck])·W_k⌋, products
    /// ⌊a·b / 2¹⁶⌋. The three passes are not inlined: inside the generic callers the vectoriser
    /// split the Float kernel they replaced into 4-lane halves (perf annotate).
    @inline(never)
    func convolveRow(_ line: UnsafePointer<UInt16>, count: Int, channels: Int, into out: UnsafeMutablePointer<UInt16>) {
        var i = 0
        while i < count {
            Self.convolveBlock(RowTaps(center: line + i, channels: channels), radius, weights, rowBias, into: RingRow(out: out + i))
            i += SeparableKernel.blockSamples
        }
    }

    /// The vertical pass for one block, the same sum down the ring rows, kept in 8.7 (clamped to
    /// `maximum`) for another kernel to read, or (opaque images) to be given alpha by the row.
    @inline(never)
    func convolveColumn(_ t: UnsafePointer<UnsafePointer<UInt16>>, at x: Int, into out: UnsafeMutablePointer<UInt16>) {
        Self.convolveBlock(ColumnTaps(rows: t, radius: radius, x: x), radius, weights, columnBias, into: ClampedRow(out: out))
    }

    /// The vertical pass for one block of `count` samples (a whole block, or a row's tail through
    /// `block`), stored as `Target` (bytes rounded, 8.7 as they are; FixedPointTarget).
    @inline(never)
    func convolveColumn<Target: FixedPointTarget>(_ t: UnsafePointer<UnsafePointer<UInt16>>, at x: Int,
                                                  into out: UnsafeMutablePointer<Target>, count: Int,
                                                  _ block: UnsafeMutablePointer<UInt16>) {
        let taps = ColumnTaps(rows: t, radius: radius, x: x)
        if count == SeparableKernel.blockSamples {
            Self.convolveBlock(taps, radius, weights, columnBias, into: TargetRow(out: out))
        } else {
            Self.convolveBlock(taps, radius, weights, columnBias, into: RingRow(out: block))
            for i in 0..<count { out[i] = Target.sample(fixedPoint: block[i]) }
        }
    }

    /// bias + W₀·center + Σ_k W_k·(pair k) for one block, eight 16-lane accumulators (four left
    /// a third of the time to the loop and the taps' pointer loads, perf).
    @inline(__always)
    private static func convolveBlock<Taps: BlockTaps, Sink: BlockSink>(_ taps: Taps, _ r: Int, _ wk: UnsafeMutablePointer<UInt16>,
                                                                               _ bias: UInt16, into sink: Sink) {
        let w0 = SIMD16<UInt16>(repeating: wk[0]), start = SIMD16<UInt16>(repeating: bias), c = taps.center
        var s0 = start &+ frost_high_products(load(c), w0), s1 = start &+ frost_high_products(load(c + 16), w0)
        var s2 = start &+ frost_high_products(load(c + 32), w0), s3 = start &+ frost_high_products(load(c + 48), w0)
        var s4 = start &+ frost_high_products(load(c + 64), w0), s5 = start &+ frost_high_products(load(c + 80), w0)
        var s6 = start &+ frost_high_products(load(c + 96), w0), s7 = start &+ frost_high_products(load(c + 112), w0)
        for k in 1...r {
            let weight = SIMD16<UInt16>(repeating: wk[k]), (a, b) = taps.pair(k)
            s0 &+= frost_high_products(load(a) &+ load(b), weight)
            s1 &+= frost_high_products(load(a + 16) &+ load(b + 16), weight)
            s2 &+= frost_high_products(load(a + 32) &+ load(b + 32), weight)
            s3 &+= frost_high_products(load(a + 48) &+ load(b + 48), weight)
            s4 &+= frost_high_products(load(a + 64) &+ load(b + 64), weight)
            s5 &+= frost_high_products(load(a + 80) &+ load(b + 80), weight)
            s6 &+= frost_high_products(load(a + 96) &+ load(b + 96), weight)
            s7 &+= frost_high_products(load(a + 112) &+ load(b + 112), weight)
        }
        sink.store(s0, 0); sink.store(s1, 16); sink.store(s2, 32); sink.store(s3, 48)
        sink.store(s4, 64); sink.store(s5, 80); sink.store(s6, 96); sink.store(s7, 112)
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt16>) -> SIMD16<UInt16> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self)
    }
}

/// Where a block's sums go: `store` gets the 16 samples at `offset`.
private protocol BlockSink {
    func store(_ v: SIMD16<UInt16>, _ offset: Int)
}

/// 8.7 as they are (a ring row, or a tail block).
private struct RingRow: BlockSink {
    let out: UnsafeMutablePointer<UInt16>
    @inline(__always) func store(_ v: SIMD16<UInt16>, _ offset: Int) {
        UnsafeMutableRawPointer(out + offset).storeBytes(of: v, as: SIMD16<UInt16>.self)
    }
}

/// 8.7 clamped to `FixedPointKernel.maximum`, for another kernel to read: min(v, maximum) in
/// shifts and masks, d = v − maximum is negative (as Int16) exactly where v is below it (v ≤ 32 767
/// here) and d & (d >> 15) keeps d only there (LLVM makes it one vpminsw). `replacing(with:where:)`
/// compiled to a loop over the lanes.
private struct ClampedRow: BlockSink {
    let out: UnsafeMutablePointer<UInt16>
    @inline(__always) func store(_ v: SIMD16<UInt16>, _ offset: Int) {
        let d = unsafeBitCast(v &- FixedPointKernel.maximum, to: SIMD16<Int16>.self)
        let clamped = FixedPointKernel.maximum &+ unsafeBitCast(d & (d &>> 15), to: SIMD16<UInt16>.self)
        UnsafeMutableRawPointer(out + offset).storeBytes(of: clamped, as: SIMD16<UInt16>.self)
    }
}

/// Samples of a plane (FixedPointTarget: bytes rounded, 8.7 as they are).
private struct TargetRow<Target: FixedPointTarget>: BlockSink {
    let out: UnsafeMutablePointer<Target>
    @inline(__always) func store(_ v: SIMD16<UInt16>, _ offset: Int) { Target.store(fixedPoint: v, out + offset) }
}

/// One band's working memory for a `SeparableKernel` in fixed point (`FixedPointKernel`): how a
/// source row becomes a ring row (horizontal), and how a sweep of output rows is made from the
/// ring rows (vertical), for 8-bit and 8.7 planes in and out.
struct FixedPointPasses<Sample: FixedPointSource, Target: FixedPointTarget> {
    let kernel: FixedPointKernel
    let layout: SeparableKernel.RowLayout
    /// The source row in 8.7, R edge pixels before it and edge pixels up to the block end after it.
    let padded: UnsafeMutablePointer<UInt16>
    /// A row's partial last block.
    let block: UnsafeMutablePointer<UInt16>
    /// An opaque image's sweep of output rows in 8.7 (three channels), given their alpha as they
    /// are stored into the target row by row; nil for RGBA, whose blocks go straight to the target.
    let colorRows: UnsafeMutablePointer<UInt16>?

    init(_ kernel: SeparableKernel, _ layout: SeparableKernel.RowLayout) {
        self.kernel = FixedPointKernel(kernel)
        self.layout = layout
        padded = .allocate(capacity: layout.paddedCount)
        block = .allocate(capacity: SeparableKernel.blockSamples)
        colorRows = layout.channels == 4 ? nil : .allocate(capacity: SeparableKernel.rowsPerSweep * layout.stride)
    }

    func deallocate() { kernel.deallocate(); padded.deallocate(); block.deallocate(); colorRows?.deallocate() }

    /// One source row into one ring row.
    @inline(__always)
    func filter(_ row: UnsafePointer<Sample>, into out: UnsafeMutablePointer<UInt16>) {
        let line = padded + layout.channels * kernel.radius
        Sample.toFixedPoint(row, pixels: layout.width, channels: layout.channels, into: line)
        layout.extendEdges(line, pixels: 0..<layout.width)
        kernel.convolveRow(line, count: layout.samples, channels: layout.channels, into: out)
    }

    /// Output rows y0..<y0+n of `dst`; `taps` holds each one's 2R+1 ring rows, whose first and
    /// last `crop` pixels are not output.
    @inline(__always)
    func vertical(_ taps: UnsafeMutablePointer<UnsafePointer<UInt16>>, rows n: Int, into dst: Plane<Target>, firstRow y0: Int,
                  crop c: Int) {
        let span = 2 * kernel.radius + 1
        if let colorRows {
            let stride = layout.stride
            var x = 0
            while x < layout.samples {
                for o in 0..<n { kernel.convolveColumn(taps + o * span, at: x, into: colorRows + o * stride + x) }
                x += SeparableKernel.blockSamples
            }
            for o in 0..<n {
                let row = colorRows + o * stride + layout.channels * c
                Target.store(fixedPointRow: row, pixels: dst.width, channels: layout.channels, into: dst.row(y0 + o))
            }
            return
        }
        let end = 4 * (layout.width - c)
        var x = 4 * c
        while x < end {
            let m = min(SeparableKernel.blockSamples, end - x)
            for o in 0..<n { kernel.convolveColumn(taps + o * span, at: x, into: dst.row(y0 + o) + (x - 4 * c), count: m, block) }
            x += SeparableKernel.blockSamples
        }
    }
}
