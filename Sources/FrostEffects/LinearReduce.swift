@_spi(Kernels) import FrostCore

extension Resample {
    /// `boxReduce` over sRGB rows in linear light (`LinearRows`): the same f×f box average of the
    /// edge-extended source on the same grid, into linear 8.7. The f rows are decoded straight into
    /// 32-bit sums (`frost_linear_decode_add`: no row of linear samples is stored and re-read), then
    /// each reduced pixel adds its f columns (clamped to the image only in the margins and the last
    /// partial block) and is scaled by 1/f², rounded to nearest; sums stay exact in Float while
    /// f²·32640 < 2²⁴ (f ≤ 22), and round by less than a unit beyond.
    static func linearBoxReduce<Bytes: HeldRows>(_ src: LinearRows<Bytes>, factor f: Int, margin m: Int, threads: Int,
                                                 rows: Range<Int>? = nil) -> PlaneStorage<UInt16> {
        precondition(f >= 1 && m >= 0)
        let width = src.width, height = src.height
        let rw = reducedCount(width, factor: f, margin: m), rh = reducedCount(height, factor: f, margin: m)
        let out = PlaneStorage<UInt16>(width: rw, height: rh, rows: rows)
        let first = out.rows.lowerBound, dst = out.plane
        let scale = SIMD4<Float>(repeating: 1 / Float(f * f)), magic = SIMD4<Float>(repeating: 8_388_608), n = 4 * width
        let inside = m..<(m + width / f)
        RowBands.run(out.rows.count, threads: threads) { band in
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
            defer { sums.deallocate() }
            let pixels = UnsafeRawPointer(sums).assumingMemoryBound(to: SIMD4<UInt32>.self)
            // Rounded to nearest by the 2²³ trick (the sum's low bits are the rounded value).
            @inline(__always) func store(_ acc: SIMD4<UInt32>, _ target: UnsafeMutablePointer<UInt16>) {
                let words = unsafeBitCast(SIMD4<Float>(acc) * scale + magic, to: SIMD4<UInt32>.self)
                for c in 0..<4 { target[c] = UInt16(truncatingIfNeeded: words[c]) }
            }
            for j in (band.lowerBound + first)..<(band.upperBound + first) {
                sums.initialize(repeating: 0, count: n)
                for dy in 0..<f { src.add(min(max((j - m) * f + dy, 0), height - 1), into: sums) }
                let target = dst.row(j)
                for i in 0..<rw where !inside.contains(i) {
                    var acc = SIMD4<UInt32>.zero
                    for dx in 0..<f { acc &+= pixels[min(max((i - m) * f + dx, 0), width - 1)] }
                    store(acc, target + 4 * i)
                }
                for i in inside {
                    let block = pixels + (i - m) * f
                    var acc = block[0]
                    for dx in 1..<f { acc &+= block[dx] }
                    store(acc, target + 4 * i)
                }
            }
        }
        return out
    }
}
