import FrostCore

/// Which axes a separable filter runs along.
public enum BlurAxes: String, Sendable, CaseIterable {
    case horizontal, vertical, both
}

extension Image {
    /// The mean of the (2r+1)-wide window around every pixel, rounded to nearest (halves up),
    /// edges extended: exactly what a naive double loop computes. Over `.both` axes the window is
    /// the (2r+1)² square and only the final mean is rounded.
    ///
    /// Running sums make the cost per pixel independent of r. Works in premultiplied space; the
    /// result is premultiplied. `radius` is limited to 1000 so that sums stay below 2³¹.
    public func boxBlurred(radius: Int, axes: BlurAxes = .both, threads: Int? = nil) -> Image {
        precondition((0...BoxBlur.maximumRadius).contains(radius), "box radius must be in 0...\(BoxBlur.maximumRadius)")
        guard radius > 0, width > 0, height > 0 else { return premultiplied() }
        let blur = BoxBlur(width: width, height: height, radius: radius, axes: axes)
        let threads = RowBands.threads(threads)
        var out = self
        out.isPremultiplied = true
        out.pixels = [UInt8](unsafeUninitializedCapacity: pixels.count) { target, count in
            let output = target.baseAddress!
            withPlane { src in
                readsStraightAlpha ? blur.run(StraightAlphaRows(plane: src), output, threads: threads)
                    : blur.run(src, output, threads: threads)
            }
            count = pixels.count
        }
        return out
    }
}

/// The running-sum box filter behind `boxBlurred`. Each thread streams over a band of output
/// rows keeping one row of vertical sums V (per pixel and channel, the sum of the 2r+1 source
/// pixels above and below): moving down a row adds the entering source row and subtracts the
/// leaving one, both read straight from the image. A horizontal running sum over V then gives
/// the window sums. No ring of intermediate rows: the previous design kept 2r+2 rows of
/// horizontal sums (5 MiB at r = 40, beyond L2), and the leaving row came from L3 (perf).
struct BoxBlur {
    static let maximumRadius = 1000

    let width: Int
    let height: Int
    let radius: Int
    let axes: BlurAxes

    var samplesPerRow: Int { width * 4 }
    var window: Int { 2 * radius + 1 }

    func run<Source: RowSource<UInt8>>(_ input: Source, _ output: UnsafeMutablePointer<UInt8>, threads: Int) {
        RowBands.run(height, threads: threads) { rows in
            switch axes {
            case .horizontal: horizontalOnly(input, output, rows)
            case .vertical, .both: streamVertical(input, output, rows)
            }
        }
    }

    /// Edge-extended rows of sums: pixel x at `pad + x`, r+1 copies of the edge pixels each side.
    private var pad: Int { radius + 1 }
    private var paddedCount: Int { width + 2 * pad }

