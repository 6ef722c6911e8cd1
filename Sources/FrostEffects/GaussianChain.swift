@_spi(Kernels) import FrostCore

/// The full-resolution levels of a blur cache (`GaussianLevels`), made in one streamed pass.
///
/// Stage i blurs stage i−1 by its kernel (σ_inc, the semigroup step), so the chain's output i is
/// the source blurred by σᵢ. Rows flow down the chain as they are made: each stage keeps a ring
/// of the horizontally filtered rows of the stage above, makes `SeparableKernel.rowsPerSweep`
/// rows at a time from it, quantises those of them its band owns into its level, and lends them
/// to the stage below. Between stages the values stay in 8.7 fixed point (FixedPointKernel: 15
/// bits, so rounding does not accumulate over the levels), and only in rows that live in L2:
/// written as whole Float planes, each level cost a 268 MB write and two reads of it at 4096²
/// (quantising and the next level), a third of the cache's time (perf).
///
/// The chain runs on the source edge-extended by the sum of the kernels' reaches, as if that
/// extended image had been blurred stage by stage with every stage's own edges extended (what
/// blurring the levels one after another did): re-extending a blurred level's border instead of
/// the source's would give different edges. The extension is never materialised: stage 0 pads
/// each source row as it loads it, and rows above and below the source repeat its edge rows.
struct GaussianChain {
    let kernels: [SeparableKernel]
    let threads: Int

    /// Pixels the extended source reaches beyond the image on every side.
    var reach: Int { kernels.map(\.radius).reduce(0, +) }

    /// Stage i's output as an image (premultiplied, the source's size and flags).
    func levels(of source: Image) -> [Image] {
        guard !source.pixels.isEmpty else { return kernels.map { _ in source.premultiplied() } }
        let pixels = Self.buffers(kernels.count, bytes: source.pixels.count) { targets in
            let levels = targets.map { Plane(base: $0, width: source.width, height: source.height) }
            source.withPlane { plane in
                source.readsStraightAlpha ? run(StraightAlphaRows(plane: plane), into: levels)
                    : run(plane, into: levels, opaque: !source.hasAlpha)
            }
        }
        return pixels.map { pixels in
            var level = source
            level.isPremultiplied = true
            level.pixels = pixels
            return level
        }
    }

    /// `count` pixel buffers of `bytes` each, filled together by `fill`: nested so that each is
    /// made in place, uninitialised until then (not zeroed and written again).
    private static func buffers(_ count: Int, bytes: Int, _ fill: ([UnsafeMutablePointer<UInt8>]) -> Void) -> [[UInt8]] {
        func nest(_ held: [UnsafeMutablePointer<UInt8>]) -> [[UInt8]] {
            guard held.count < count else {
                fill(held)
                return []
            }
            var rest: [[UInt8]] = []
            let pixels = [UInt8](unsafeUninitializedCapacity: max(1, bytes)) { buffer, made in
                rest = nest(held + [buffer.baseAddress!])
                made = bytes
            }
            return [pixels] + rest
        }
        return nest([])
    }

    /// Stage i's output, cropped to the source's size, quantised into `levels[i]`. An `opaque`
    /// source's rows carry its three colors only (SeparableKernel.run).
    func run<Source: RowSource<UInt8>>(_ src: Source, into levels: [Plane<UInt8>], opaque: Bool = false) {
        precondition(levels.count == kernels.count && levels.allSatisfy { $0.width == src.width && $0.height == src.height })
        guard !kernels.isEmpty, src.width > 0, src.height > 0 else { return }
        RowBands.run(src.height, threads: threads, minimumBand: 16) { rows in
            ChainBand(self, src, levels, rows: rows, channels: opaque ? 3 : 4).run()
        }
    }
}

/// One band's pass down the chain: the stages' rings and row buffers, and where each stage is.
/// Every stage makes the rows its band's levels need plus the rows the stages below reach
/// into (so neighbouring bands both make the few rows at their seam, each for itself).
private final class ChainBand<Source: RowSource<UInt8>> {
    /// One stage of the chain, in extended-image rows (0..<extendedHeight).
    struct Stage {
        let kernel: FixedPointKernel
        let layout: SeparableKernel.RowLayout
        let ring: UnsafeMutablePointer<UInt16>
        let slots: Int
        /// The rows of the current sweep, each with room for the next stage's edge pixels.
        let rows: [UnsafeMutablePointer<UInt16>]
        let storage: UnsafeMutablePointer<UInt16>
        let taps: UnsafeMutablePointer<UnsafePointer<UInt16>>
        /// Rows this stage makes: `made` is the next, `end` one past the last.
        var made: Int
        let end: Int
        /// The first row held in `rows`.
        var sweepStart = 0
        /// The next input row to filter into the ring.
        var filtered: Int

        /// Ring row of input row j (0 ≤ j < extended height).
        @inline(__always) func slot(_ j: Int) -> UnsafeMutablePointer<UInt16> { ring + (j % slots) * layout.stride }
    }

    let source: Source
    let levels: [Plane<UInt8>]
    let reach: Int
    let extendedHeight: Int
    /// The extended rows whose pixels this band writes into every level.
    let owned: Range<Int>
    var stages: [Stage] = []
    /// Stage 0's input: one extended source row, padded for its kernel.
    let sourceRow: UnsafeMutablePointer<UInt16>
    let scratch: UnsafeMutablePointer<UInt8>

