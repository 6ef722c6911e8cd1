import FrostCore

/// A symmetric separable convolution (weights w₀…w_R, w₀ the center), edges extended, streamed:
/// each band of output rows keeps a ring of the horizontally filtered rows it needs, so the
/// source is read once, the destination written once, and no full-size intermediate exists.
///
/// Inside the kernel a row is planar: four channel rows of Float. Both passes then run on
/// contiguous 8-lane vectors with no shuffles; pixels are split into channels and packed back
/// with shifts and masks at the two ends (`PlaneSample.splitChannels` / `packChannels`).
///
/// The vertical pass makes `rowsPerSweep` output rows per sweep, 16 pixels at a time. Their
/// windows overlap, so each block of the ring comes from L2 once and is reused from L1; one
/// row per sweep over the whole width read all 2R+1 ring rows from L2 for every output row
/// (two thirds of the time at σ = 4, perf).
struct SeparableKernel {
    let weights: [Float]
    let threads: Int

    static let rowsPerSweep = 4

    var radius: Int { weights.count - 1 }

    func run<Source: RowSource, D: PlaneSample>(_ src: Source, _ dst: Plane<D>) {
        let w = src.width, h = src.height, r = radius
        let layout = RowLayout(width: w, radius: r)
        let sweep = Self.rowsPerSweep
        let slots = 2 * r + sweep
        RowBands.run(h, threads: threads, minimumBand: 16) { rows in
            // Cache-line aligned: every ring load of the vertical pass is then a whole-line load.
            let ringBytes = UnsafeMutableRawPointer.allocate(byteCount: 4 * slots * layout.rowFloats, alignment: 64)
            let ring = ringBytes.bindMemory(to: Float.self, capacity: slots * layout.rowFloats)
            let padded = UnsafeMutablePointer<Float>.allocate(capacity: 4 * layout.paddedStride)
            let taps = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: sweep * (2 * r + 1))
            let block = UnsafeMutablePointer<Float>.allocate(capacity: 64)
            let tail = UnsafeMutablePointer<D>.allocate(capacity: 64)
            let scratch = UnsafeMutablePointer<Source.Sample>.allocate(capacity: 4 * w)
            defer {
                ringBytes.deallocate(); padded.deallocate(); taps.deallocate(); block.deallocate(); tail.deallocate()
                scratch.deallocate()
            }
            weights.withUnsafeBufferPointer { wk in
                // Logical row L (may lie outside the image) lives in slot (L + offset) % slots.
                let offset = slots * (r + 2)
                @inline(__always) func slot(_ logical: Int) -> UnsafeMutablePointer<Float> {
                    ring + ((logical + offset) % slots) * layout.rowFloats
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
                    vertical(taps, rows: n, layout, into: dst, firstRow: y, block, tail, wk)
                    y += n
                }
            }
        }
    }

    /// Where the planar rows keep their samples.
    ///
    /// Row and channel distances are odd multiples of 64 bytes: at a power-of-two distance
    /// (4096 floats) every tap of a column block mapped to the same L1 sets, so the 100 lines a
    /// block needs at σ = 4 kept evicting each other (σ = 4 at 4096²: 672 → 350 ms with this).
    struct RowLayout {
        let width: Int
        let radius: Int
        /// Samples per channel row: whole 32-sample steps of the horizontal pass.
        var samples: Int { (width + 31) / 32 * 32 }
        /// Floats from one channel row of the ring to the next.
        var stride: Int { samples + 16 }
        /// Floats from one ring row to the next.
        var rowFloats: Int { 4 * stride + 16 }
        /// Floats per channel of the padded source row: R edge copies each side of `samples`.
        var paddedStride: Int { samples + 2 * radius }
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    /// One source row into one planar ring row: out[x] = w₀·p[x] + Σ_k w_k·(p[x−k] + p[x+k]) per
    /// channel, on a copy padded with R edge pixels each side.
    @inline(__always)
    private func horizontal<S: PlaneSample>(_ row: UnsafePointer<S>, _ layout: RowLayout, into out: UnsafeMutablePointer<Float>,
                                            _ padded: UnsafeMutablePointer<Float>, _ wk: UnsafeBufferPointer<Float>) {
        let r = radius, w = layout.width, ps = layout.paddedStride
        var x = 0
        while x + 8 <= w {
            S.splitChannels(row + 4 * x, into: padded + r + x, channelStride: ps)
            x += 8
        }
        while x < w {
            let v = S.loadPixel(row + 4 * x)
            for c in 0..<4 { padded[c * ps + r + x] = v[c] }
            x += 1
        }
        for c in 0..<4 {
            let line = padded + c * ps
            let first = line[r], last = line[r + w - 1]
            for k in 0..<r { line[k] = first }
            for k in (r + w)..<ps { line[k] = last }
            convolveRow(UnsafePointer(line + r), count: layout.samples, into: out + c * layout.stride, wk)
        }
    }

    /// out[i] = w₀·p[i] + Σ_k w_k·(p[i−k] + p[i+k]) for `count` (a multiple of 32) samples of one
    /// channel row. Not inlined: inside the generic callers the vectoriser split these 8-lane
    /// chains into 4-lane halves (perf annotate); on its own it stays one FMA per vector.
    @inline(never)
    private func convolveRow(_ p: UnsafePointer<Float>, count: Int, into target: UnsafeMutablePointer<Float>,
                             _ wk: UnsafeBufferPointer<Float>) {
        let r = radius, w0 = wk[0]
        var i = 0
        while i < count {
            let center = p + i
            var a0 = Self.load(center) * w0, a1 = Self.load(center + 8) * w0
            var a2 = Self.load(center + 16) * w0, a3 = Self.load(center + 24) * w0
            for k in 1...r {
                let weight = wk[k], left = center - k, right = center + k
                a0.addProduct(Self.load(left) + Self.load(right), weight)
                a1.addProduct(Self.load(left + 8) + Self.load(right + 8), weight)
                a2.addProduct(Self.load(left + 16) + Self.load(right + 16), weight)
                a3.addProduct(Self.load(left + 24) + Self.load(right + 24), weight)
            }
            Self.store(a0, target + i); Self.store(a1, target + i + 8)
            Self.store(a2, target + i + 16); Self.store(a3, target + i + 24)
            i += 32
        }
    }

    /// `n` output rows from the ring, 16 pixels at a time (`convolveColumn`), packed into `dst`.
    /// `taps` holds each output row's 2R+1 ring rows.
    @inline(__always)
    private func vertical<D: PlaneSample>(_ taps: UnsafeMutablePointer<UnsafePointer<Float>>, rows n: Int, _ layout: RowLayout,
                                          into dst: Plane<D>, firstRow y0: Int, _ block: UnsafeMutablePointer<Float>,
                                          _ tail: UnsafeMutablePointer<D>, _ wk: UnsafeBufferPointer<Float>) {
        let span = 2 * radius + 1, w = layout.width
        var x = 0
        while x < w {
            for o in 0..<n {
                convolveColumn(taps + o * span, at: x, stride: layout.stride, into: block, wk)
                let target = dst.row(y0 + o) + 4 * x
                if x + 16 <= w {
                    D.packChannels(block, channelStride: 16, into: target)
                    D.packChannels(block + 8, channelStride: 16, into: target + 32)
                } else {
                    // The last, partial block: pack into scratch, copy the pixels that exist.
                    D.packChannels(block, channelStride: 16, into: tail)
                    D.packChannels(block + 8, channelStride: 16, into: tail + 32)
                    target.update(from: tail, count: 4 * (w - x))
                }
            }
            x += 16
        }
    }

    /// One output block: out = w₀·row₀ + Σ_k w_k·(row₋ₖ + row₊ₖ) for 16 pixels × 4 channels at x,
    /// written planar to `block` (red of pixels 0…15, then green, blue, alpha). Not inlined, for the reason `convolveRow` is not.
    @inline(never)
    private func convolveColumn(_ t: UnsafePointer<UnsafePointer<Float>>, at x: Int, stride: Int,
                                into block: UnsafeMutablePointer<Float>, _ wk: UnsafeBufferPointer<Float>) {
        let r = radius, s1 = stride, s2 = 2 * stride, s3 = 3 * stride, w0 = wk[0]
        let center = t[r] + x
        var r0 = Self.load(center) * w0, r1 = Self.load(center + 8) * w0
        var g0 = Self.load(center + s1) * w0, g1 = Self.load(center + s1 + 8) * w0
        var b0 = Self.load(center + s2) * w0, b1 = Self.load(center + s2 + 8) * w0
        var a0 = Self.load(center + s3) * w0, a1 = Self.load(center + s3 + 8) * w0
        for k in 1...r {
            let weight = wk[k], up = t[r &- k] + x, down = t[r &+ k] + x
            r0.addProduct(Self.load(up) + Self.load(down), weight)
            r1.addProduct(Self.load(up + 8) + Self.load(down + 8), weight)
            g0.addProduct(Self.load(up + s1) + Self.load(down + s1), weight)
            g1.addProduct(Self.load(up + s1 + 8) + Self.load(down + s1 + 8), weight)
            b0.addProduct(Self.load(up + s2) + Self.load(down + s2), weight)
            b1.addProduct(Self.load(up + s2 + 8) + Self.load(down + s2 + 8), weight)
            a0.addProduct(Self.load(up + s3) + Self.load(down + s3), weight)
            a1.addProduct(Self.load(up + s3 + 8) + Self.load(down + s3 + 8), weight)
        }
        Self.store(r0, block); Self.store(r1, block + 8); Self.store(g0, block + 16); Self.store(g1, block + 24)
        Self.store(b0, block + 32); Self.store(b1, block + 40); Self.store(a0, block + 48); Self.store(a1, block + 56)
    }
}
