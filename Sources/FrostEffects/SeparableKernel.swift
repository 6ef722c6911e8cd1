import FrostCore

/// A symmetric separable convolution (weights w₀…w_R, w₀ the center), edges extended, streamed:
/// each band of output rows keeps a ring of the 2R+1 horizontally filtered rows it needs, so the
/// source is read once, the destination written once, and no full-size intermediate exists.
///
/// Both passes run along contiguous memory, 16 floats (4 RGBA pixels) per SIMD step:
/// horizontal over a padded copy of one row, vertical across the ring's rows.
struct SeparableKernel {
    let weights: [Float]
    let threads: Int

    var radius: Int { weights.count - 1 }

    func run<S: PlaneSample, D: PlaneSample>(_ src: Plane<S>, _ dst: Plane<D>) {
        let w = src.width, h = src.height, r = radius
        let stride = (w + 3) / 4 * 16            // floats per ring row, whole SIMD16 chunks
        let slots = 2 * r + 1
        RowBands.run(h, threads: threads, minimumBand: 16) { rows in
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: slots * stride)
            let padded = UnsafeMutablePointer<Float>.allocate(capacity: stride + 8 * r + 16)
            let taps = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: slots)
            defer { ring.deallocate(); padded.deallocate(); taps.deallocate() }
            weights.withUnsafeBufferPointer { wk in
                // Logical row L lives in slot (L + offset) % slots.
                let offset = slots * (r + 2)
                @inline(__always) func slot(_ logical: Int) -> UnsafeMutablePointer<Float> {
                    ring + ((logical + offset) % slots) * stride
                }
                for logical in (rows.lowerBound - r)..<(rows.lowerBound + r) {
                    horizontal(src.row(min(max(logical, 0), h - 1)), width: w, into: slot(logical), padded, wk)
                }
                for y in rows {
                    let entering = y + r
                    horizontal(src.row(min(entering, h - 1)), width: w, into: slot(entering), padded, wk)
                    for k in 0..<slots { taps[k] = slot(y - r + k) }
                    vertical(taps, width: w, into: dst.row(y), wk)
                }
            }
        }
    }

    /// One row: out[x] = w₀·p[x] + Σ_k w_k·(p[x−k] + p[x+k]), on a copy padded by r edge pixels.
    @inline(__always)
    private func horizontal<S: PlaneSample>(_ row: UnsafeMutablePointer<S>, width w: Int, into out: UnsafeMutablePointer<Float>,
                                            _ padded: UnsafeMutablePointer<Float>, _ wk: UnsafeBufferPointer<Float>) {
        let r = radius
        let p = padded + 4 * r                     // p[4x] is pixel x
        var x = 0
        while x + 4 <= w {
            Float.storeQuad(S.loadQuad(row + 4 * x), p + 4 * x)
            x += 4
        }
        while x < w {
            Float.storePixel(S.loadPixel(row + 4 * x), p + 4 * x)
            x += 1
        }
        let first = S.loadPixel(row), last = S.loadPixel(row + 4 * (w - 1))
        for k in 1...(r + 3) {
            if k <= r { Float.storePixel(first, p - 4 * k) }
            Float.storePixel(last, p + 4 * (w - 1 + k))
        }
        convolve(count: (w + 3) / 4, out, wk) { k, i in
            k == 0 ? Float.loadQuad(p + i) : Float.loadQuad(p + i - 4 * k) + Float.loadQuad(p + i + 4 * k)
        } store: { acc, target in Float.storeQuad(acc, target) }
    }

    /// Σ_k w_k · pair(k, i) for `count` chunks of 16 floats, four chunks per step: the four
    /// accumulators are independent FMA chains, so the loop runs at FMA throughput rather than
    /// waiting on one chain's latency. `pair(0, i)` is the center sample, `pair(k, i)` the sum of
    /// the two samples k apart.
    @inline(__always)
    private func convolve<T>(count: Int, _ out: UnsafeMutablePointer<T>, _ weights: UnsafeBufferPointer<Float>, _ pair: (Int, Int) -> SIMD16<Float>,
                             store: (SIMD16<Float>, UnsafeMutablePointer<T>) -> Void) {
        let r = radius
        var c = 0
        while c + 4 <= count {
            let i = 16 * c
            var a0 = pair(0, i) * weights[0], a1 = pair(0, i + 16) * weights[0]
            var a2 = pair(0, i + 32) * weights[0], a3 = pair(0, i + 48) * weights[0]
            for k in 1...r {
                let wk = weights[k]
                a0.addProduct(pair(k, i), wk)
                a1.addProduct(pair(k, i + 16), wk)
                a2.addProduct(pair(k, i + 32), wk)
                a3.addProduct(pair(k, i + 48), wk)
            }
            store(a0, out + i); store(a1, out + i + 16); store(a2, out + i + 32); store(a3, out + i + 48)
            c += 4
        }
        while c < count {
            let i = 16 * c
            var a = pair(0, i) * weights[0]
            for k in 1...r { a.addProduct(pair(k, i), weights[k]) }
            store(a, out + i)
            c += 1
        }
    }

    /// One output row from the ring: out = w₀·row₀ + Σ_k w_k·(row₋ₖ + row₊ₖ).
    @inline(__always)
    private func vertical<D: PlaneSample>(_ taps: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, width w: Int,
                                          into out: UnsafeMutablePointer<D>, _ wk: UnsafeBufferPointer<Float>) {
        let r = radius
        let center = taps[r]
        convolve(count: w / 4, out, wk) { k, i in
            k == 0 ? Float.loadQuad(center + i) : Float.loadQuad(taps[r - k] + i) + Float.loadQuad(taps[r + k] + i)
        } store: { acc, target in D.storeQuad(acc, target) }
        var i = w / 4 * 16
        while i < 4 * w {
            var acc = Float.loadPixel(center + i) * wk[0]
            for k in 1...r {
                acc.addProduct(Float.loadPixel(taps[r - k] + i) + Float.loadPixel(taps[r + k] + i), wk[k])
            }
            D.storePixel(acc, out + i)
            i += 4
        }
    }
}
