import CFrostSystem
import FrostCore

/// Rows of a reduced plane enlarged bilinearly by f (see `Resample.bilinearEnlarge`), one at a
/// time, in the 8.7 fixed point of `FixedPointKernel`: the vertical lerp runs at the reduced
/// width, the horizontal one as runs of f outputs between two reduced centers with the fixed
/// weights t_k = (k + ½)/f, four outputs (16 lanes) per step.
///
/// A lerp is ⌊a·(1 − t)⌋ + ⌊b·t⌋ + 1 with t in 0.16 fixed point: two high-half products (pmulhuw)
/// and two adds for sixteen samples, where the Float rows it replaced spent one FMA per eight and
/// a clamped conversion per output (the enlargement was a third of a 4096² σ = 20 blur). Every
/// weight of f a power of two is an odd multiple of 1/(2f), exact in 0.16, so each lerp is within
/// one 1/128 of a level of its exact value (the +1 centres the two truncations), two lerps within
/// two. Inputs are bytes (cache levels, ×128) or 8.7 planes (blurs at reduced size, at most
/// 32 640 + 25), so a lerp stays below 32 700 and rounds to at most 255.
struct EnlargedRows<S: FixedPointSource> {
    let src: Plane<S>
    let factor: Int
    let margin: Int
    let width: Int

    /// The weights (1 − t, t) of four consecutive outputs, each over its pixel's four lanes:
    /// t_k … t_k+3 for k = 0, 4, …, f − 4; for f = 2, (t_0, t_1) of two neighbouring intervals.
    let quadWeights: [(SIMD16<UInt16>, SIMD16<UInt16>)]

    init(_ src: Plane<S>, factor f: Int, margin m: Int, width: Int) {
        precondition(f >= 1 && f <= 1 << 15 && f & (f - 1) == 0, "factor must be a power of two")
        self.src = src
        self.factor = f
        self.margin = m
        self.width = width
        quadWeights = stride(from: 0, to: max(f, 4), by: 4).map { k in
            var a = SIMD16<UInt16>(), b = SIMD16<UInt16>()
            for lane in 0..<16 {
                let t = Self.weight(k: (k + lane / 4) % f, factor: f)
                (a[lane], b[lane]) = (UInt16(65_536 - t), UInt16(t))
            }
            return (a, b)
        }
    }

    /// t_k = (k + ½)/f in 0.16: (2k + 1)·2¹⁵/f.
    static func weight(k: Int, factor f: Int) -> Int { (2 * k + 1) * (1 << 15) / f }

    /// Scratch for one band: the vertical lerp line and an output row, 8.7.
    func makeScratch() -> UnsafeMutablePointer<UInt16> {
        .allocate(capacity: 4 * (src.width + width) + 32)
    }

    /// Output row y in 8.7 (valid until the next call with the same scratch).
    func row(_ y: Int, _ scratch: UnsafeMutablePointer<UInt16>) -> UnsafeMutablePointer<UInt16> {
        let out = scratch + 4 * src.width + 16
        row(y, scratch, into: EnlargedFixedPointRow(out: out))
        return out
    }

