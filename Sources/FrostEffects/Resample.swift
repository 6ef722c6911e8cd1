import FrostCore

/// The reduction and enlargement around a reduced-resolution blur (DESIGN.md §3).
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
    /// 1/f²: exact sums while f ≤ 181 (below 2²³). Margin pixels, and every pixel of larger
    /// reductions (resizing far down), add their clamped columns in Float. The Float row of sums
    /// this replaced spilled to L2 and its per-pixel loop clamped every coordinate (together 18%
    /// of a σ = 20 blur, perf).
    static func boxReduce<Source: RowSource<UInt8>>(_ src: Source, factor f: Int, margin m: Int, threads: Int) -> FloatPlane {
        precondition(f >= 1 && m >= 0)
        return f <= UInt16.columnSumWindow
            ? boxReduce(src, factor: f, margin: m, threads: threads, sums: UInt16.self)
            : boxReduce(src, factor: f, margin: m, threads: threads, sums: UInt32.self)
    }

    private static func boxReduce<Source: RowSource<UInt8>, Sum: ColumnSum>(_ src: Source, factor f: Int, margin m: Int, threads: Int,
                                                                           sums _: Sum.Type) -> FloatPlane {
        let rw = (src.width + f - 1) / f + 2 * m, rh = (src.height + f - 1) / f + 2 * m
        let out = FloatPlane(width: rw, height: rh)
        let dst = out.plane
        let scale = 1 / Float(f * f)
        let n = src.width * 4
        let inside = f * f * 255 < 1 << 23 ? m..<(m + src.width / f) : m..<m
        RowBands.run(rh, threads: threads) { rows in
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
                    Float.storePixel(acc * scale, target + 4 * i)
                }
                addColumns(pixels, factor: f, count: inside.count, scale: scale, into: target + 4 * inside.lowerBound)
            }
        }
        return out
    }

    /// Reduced pixel i = scale × (sum of column-sum pixels f·i … f·i + f − 1), two at a time.
    @inline(never)
    private static func addColumns<Sum: ColumnSum>(_ sums: UnsafePointer<SIMD4<Sum>>, factor f: Int, count: Int, scale: Float,
                                                   into target: UnsafeMutablePointer<Float>) {
        @inline(__always) func sum(_ i: Int) -> SIMD4<UInt32> {
            var acc = Sum.pixel(sums, f &* i)
            for dx in 1..<f { acc &+= Sum.pixel(sums, f &* i &+ dx) }
            return acc
        }
        let scales = SIMD8<Float>(repeating: scale)
        var i = 0
        while i &+ 2 <= count {
            let both = LaneConversion.floats(SIMD8(lowHalf: sum(i), highHalf: sum(i &+ 1)))
            UnsafeMutableRawPointer(target + 4 &* i).storeBytes(of: both * scales, as: SIMD8<Float>.self)
            i &+= 2
        }
        if i < count { Float.storePixel(SIMD4<Float>(sum(i)) * scale, target + 4 &* i) }
    }

    /// Bilinear enlargement of a reduced plane (with its margin) into `dst`: output pixel x
    /// samples the reduced grid at u = (x + ½)/f − ½ + m, pixel centers aligned; beyond the
    /// outermost centers the edge pixel repeats.
    static func bilinearEnlarge<S: PlaneSample>(_ src: Plane<S>, factor f: Int, margin m: Int, into dst: Plane<UInt8>, threads: Int) {
        let rows = EnlargedRows(src, factor: f, margin: m, width: dst.width)
        RowBands.run(dst.height, threads: threads) { band in
            let scratch = rows.makeScratch()
            defer { scratch.deallocate() }
            for y in band {
                rows.row(y, scratch, into: EnlargedByteRow(out: UnsafeMutableRawPointer(dst.row(y))))
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

/// Rows of a reduced plane enlarged bilinearly by f (see `Resample.bilinearEnlarge`), one at a
/// time as Float RGBA: the vertical lerp runs at the reduced width, the horizontal one as runs of
/// f outputs between two reduced centers with the fixed weights (k + ½)/f, one FMA per sample,
/// four outputs per step.
struct EnlargedRows<S: PlaneSample> {
    let src: Plane<S>
    let factor: Int
    let margin: Int
    let width: Int

    /// The weights of four consecutive outputs, each ×4 lanes: (t_k, t_k+1, t_k+2, t_k+3) for
    /// k = 0, 4, …, f − 4 with t_k = (k + ½)/f; for f = 2, (t_0, t_1) of two neighbouring intervals.
    let quadWeights: [SIMD16<Float>]

    init(_ src: Plane<S>, factor f: Int, margin m: Int, width: Int) {
        precondition(f == 1 || f % 2 == 0, "factor must be 1 or even")
        self.src = src
        self.factor = f
        self.margin = m
        self.width = width
        quadWeights = stride(from: 0, to: max(f, 4), by: 4).map { k in
            let t = (0..<4).map { (Float((k + $0) % f) + 0.5) / Float(f) }
            return SIMD16(lowHalf: SIMD8(lowHalf: SIMD4(repeating: t[0]), highHalf: SIMD4(repeating: t[1])),
                          highHalf: SIMD8(lowHalf: SIMD4(repeating: t[2]), highHalf: SIMD4(repeating: t[3])))
        }
    }

    /// Scratch for one band: the vertical lerp line and the output row.
    func makeScratch() -> UnsafeMutablePointer<Float> {
        .allocate(capacity: 4 * (src.width + width + 8))
    }

    /// Output row y as Float RGBA (valid until the next call with the same scratch).
    func row(_ y: Int, _ scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> {
        let out = scratch + 4 * (src.width + 4)
        row(y, scratch, into: EnlargedFloatRow(out: UnsafeMutableRawPointer(out)))
        return out
    }

    /// Output row y handed to `sink` as Float RGBA, every pixel once, left to right: Float rows
    /// for a blend, bytes straight into an image with no Float row in between. (A protocol, not
    /// closures: the closures stayed calls, one per two pixels.)
    @inline(__always)
    func row<Sink: EnlargedRowSink>(_ y: Int, _ scratch: UnsafeMutablePointer<Float>, into sink: Sink) {
        let line = scratch
        let (j, t) = Resample.position(y, factor: factor, margin: margin, limit: src.height)
        let a = src.row(j), b = src.row(min(j + 1, src.height - 1))
        var i = 0
        while i + 4 <= src.width {
            let p = S.loadQuad(a + 4 * i)
            Float.storeQuad(p + (S.loadQuad(b + 4 * i) - p) * t, line + 4 * i)
            i += 4
        }
        while i < src.width {
            let p = S.loadPixel(a + 4 * i)
            Float.storePixel(p + (S.loadPixel(b + 4 * i) - p) * t, line + 4 * i)
            i += 1
        }
        guard factor > 1 else {
            var x = 0
            while x + 4 <= width {
                sink.quad(Float.loadQuad(line + 4 * (margin + x)), x)
                x += 4
            }
            while x < width { sink.pixel(Float.loadPixel(line + 4 * (margin + x)), x); x += 1 }
            return
        }
        // Interval i (between reduced centers i and i+1) covers outputs x = f·(i − m) + f/2 + k,
        // k = 0…f−1, at weight (k + ½)/f. Output 0 lies in interval m − 1 at k = f/2; without a
        // margin that interval does not exist and the edge pixel repeats instead.
        let f = factor
        var x = 0, interval = margin - 1
        if interval < 0 {
            let first = Float.loadPixel(line)
            while x < min(f / 2, width) { sink.pixel(first, x); x += 1 }
            interval = 0
        } else {
            x = pixels(line, interval, from: f / 2, x: x, into: sink)
            interval += 1
        }
        // Whole intervals, four outputs per step: f/4 steps per interval, or two intervals per
        // step at f = 2.
        let intervals = max(1, 4 / f), steps = max(1, f / 4)
        quadWeights.withUnsafeBufferPointer { weights in
            while x &+ 4 &* steps <= width && interval &+ intervals < src.width {
                let p0 = Float.loadPixel(line + 4 &* interval), p1 = Float.loadPixel(line + 4 &* (interval &+ 1))
                let p: SIMD16<Float>, d: SIMD16<Float>
                if f == 2 {
                    let p2 = Float.loadPixel(line + 4 &* (interval &+ 2))
                    p = SIMD16(lowHalf: SIMD8(lowHalf: p0, highHalf: p0), highHalf: SIMD8(lowHalf: p1, highHalf: p1))
                    d = SIMD16(lowHalf: SIMD8(lowHalf: p1 - p0, highHalf: p1 - p0), highHalf: SIMD8(lowHalf: p2 - p1, highHalf: p2 - p1))
                } else {
                    let d0 = p1 - p0
                    p = SIMD16(lowHalf: SIMD8(lowHalf: p0, highHalf: p0), highHalf: SIMD8(lowHalf: p0, highHalf: p0))
                    d = SIMD16(lowHalf: SIMD8(lowHalf: d0, highHalf: d0), highHalf: SIMD8(lowHalf: d0, highHalf: d0))
                }
                var step = 0
                while step < steps {
                    sink.quad(p + d * weights[step], x)
                    x &+= 4
                    step &+= 1
                }
                interval &+= intervals
            }
        }
        while x < width && interval + 1 < src.width {
            x = pixels(line, interval, from: 0, x: x, into: sink)
            interval += 1
        }
        let last = Float.loadPixel(line + 4 * (src.width - 1))
        while x < width { sink.pixel(last, x); x += 1 }
    }

    /// Outputs k…f − 1 of one interval (those left of `width`), one at a time; returns the next x.
    @inline(__always)
    private func pixels<Sink: EnlargedRowSink>(_ line: UnsafeMutablePointer<Float>, _ interval: Int, from k: Int, x start: Int,
                                               into sink: Sink) -> Int {
        let p = Float.loadPixel(line + 4 * interval)
        let d = Float.loadPixel(line + 4 * (interval + 1)) - p
        var x = start
        for k in k..<factor where x < width {
            sink.pixel(p + d * ((Float(k) + 0.5) / Float(factor)), x)
            x += 1
        }
        return x
    }
}

/// Where `EnlargedRows.row` puts its pixels: `quad` gets pixels x…x + 3, `pixel` pixel x.
protocol EnlargedRowSink {
    func quad(_ v: SIMD16<Float>, _ x: Int)
    func pixel(_ v: SIMD4<Float>, _ x: Int)
}

/// Float RGBA samples.
struct EnlargedFloatRow: EnlargedRowSink {
    let out: UnsafeMutableRawPointer
    @inline(__always) func quad(_ v: SIMD16<Float>, _ x: Int) { out.storeBytes(of: v, toByteOffset: 16 * x, as: SIMD16<Float>.self) }
    @inline(__always) func pixel(_ v: SIMD4<Float>, _ x: Int) { out.storeBytes(of: v, toByteOffset: 16 * x, as: SIMD4<Float>.self) }
}

/// RGBA bytes, clamped and rounded (LaneConversion).
struct EnlargedByteRow: EnlargedRowSink {
    let out: UnsafeMutableRawPointer
    @inline(__always) func quad(_ v: SIMD16<Float>, _ x: Int) {
        out.storeBytes(of: LaneConversion.bytes(v), toByteOffset: 4 * x, as: SIMD16<UInt8>.self)
    }
    @inline(__always) func pixel(_ v: SIMD4<Float>, _ x: Int) {
        out.storeBytes(of: LaneConversion.bytes(v), toByteOffset: 4 * x, as: SIMD4<UInt8>.self)
    }
}
