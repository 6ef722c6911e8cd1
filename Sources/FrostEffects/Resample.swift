@_spi(Kernels) import FrostCore

/// The reduction and enlargement around a reduced-resolution blur (docs/design.md, Algorithms).
///
/// The reduced grid carries `margin` extra blocks on every side, filled from the edge-extended
/// image, so blurring it sees exactly what an edge-extended full-resolution blur sees: a block
/// beside the picture holds copies of the border pixels, not an average reaching inwards.
enum Resample {
    /// The f×f box average of the edge-extended source: reduced pixel (i, j) covers source
    /// pixels [f·(i−m), f·(i−m)+f) × [f·(j−m), f·(j−m)+f), coordinates clamped to the image.
    ///
    /// The f rows add up in integer lanes (`ColumnSum.slide`; 16-bit while f·255 fits, so a
    /// 4096-pixel row of sums is 32 KiB and stays in L1), then each reduced pixel inside the image
    /// adds its f columns of sums in 32-bit lanes, two pixels at a time, and is scaled once by
    /// 128/f² into the 8.7 fixed point the kernels read, rounded to nearest: exact sums while
    /// f ≤ 181 (below 2²³), and for f = 2, 4, 8 exact means (no rounding at all). Margin pixels,
    /// and every pixel of larger reductions (resizing far down), add their clamped columns in
    /// Float. The Float row of sums this replaced spilled to L2 and its per-pixel loop clamped
    /// every coordinate (together 18% of a σ = 20 blur, perf); the Float plane it wrote was twice
    /// the bytes and had to be converted to 8.7 by every kernel reading it.
    ///
    /// `rows` picks the reduced rows to make (all by default): a strip, which reads source rows
    /// f·(j − m) … f·(j − m) + f − 1 of each of its rows j. They go `into` a plane that holds
    /// them (a new one of just those rows by default): a whole reduction made strip by strip
    /// as its source is read (`ReducedLevels`).
    @discardableResult
    static func boxReduce<Source: RowSource<UInt8>>(_ src: Source, factor f: Int, margin m: Int, threads: Int,
                                                    rows: Range<Int>? = nil, into: PlaneStorage<UInt16>? = nil) -> PlaneStorage<UInt16> {
        precondition(f >= 1 && m >= 0)
        return f <= UInt16.columnSumWindow
            ? boxReduce(src, factor: f, margin: m, threads: threads, rows: rows, into: into, sums: UInt16.self)
            : boxReduce(src, factor: f, margin: m, threads: threads, rows: rows, into: into, sums: UInt32.self)
    }

    /// The reduced plane's height for an image `height` rows tall (`boxReduce`).
    static func reducedCount(_ count: Int, factor f: Int, margin m: Int) -> Int { (count + f - 1) / f + 2 * m }

    private static func boxReduce<Source: RowSource<UInt8>, Sum: ColumnSum>(_ src: Source, factor f: Int, margin m: Int, threads: Int,
                                                                           rows chosen: Range<Int>?, into: PlaneStorage<UInt16>?,
                                                                           sums _: Sum.Type) -> PlaneStorage<UInt16> {
        let rw = reducedCount(src.width, factor: f, margin: m), rh = reducedCount(src.height, factor: f, margin: m)
        let made = chosen ?? 0..<rh
        let out = into ?? PlaneStorage<UInt16>(width: rw, height: rh, rows: made)
        precondition(out.width == rw && out.height == rh && (made.isEmpty || out.rows.lowerBound <= made.lowerBound && made.upperBound <= out.rows.upperBound))
        let first = made.lowerBound
        let dst = out.plane
        let scale = 128 / Float(f * f)
        let n = src.width * 4
        let inside = f * f * 255 < 1 << 23 ? m..<(m + src.width / f) : m..<m
        RowBands.run(made.count, threads: threads) { band in
            let rows = (band.lowerBound + first)..<(band.upperBound + first)
            let sums = UnsafeMutablePointer<Sum>.allocate(capacity: n + 16)
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
            defer { sums.deallocate(); scratch.deallocate() }
            let pixels = UnsafeRawPointer(sums).assumingMemoryBound(to: SIMD4<Sum>.self)
            for j in rows {
                sums.initialize(repeating: 0, count: n)
                for dy in 0..<f {
                    let row = src.row(min(max((j - m) * f + dy, 0), src.height - 1), scratch: scratch)
                    Sum.slide(UnsafeMutableRawPointer(sums), adding: UnsafeRawPointer(row), subtracting: nil, count: n)
                }
                let target = dst.row(j)
                for i in 0..<rw where !inside.contains(i) {
                    var acc = SIMD4<Float>.zero
                    for dx in 0..<f { acc += SIMD4<Float>(Sum.pixel(pixels, min(max((i - m) * f + dx, 0), src.width - 1))) }
                    storePixel(acc * scale, target + 4 * i)
                }
                addColumns(pixels, factor: f, count: inside.count, scale: scale, into: target + 4 * inside.lowerBound)
            }
        }
        return out
    }