    /// Rows blurred along x only: h / w, rounded.
    private func horizontalOnly<Source: RowSource<UInt8>>(_ input: Source, _ output: UnsafeMutablePointer<UInt8>, _ rows: Range<Int>) {
        let padded = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: paddedCount)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: samplesPerRow + 8)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: samplesPerRow)
        defer { padded.deallocate(); sums.deallocate(); scratch.deallocate() }
        let rounding = MeanRounding(divisor: window)
        for y in rows {
            let row = UnsafeRawPointer(input.row(y, scratch: scratch))
            for x in 0..<width { padded[pad + x] = Self.pixel(row, x) }
            extendEdges(padded)
            horizontalSums(padded, into: sums)
            rounding.means(sums, count: samplesPerRow, into: output + y * samplesPerRow)
        }
    }

    /// V slides down the band; over both axes each row of V is then summed along x.
    /// A source that makes its rows (premultiplying straight alpha) makes each one once, into a
    /// ring of the 2r + 2 rows the window spans, where the leaving row is found again: making it a
    /// second time cost more than the separate premultiplying pass it replaces (r = 40, perf).
    private func streamVertical<Source: RowSource<UInt8>>(_ input: Source, _ output: UnsafeMutablePointer<UInt8>, _ rows: Range<Int>) {
        let n = samplesPerRow
        let columns = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: paddedCount)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: n + 8)
        let kept = Source.makesRows ? window + 1 : 1
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: kept * n)
        defer { columns.deallocate(); sums.deallocate(); ring.deallocate() }
        let rounding = MeanRounding(divisor: axes == .both ? window * window : window)
        let v = columns + pad
        // Logical row L (may lie outside the image) is made into slot (L + offset) % kept.
        let offset = kept * (radius + 2)
        @inline(__always) func entering(_ logical: Int) -> UnsafeRawPointer {
            UnsafeRawPointer(input.row(min(max(logical, 0), height - 1), scratch: ring + (logical + offset) % kept * n))
        }
        @inline(__always) func leaving(_ logical: Int) -> UnsafeRawPointer {
            Source.makesRows ? UnsafeRawPointer(ring + (logical + offset) % kept * n)
                : UnsafeRawPointer(input.row(min(max(logical, 0), height - 1), scratch: ring))
        }

        v.update(repeating: .zero, count: width)
        for k in -radius...radius { slide(v, adding: entering(rows.lowerBound + k), subtracting: nil) }
        for y in rows {
            if y > rows.lowerBound { slide(v, adding: entering(y + radius), subtracting: leaving(y - radius - 1)) }
            if axes == .both {
                extendEdges(columns)
                horizontalSums(columns, into: sums)
                rounding.means(sums, count: n, into: output + y * n)
            } else {
                v.withMemoryRebound(to: UInt32.self, capacity: n) { rounding.means($0, count: n, into: output + y * n) }
            }
        }
    }

    /// v += entering − leaving (or v += entering), eight samples (two pixels) per step.
    @inline(__always)
    private func slide(_ v: UnsafeMutablePointer<SIMD4<UInt32>>, adding entering: UnsafeRawPointer, subtracting leaving: UnsafeRawPointer?) {
        let sums = UnsafeMutableRawPointer(v), n = samplesPerRow
        var i = 0
        if let leaving {
            while i + 8 <= n {
                let s = sums.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<UInt32>.self)
                let add = LaneConversion.widened(entering.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
                let sub = LaneConversion.widened(leaving.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
                sums.storeBytes(of: s &+ add &- sub, toByteOffset: 4 &* i, as: SIMD8<UInt32>.self)
                i &+= 8
            }
        } else {
            while i + 8 <= n {
                let s = sums.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<UInt32>.self)
                let add = LaneConversion.widened(entering.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
                sums.storeBytes(of: s &+ add, toByteOffset: 4 &* i, as: SIMD8<UInt32>.self)
                i &+= 8
            }
        }
        if i < n {   // an odd width: the last pixel
            let x = i / 4
            v[x] = v[x] &+ Self.pixel(entering, x) &- (leaving.map { Self.pixel($0, x) } ?? .zero)
        }
    }

    /// One RGBA pixel widened to 32-bit lanes (a single vpmovzxbd).
    @inline(__always)
    private static func pixel(_ row: UnsafeRawPointer, _ x: Int) -> SIMD4<UInt32> {
        SIMD4<UInt32>(truncatingIfNeeded: row.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD4<UInt8>.self))
    }

    /// Copies the first and last pixel into the r+1 slots beside them.
    @inline(__always)
    private func extendEdges(_ padded: UnsafeMutablePointer<SIMD4<UInt32>>) {
        let first = padded[pad], last = padded[pad + width - 1]
        for i in 0..<pad {
            padded[i] = first
            padded[pad + width + i] = last
        }
    }

    /// h[x] = Σ_{k=−r…r} p[clamp(x+k)] per channel, over an edge-extended row.
    @inline(__always)
    private func horizontalSums(_ padded: UnsafeMutablePointer<SIMD4<UInt32>>, into sums: UnsafeMutablePointer<UInt32>) {
        let p = padded + pad                       // p[x] is pixel x
        var sum = SIMD4<UInt32>(repeating: 0)
        for k in -radius...radius { sum &+= p[k] }
        let out = UnsafeMutableRawPointer(sums)
        for x in 0..<width {
            out.storeBytes(of: sum, toByteOffset: 16 &* x, as: SIMD4<UInt32>.self)
            sum &+= p[x &+ radius &+ 1] &- p[x &- radius]
        }
    }

    /// How window sums over an odd count d become rounded means: one float multiply-add per
    /// sample up to d = 32767 (r ≤ 90 over both axes), exact integer division beyond.
    private enum MeanRounding {
        case reciprocal(ReciprocalRounding)
        /// ⌊(2s + d) / 2d⌋.
        case division(ExactDivision, UInt32)

        init(divisor d: Int) {
            self = ReciprocalRounding(divisor: d).map { .reciprocal($0) } ?? .division(ExactDivision(divisor: UInt64(2 * d)), UInt32(d))
        }

        @inline(__always)
        func means(_ sums: UnsafePointer<UInt32>, count n: Int, into out: UnsafeMutablePointer<UInt8>) {
            var i = 0
            let s = UnsafeRawPointer(sums), o = UnsafeMutableRawPointer(out)
            switch self {
            case .reciprocal(let rounding):
                while i + 16 <= n {
                    o.storeBytes(of: rounding.means(s.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD16<UInt32>.self)),
                                 toByteOffset: i, as: SIMD16<UInt8>.self)
                    i &+= 16
                }
                while i < n { out[i] = rounding.mean(sums[i]); i += 1 }
            case .division(let divide, let d):
                while i + 8 <= n {
                    let q = divide.divide(s.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD8<UInt32>.self) &* 2 &+ d)
                    o.storeBytes(of: LaneConversion.narrowed(q), toByteOffset: i, as: SIMD8<UInt8>.self)
                    i &+= 8
                }
                while i < n { out[i] = UInt8(truncatingIfNeeded: divide.divide(sums[i] &* 2 &+ d)); i += 1 }
            }
        }
    }
}