    /// Output row y handed to `sink` in 8.7, every pixel once, left to right: 8.7 rows for a
    /// blend, bytes straight into an image. (A protocol, not closures: closures stayed calls.)
    @inline(__always)
    func row<Sink: EnlargedRowSink>(_ y: Int, _ scratch: UnsafeMutablePointer<UInt16>, into sink: Sink) {
        let line = scratch
        verticalLerp(y, into: line)
        guard factor > 1 else {
            var x = 0
            while x + 4 <= width {
                sink.quad(Self.load(line + 4 * (margin + x)), x)
                x += 4
            }
            while x < width { sink.pixel(Self.pixel(line, margin + x), x); x += 1 }
            return
        }
        // Interval i (between reduced centers i and i+1) covers outputs x = f·(i − m) + f/2 + k,
        // k = 0…f−1, at weight t_k. Output 0 lies in interval m − 1 at k = f/2; without a margin
        // that interval does not exist and the edge pixel repeats instead.
        let f = factor
        var x = 0, interval = margin - 1
        if interval < 0 {
            let first = Self.pixel(line, 0)
            while x < min(f / 2, width) { sink.pixel(first, x); x += 1 }
            interval = 0
        } else {
            x = pixels(line, interval, from: f / 2, x: x, into: sink)
            interval += 1
        }
        // Whole intervals, four outputs per step: two intervals per step at f = 2, one at f = 4,
        // f/4 steps per interval above. Separate loops: with the tests on f inside, LLVM kept them
        // there and built the vectors from scalar loads and inserts (σ = 20 is f = 4).
        quadWeights.withUnsafeBufferPointer { weights in
            if f == 2 {
                let (wa, wb) = weights[0]
                while x &+ 4 <= width && interval &+ 2 < src.width {
                    let p0 = Self.pixel(line, interval), p1 = Self.pixel(line, interval &+ 1), p2 = Self.pixel(line, interval &+ 2)
                    let p = SIMD16(lowHalf: SIMD8(lowHalf: p0, highHalf: p0), highHalf: SIMD8(lowHalf: p1, highHalf: p1))
                    let q = SIMD16(lowHalf: SIMD8(lowHalf: p1, highHalf: p1), highHalf: SIMD8(lowHalf: p2, highHalf: p2))
                    sink.quad(Self.lerp(p, q, wa, wb), x)
                    x &+= 4
                    interval &+= 2
                }
            } else if f == 4 {
                let (wa, wb) = weights[0]
                while x &+ 4 <= width && interval &+ 1 < src.width {
                    sink.quad(Self.lerp(Self.broadcastPixel(line, interval), Self.broadcastPixel(line, interval &+ 1), wa, wb), x)
                    x &+= 4
                    interval &+= 1
                }
            } else {
                let steps = f / 4
                while x &+ f <= width && interval &+ 1 < src.width {
                    let p = Self.broadcastPixel(line, interval), q = Self.broadcastPixel(line, interval &+ 1)
                    var step = 0
                    while step < steps {
                        sink.quad(Self.lerp(p, q, weights[step].0, weights[step].1), x)
                        x &+= 4
                        step &+= 1
                    }
                    interval &+= 1
                }
            }
        }
        while x < width && interval + 1 < src.width {
            x = pixels(line, interval, from: 0, x: x, into: sink)
            interval += 1
        }
        let last = Self.pixel(line, src.width - 1)
        while x < width { sink.pixel(last, x); x += 1 }
    }

    /// Reduced rows j and j + 1 lerped by the row's t into `line` (8.7), or row j alone at t = 0.
    @inline(__always)
    private func verticalLerp(_ y: Int, into line: UnsafeMutablePointer<UInt16>) {
        let (j, t) = Resample.position(y, factor: factor, margin: margin, limit: src.height)
        let a = src.row(j), b = src.row(min(j + 1, src.height - 1)), n = 4 * src.width
        let weight = Int(t * 65_536)
        let (wa, wb) = (UInt16(truncatingIfNeeded: 65_536 - weight), UInt16(weight))
        var i = 0
        while i + 16 <= n {
            let v = weight == 0 ? S.fixedPoint(a + i)
                : Self.lerp(S.fixedPoint(a + i), S.fixedPoint(b + i), SIMD16(repeating: wa), SIMD16(repeating: wb))
            UnsafeMutableRawPointer(line + i).storeBytes(of: v, as: SIMD16<UInt16>.self)
            i += 16
        }
        while i < n {
            let p = S.fixedPoint(sample: a[i])
            line[i] = weight == 0 ? p : Self.lerp(p, S.fixedPoint(sample: b[i]), wa, wb)
            i += 1
        }
    }

    /// Outputs k…f − 1 of one interval (those left of `width`), one at a time; returns the next x.
    @inline(__always)
    private func pixels<Sink: EnlargedRowSink>(_ line: UnsafeMutablePointer<UInt16>, _ interval: Int, from k: Int, x start: Int,
                                               into sink: Sink) -> Int {
        let p = Self.pixel(line, interval), q = Self.pixel(line, interval + 1)
        var x = start
        for k in k..<factor where x < width {
            let t = Self.weight(k: k, factor: factor)
            let wa = UInt16(65_536 - t), wb = UInt16(t)
            sink.pixel(SIMD4(Self.lerp(p[0], q[0], wa, wb), Self.lerp(p[1], q[1], wa, wb),
                             Self.lerp(p[2], q[2], wa, wb), Self.lerp(p[3], q[3], wa, wb)), x)
            x += 1
        }
        return x
    }