    /// Reduced pixel i = scale × (sum of column-sum pixels f·i … f·i + f − 1) rounded to nearest
    /// (2²³ trick), two at a time; the lane loop narrows with a pack (every word masked to 16 bits).
    @inline(never)
    private static func addColumns<Sum: ColumnSum>(_ sums: UnsafePointer<SIMD4<Sum>>, factor f: Int, count: Int, scale: Float,
                                                   into target: UnsafeMutablePointer<UInt16>) {
        @inline(__always) func sum(_ i: Int) -> SIMD4<UInt32> {
            var acc = Sum.pixel(sums, f &* i)
            for dx in 1..<f { acc &+= Sum.pixel(sums, f &* i &+ dx) }
            return acc
        }
        let scales = SIMD8<Float>(repeating: scale), magic = SIMD8<Float>(repeating: 8_388_608)
        var i = 0
        while i &+ 2 <= count {
            let scaled = LaneConversion.floats(SIMD8(lowHalf: sum(i), highHalf: sum(i &+ 1))) * scales + magic
            let words = unsafeBitCast(scaled, to: SIMD8<UInt32>.self) & 0xFFFF
            var halves = SIMD8<UInt16>()
            for lane in 0..<8 { halves[lane] = UInt16(truncatingIfNeeded: words[lane]) }
            UnsafeMutableRawPointer(target + 4 &* i).storeBytes(of: halves, as: SIMD8<UInt16>.self)
            i &+= 2
        }
        if i < count { storePixel(SIMD4<Float>(sum(i)) * scale, target + 4 &* i) }
    }

    /// One reduced pixel's scaled sums rounded to nearest into 8.7 (margins and the odd last pixel).
    @inline(__always)
    private static func storePixel(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt16>) {
        for c in 0..<4 { p[c] = UInt16(v[c].rounded(.toNearestOrEven)) }
    }

    /// Bilinear enlargement of a reduced plane (with its margin) into `dst`: output pixel x
    /// samples the reduced grid at u = (x + ½)/f − ½ + m, pixel centers aligned; beyond the
    /// outermost centers the edge pixel repeats. Only the output rows `outputRows` are made (all
    /// by default; `enlargedRows` says which reduced rows they read).
    static func bilinearEnlarge<S: FixedPointSource>(_ src: Plane<S>, factor f: Int, margin m: Int, into dst: Plane<UInt8>, threads: Int,
                                                     rows outputRows: Range<Int>? = nil) {
        let rows = EnlargedRows(src, factor: f, margin: m, width: dst.width)
        let made = outputRows ?? 0..<dst.height
        RowBands.run(made.count, threads: threads) { band in
            let scratch = rows.makeScratch()
            defer { scratch.deallocate() }
            for y in (band.lowerBound + made.lowerBound)..<(band.upperBound + made.lowerBound) {
                rows.row(y, scratch, into: EnlargedByteRow(out: dst.row(y)))
            }
        }
    }

    /// The reduced rows (of `limit`) that output rows `rows` of `bilinearEnlarge` read.
    static func enlargedRows(_ rows: Range<Int>, factor f: Int, margin m: Int, limit: Int) -> Range<Int> {
        let first = position(rows.lowerBound, factor: f, margin: m, limit: limit).0
        let last = position(rows.upperBound - 1, factor: f, margin: m, limit: limit).0
        return first..<min(last + 2, limit)
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
