@_spi(Kernels) import FrostCore

extension Resample {
    /// `boxReduce` over rows of linear 8.7 samples (`LinearRows`): the same f×f box average of the
    /// edge-extended source on the same grid, into 8.7 (no further scaling). The f rows add up in
    /// 32-bit lanes, then each reduced pixel adds its f columns (clamped to the image) and is scaled
    /// by 1/f², rounded to nearest; sums stay exact in Float while f²·32640 < 2²⁴ (f ≤ 22), and
    /// round by less than a unit beyond.
    static func linearBoxReduce<Source: RowSource<UInt16>>(_ src: Source, factor f: Int, margin m: Int, threads: Int,
                                                           rows: Range<Int>? = nil) -> PlaneStorage<UInt16> {
        precondition(f >= 1 && m >= 0)
        let rw = reducedCount(src.width, factor: f, margin: m), rh = reducedCount(src.height, factor: f, margin: m)
        let out = PlaneStorage<UInt16>(width: rw, height: rh, rows: rows)
        let first = out.rows.lowerBound, dst = out.plane
        let scale = SIMD4<Float>(repeating: 1 / Float(f * f)), n = 4 * src.width
        RowBands.run(out.rows.count, threads: threads) { band in
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: n)
            let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: n)
            defer { sums.deallocate(); scratch.deallocate() }
            let pixels = UnsafeRawPointer(sums).assumingMemoryBound(to: SIMD4<UInt32>.self)
            for j in (band.lowerBound + first)..<(band.upperBound + first) {
                sums.initialize(repeating: 0, count: n)
                for dy in 0..<f {
                    let row = src.row(min(max((j - m) * f + dy, 0), src.height - 1), scratch: scratch)
                    for i in 0..<n { sums[i] &+= UInt32(row[i]) }
                }
                let target = dst.row(j)
                for i in 0..<rw {
                    var acc = SIMD4<UInt32>.zero
                    for dx in 0..<f { acc &+= pixels[min(max((i - m) * f + dx, 0), src.width - 1)] }
                    let v = (SIMD4<Float>(acc) * scale).rounded(.toNearestOrEven)
                    for c in 0..<4 { target[4 * i + c] = UInt16(v[c]) }
                }
            }
        }
        return out
    }
}