    init(_ chain: GaussianChain, _ source: Source, _ levels: [Plane<UInt8>], rows: Range<Int>, channels: Int) {
        self.source = source
        self.levels = levels
        reach = chain.reach
        let width = source.width + 2 * reach
        extendedHeight = source.height + 2 * reach
        owned = (rows.lowerBound + reach)..<(rows.upperBound + reach)
        let sweep = SeparableKernel.rowsPerSweep
        // Rows each stage makes: its band's rows, widened by the reach of every stage below.
        var bounds = [owned]
        for kernel in chain.kernels.dropFirst().reversed() {
            let below = bounds[0]
            bounds.insert(max(0, below.lowerBound - kernel.radius)..<min(extendedHeight, below.upperBound + kernel.radius), at: 0)
        }
        for (i, kernel) in chain.kernels.enumerated() {
            let r = kernel.radius, layout = SeparableKernel.RowLayout(width: width, radius: r, channels: channels)
            // Room before each row for the next stage's edge pixels, whole cache lines of it.
            let next = i + 1 < chain.kernels.count ? chain.kernels[i + 1].radius : 0
            let lead = (channels * next + 31) / 32 * 32
            // (and four lanes more: a three-channel row is read up to four lanes past its end).
            let rowSamples = (lead + layout.samples + channels * next + 4 + 31) / 32 * 32
            let slots = 2 * r + sweep
            let stride = layout.stride
            let ring = UnsafeMutableRawPointer.allocate(byteCount: 2 * slots * stride, alignment: 64)
                .bindMemory(to: UInt16.self, capacity: slots * stride)
            let storage = UnsafeMutableRawPointer.allocate(byteCount: 2 * sweep * rowSamples, alignment: 64)
                .bindMemory(to: UInt16.self, capacity: sweep * rowSamples)
            stages.append(Stage(kernel: FixedPointKernel(kernel), layout: layout, ring: ring, slots: slots,
                                rows: (0..<sweep).map { storage + $0 * rowSamples + lead }, storage: storage,
                                taps: .allocate(capacity: sweep * (2 * r + 1)),
                                made: bounds[i].lowerBound, end: bounds[i].upperBound,
                                filtered: max(0, bounds[i].lowerBound - r)))
        }
        sourceRow = .allocate(capacity: stages[0].layout.paddedCount)
        scratch = .allocate(capacity: 4 * source.width)
    }

    deinit {
        for stage in stages {
            UnsafeMutableRawPointer(stage.ring).deallocate()
            UnsafeMutableRawPointer(stage.storage).deallocate()
            stage.taps.deallocate()
            stage.kernel.deallocate()
        }
        sourceRow.deallocate()
        scratch.deallocate()
    }

    func run() {
        let last = stages.count - 1
        while stages[last].made < stages[last].end { sweep(last) }
    }

    /// Stage s's output row j, made (with the rest of its sweep) when first asked for. Rows are
    /// asked for in order, each once, so a sweep's rows are done with when the next is made.
    private func output(_ s: Int, _ j: Int) -> UnsafeMutablePointer<UInt16> {
        if j >= stages[s].made { sweep(s) }
        return stages[s].rows[j - stages[s].sweepStart]
    }

    /// Stage s makes its next rows: filters the input rows their windows reach into the ring,
    /// runs the vertical kernel, and quantises the rows its band owns.
    private func sweep(_ s: Int) {
        let y = stages[s].made, n = min(SeparableKernel.rowsPerSweep, stages[s].end - y)
        let r = stages[s].kernel.radius
        while stages[s].filtered <= min(extendedHeight - 1, y + n - 1 + r) {
            filter(s, stages[s].filtered)
            stages[s].filtered += 1
        }
        let stage = stages[s], span = 2 * r + 1
        for o in 0..<n {
            for t in 0..<span { stage.taps[o * span + t] = UnsafePointer(stage.slot(min(max(y + o - r + t, 0), extendedHeight - 1))) }
        }
        var x = 0
        while x < stage.layout.channels * stage.layout.width {
            for o in 0..<n { stage.kernel.convolveColumn(stage.taps + o * span, at: x, into: stage.rows[o] + x) }
            x += SeparableKernel.blockSamples
        }
        for o in 0..<n where owned.contains(y + o) {
            let c = stage.layout.channels
            UInt8.store(fixedPointRow: stage.rows[o] + c * reach, pixels: source.width, channels: c, into: levels[s].row(y + o - reach))
        }
        stages[s].sweepStart = y
        stages[s].made = y + n
    }

    /// Input row j of stage s (stage s−1's output, or the extended source for stage 0),
    /// edge-padded and filtered horizontally into its ring row.
    private func filter(_ s: Int, _ j: Int) {
        let stage = stages[s], r = stage.kernel.radius, width = stage.layout.width, c = stage.layout.channels
        let line: UnsafeMutablePointer<UInt16>
        let pixels: Range<Int>
        if s == 0 {
            line = sourceRow + c * r
            let y = min(max(j - reach, 0), source.height - 1)
            UInt8.toFixedPoint(source.row(y, scratch: scratch), pixels: source.width, channels: c, into: line + c * reach)
            pixels = reach..<(reach + source.width)
        } else {
            line = output(s - 1, j)
            pixels = 0..<width
        }
        stage.layout.extendEdges(line, pixels: pixels)
        stage.kernel.convolveRow(line, count: stage.layout.samples, channels: c, into: stage.slot(j))
    }
}