    /// ⌊a·wa / 2¹⁶⌋ + ⌊b·wb / 2¹⁶⌋ + 1, sixteen lanes.
    @inline(__always)
    static func lerp(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>, _ wa: SIMD16<UInt16>, _ wb: SIMD16<UInt16>) -> SIMD16<UInt16> {
        frost_high_products(a, wa) &+ frost_high_products(b, wb) &+ 1
    }

    /// The same for one sample.
    @inline(__always)
    static func lerp(_ a: UInt16, _ b: UInt16, _ wa: UInt16, _ wb: UInt16) -> UInt16 {
        UInt16(truncatingIfNeeded: (UInt32(a) * UInt32(wa)) >> 16 + (UInt32(b) * UInt32(wb)) >> 16 + 1)
    }

    @inline(__always)
    private static func load(_ p: UnsafePointer<UInt16>) -> SIMD16<UInt16> { UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self) }

    /// Pixel i four times over (one vpbroadcastq from memory).
    @inline(__always)
    private static func broadcastPixel(_ line: UnsafePointer<UInt16>, _ i: Int) -> SIMD16<UInt16> {
        let bits = UnsafeRawPointer(line + 4 &* i).loadUnaligned(as: UInt64.self)
        return unsafeBitCast(SIMD4<UInt64>(repeating: bits), to: SIMD16<UInt16>.self)
    }

    @inline(__always)
    private static func pixel(_ line: UnsafePointer<UInt16>, _ i: Int) -> SIMD4<UInt16> {
        UnsafeRawPointer(line + 4 &* i).loadUnaligned(as: SIMD4<UInt16>.self)
    }
}

/// Where `EnlargedRows.row` puts its pixels (8.7): `quad` gets pixels x…x + 3, `pixel` pixel x.
protocol EnlargedRowSink {
    func quad(_ v: SIMD16<UInt16>, _ x: Int)
    func pixel(_ v: SIMD4<UInt16>, _ x: Int)
}

/// 8.7 samples as they are.
struct EnlargedFixedPointRow: EnlargedRowSink {
    let out: UnsafeMutablePointer<UInt16>
    @inline(__always) func quad(_ v: SIMD16<UInt16>, _ x: Int) {
        UnsafeMutableRawPointer(out + 4 &* x).storeBytes(of: v, as: SIMD16<UInt16>.self)
    }
    @inline(__always) func pixel(_ v: SIMD4<UInt16>, _ x: Int) {
        UnsafeMutableRawPointer(out + 4 &* x).storeBytes(of: v, as: SIMD4<UInt16>.self)
    }
}

/// RGBA bytes, rounded: (v + 64) >> 7.
struct EnlargedByteRow: EnlargedRowSink {
    let out: UnsafeMutablePointer<UInt8>
    @inline(__always) func quad(_ v: SIMD16<UInt16>, _ x: Int) { UInt8.store(fixedPoint: v, out + 4 &* x) }
    @inline(__always) func pixel(_ v: SIMD4<UInt16>, _ x: Int) {
        for c in 0..<4 { out[4 &* x &+ c] = UInt8.sample(fixedPoint: v[c]) }
    }
}

/// RGBA bytes of (1 − t)·other + t·v, t = weight / 2¹⁶ (0 < weight < 2¹⁶), rounded once: a crossfade
/// frame's second enlargement blended into the first as it is made (no row of it written and read).
struct EnlargedBlendedRow: EnlargedRowSink {
    let other: UnsafePointer<UInt16>
    let keep: SIMD16<UInt16>
    let take: SIMD16<UInt16>
    let out: UnsafeMutablePointer<UInt8>

    init(other: UnsafePointer<UInt16>, weight: UInt16, out: UnsafeMutablePointer<UInt8>) {
        self.other = other
        keep = SIMD16(repeating: 0 &- weight)      // 2¹⁶ − weight
        take = SIMD16(repeating: weight)
        self.out = out
    }

    @inline(__always) func quad(_ v: SIMD16<UInt16>, _ x: Int) {
        let p = UnsafeRawPointer(other + 4 &* x).loadUnaligned(as: SIMD16<UInt16>.self)
        UInt8.store(fixedPoint: EnlargedRows<UInt8>.lerp(p, v, keep, take), out + 4 &* x)
    }
    @inline(__always) func pixel(_ v: SIMD4<UInt16>, _ x: Int) {
        for c in 0..<4 {
            out[4 &* x &+ c] = UInt8.sample(fixedPoint: EnlargedRows<UInt8>.lerp(other[4 &* x &+ c], v[c], keep[0], take[0]))
        }
    }
}
