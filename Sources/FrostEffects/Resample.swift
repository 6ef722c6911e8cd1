import FrostCore

/// The reduction and enlargement around a reduced-resolution blur (DESIGN.md §3).
///
/// The reduced grid carries `margin` extra blocks on every side, filled from the edge-extended
/// image, so blurring it sees exactly what an edge-extended full-resolution blur sees: a block
/// beside the picture holds copies of the border pixels, not an average reaching inwards.
enum Resample {
    /// The f×f box average of the edge-extended source: reduced pixel (i, j) covers source
    /// pixels [f·(i−m), f·(i−m)+f) × [f·(j−m), f·(j−m)+f), coordinates clamped to the image.
    static func boxReduce(_ src: Plane<UInt8>, factor f: Int, margin m: Int, threads: Int) -> FloatPlane {
        let rw = (src.width + f - 1) / f + 2 * m, rh = (src.height + f - 1) / f + 2 * m
        let out = FloatPlane(width: rw, height: rh)
        let dst = out.plane
        let scale = 1 / Float(f * f)
        let n = src.width * 4
        RowBands.run(rh, threads: threads) { rows in
            let sums = UnsafeMutablePointer<Float>.allocate(capacity: n + 16)
            defer { sums.deallocate() }
            for j in rows {
                // Column sums of the f source rows, 16 samples at a time.
                sums.initialize(repeating: 0, count: n)
                for dy in 0..<f {
                    let row = src.row(min(max((j - m) * f + dy, 0), src.height - 1))
                    var i = 0
                    while i + 16 <= n {
                        let v = Float.loadQuad(sums + i) + UInt8.loadQuad(row + i)
                        Float.storeQuad(v, sums + i)
                        i += 16
                    }
                    while i < n { sums[i] += Float(row[i]); i += 1 }
                }
                // Sums of f adjacent pixels of that row.
                let target = dst.row(j)
                for i in 0..<rw {
                    var acc = SIMD4<Float>(repeating: 0)
                    for dx in 0..<f { acc += Float.loadPixel(sums + 4 * min(max((i - m) * f + dx, 0), src.width - 1)) }
                    Float.storePixel(acc * scale, target + 4 * i)
                }
            }
        }
        return out
    }

    /// Bilinear enlargement of a reduced plane (with its margin) into `dst`: output pixel x
    /// samples the reduced grid at u = (x + ½)/f − ½ + m, pixel centers aligned; beyond the
    /// outermost centers the edge pixel repeats.
    static func bilinearEnlarge<S: PlaneSample>(_ src: Plane<S>, factor f: Int, margin m: Int, into dst: Plane<UInt8>, threads: Int) {
        // Per output column: left reduced index and weight, computed once.
        let columns = (0..<dst.width).map { x in position(x, factor: f, margin: m, limit: src.width) }
        RowBands.run(dst.height, threads: threads) { rows in
            let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: src.width)
            defer { line.deallocate() }
            for y in rows {
                let (j, t) = position(y, factor: f, margin: m, limit: src.height)
                let a = src.row(j), b = src.row(min(j + 1, src.height - 1))
                for i in 0..<src.width {
                    let p = S.loadPixel(a + 4 * i), q = S.loadPixel(b + 4 * i)
                    line[i] = p + (q - p) * t
                }
                let out = dst.row(y)
                let last = src.width - 1
                for (x, (i, s)) in columns.enumerated() {
                    let p = line[i]
                    UInt8.storePixel(p + (line[min(i + 1, last)] - p) * s, out + 4 * x)
                }
            }
        }
    }

    /// Reduced index i and weight t (of i + 1) for output coordinate x, clamped to the edges.
    static func position(_ x: Int, factor f: Int, margin m: Int, limit: Int) -> (Int, Float) {
        let u = (Double(x) + 0.5) / Double(f) - 0.5 + Double(m)
        if u <= 0 || limit == 1 { return (0, 0) }
        if u >= Double(limit - 1) { return (limit - 1, 0) }
        let i = Int(u.rounded(.down))
        return (i, Float(u - Double(i)))
    }
}
