import FrostCore

/// The arithmetic of a `SeparableKernel`'s two passes, and one band's working memory for it:
/// how a source row becomes a ring row (horizontal), and how a sweep of output rows is made
/// from the ring rows (vertical). The schedule around them (`SeparableKernel.stream`) is the
/// same for every arithmetic.
protocol KernelPasses {
    /// What the ring holds between the passes.
    associatedtype Element
    associatedtype Sample: PlaneSample
    associatedtype Target: PlaneSample
    init(_ kernel: SeparableKernel, _ layout: SeparableKernel.RowLayout)
    func deallocate()
    /// One source row (4 × width samples) into one ring row.
    func filter(_ row: UnsafePointer<Sample>, into out: UnsafeMutablePointer<Element>)
    /// Output rows y0..<y0+n of `dst`; `taps` holds each one's 2R+1 ring rows.
    func vertical(_ taps: UnsafeMutablePointer<UnsafePointer<Element>>, rows n: Int, into dst: Plane<Target>, firstRow y0: Int)
}

/// Float between the passes, for any source and destination samples.
struct FloatPasses<Sample: PlaneSample, Target: PlaneSample>: KernelPasses {
    let kernel: SeparableKernel
    let layout: SeparableKernel.RowLayout
    let weights: UnsafeMutableBufferPointer<Float>
    /// The source row as Float, R edge pixels before it and edge pixels up to the block end after it.
    let padded: UnsafeMutablePointer<Float>
    let block: UnsafeMutablePointer<Float>

    init(_ kernel: SeparableKernel, _ layout: SeparableKernel.RowLayout) {
        self.kernel = kernel
        self.layout = layout
        weights = .allocate(capacity: kernel.weights.count)
        _ = weights.initialize(from: kernel.weights)
        padded = .allocate(capacity: layout.paddedCount)
        block = .allocate(capacity: SeparableKernel.blockSamples)
    }

    func deallocate() { weights.deallocate(); padded.deallocate(); block.deallocate() }

    /// out[i] = w₀·p[i] + Σ_k w_k·(p[i−4k] + p[i+4k]) on the padded row.
    @inline(__always)
    func filter(_ row: UnsafePointer<Sample>, into out: UnsafeMutablePointer<Float>) {
        let r = kernel.radius, n = 4 * layout.width
        let line = padded + 4 * r
        Sample.loadSamples(row, count: n, into: line)
        SeparableKernel.extendEdges(line, pixels: 0..<n, to: -4 * r..<(layout.samples + 4 * r))
        kernel.convolveRow(UnsafePointer(line), count: layout.samples, into: out, UnsafeBufferPointer(weights))
    }

    /// `blockSamples` at a time (`convolveColumn`). A Float destination takes whole blocks
    /// straight from the accumulators; bytes (and a row's partial last block) go through
    /// `block`. (Converting to bytes straight from the accumulators measured slower at σ 2 and 4:
    /// the conversions no longer stayed inline.)
    @inline(__always)
    func vertical(_ taps: UnsafeMutablePointer<UnsafePointer<Float>>, rows n: Int, into dst: Plane<Target>, firstRow y0: Int) {
        let span = 2 * kernel.radius + 1, count = 4 * layout.width, wk = UnsafeBufferPointer(weights)
        var x = 0
        while x < count {
            let m = min(SeparableKernel.blockSamples, count - x)
            for o in 0..<n {
                if Target.self == Float.self && m == SeparableKernel.blockSamples {
                    let target = UnsafeMutableRawPointer(dst.row(y0 + o) + x).assumingMemoryBound(to: Float.self)
                    kernel.convolveColumn(taps + o * span, at: x, into: target, wk)
                } else {
                    kernel.convolveColumn(taps + o * span, at: x, into: block, wk)
                    Target.storeSamples(block, count: m, into: dst.row(y0 + o) + x)
                }
            }
            x += SeparableKernel.blockSamples
        }
    }
}
