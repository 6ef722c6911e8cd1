import CFrostSystem
@_spi(Kernels) import FrostCore

/// Which axes a separable filter runs along.
public enum BlurAxes: String, Sendable, CaseIterable {
    /// Along rows only.
    case horizontal
    /// Along columns only.
    case vertical
    /// Rows, then columns.
    case both
}

extension Image {
    /// The mean of the (2r+1)-wide window around every pixel, rounded to nearest (halves up),
    /// edges extended: exactly what a naive double loop computes. Over `.both` axes the window is
    /// the (2r+1)² square and only the final mean is rounded.
    ///
    /// Running sums make the cost per pixel independent of r. Works in premultiplied space; the
    /// result is premultiplied. `radius` is limited to 2000 so that window sums stay below 2³²
    /// ((4001² · 255 < 2³²); an ImageEffects blur of 500 points at scale 4 needs 1880).
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
/// leaving one, read from the image (or, for straight alpha, from a ring of the rows as
/// premultiplied). A horizontal running sum over V then gives the window sums. No ring of
/// intermediate sums: the previous design kept 2r+2 rows of horizontal sums (5 MiB at r = 40,
/// beyond L2), and the leaving row came from L3 (perf).
struct BoxBlur {
    static let maximumRadius = 2000

    let width: Int
    let height: Int
    let radius: Int
    let axes: BlurAxes
    /// Whether the result rows go out with streaming stores: by default when the result is larger
    /// than the last-level cache (`streamsPastCache`).
    let streams: Bool

    init(width: Int, height: Int, radius: Int, axes: BlurAxes, streams: Bool? = nil) {
        (self.width, self.height, self.radius, self.axes) = (width, height, radius, axes)
        self.streams = streams ?? streamsPastCache(bytes: 4 * width * height)
    }

    var samplesPerRow: Int { width * 4 }
    var window: Int { 2 * radius + 1 }

    func run<Source: RowSource<UInt8>>(_ input: Source, _ output: UnsafeMutablePointer<UInt8>, threads: Int) {
        RowBands.run(height, threads: threads) { rows in
            switch axes {
            case .horizontal: horizontalOnly(input, output, rows)
            case .both where window <= UInt16.columnSumWindow: streamVertical(input, output, rows, columns: UInt16.self)
            case .vertical, .both: streamVertical(input, output, rows, columns: UInt32.self)
            }
            if streams { frost_store_fence() }
        }
    }

    /// Edge-extended rows of sums: pixel x at `pad + x`, r+1 copies of the edge pixels each side.
    private var pad: Int { radius + 1 }
    private var paddedCount: Int { width + 2 * pad }

    /// Rows blurred along x only: h / w, rounded.
    private func horizontalOnly<Source: RowSource<UInt8>>(_ input: Source, _ output: UnsafeMutablePointer<UInt8>, _ rows: Range<Int>) {
        let padded = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: paddedCount)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.windowSumSamples)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: samplesPerRow)
        defer { padded.deallocate(); sums.deallocate(); scratch.deallocate() }
        let rounding = MeanRounding(divisor: window)
        for y in rows {
            let row = UnsafeRawPointer(input.row(y, scratch: scratch))
            for x in 0..<width { padded[pad + x] = Self.pixel(row, x) }
            extendEdges(padded)
            horizontalMeans(padded, rounding, sums, into: output + y * samplesPerRow)
        }
    }

    /// V slides down the band; over both axes each row of V is then summed along x.
    /// A source that makes its rows (premultiplying straight alpha) makes each one once, into a
    /// ring of the 2r + 2 rows the window spans, where the leaving row is found again: making it a
    /// second time cost more than the separate premultiplying pass it replaces (r = 40, perf).
    private func streamVertical<Source: RowSource<UInt8>, Column: ColumnSum>(_ input: Source, _ output: UnsafeMutablePointer<UInt8>,
                                                                             _ rows: Range<Int>, columns _: Column.Type) {
        precondition(axes == .both || Column.self == UInt32.self, "vertical-only means read the column sums as UInt32")
        let n = samplesPerRow
        let columns = UnsafeMutablePointer<SIMD4<Column>>.allocate(capacity: paddedCount)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.windowSumSamples)
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
        for k in -radius...radius { Column.slide(UnsafeMutableRawPointer(v), adding: entering(rows.lowerBound + k), subtracting: nil, count: n) }
        for y in rows {
            if y > rows.lowerBound {
                Column.slide(UnsafeMutableRawPointer(v), adding: entering(y + radius), subtracting: leaving(y - radius - 1), count: n)
            }
            if axes == .both {
                extendEdges(columns)
                horizontalMeans(columns, rounding, sums, into: output + y * n)
            } else {
                v.withMemoryRebound(to: UInt32.self, capacity: n) { rounding.means($0, count: n, into: output + y * n, streaming: streams) }
            }
        }
    }

    /// One RGBA pixel widened to 32-bit lanes (a single vpmovzxbd).
    @inline(__always)
    private static func pixel(_ row: UnsafeRawPointer, _ x: Int) -> SIMD4<UInt32> {
        SIMD4<UInt32>(truncatingIfNeeded: row.loadUnaligned(fromByteOffset: 4 &* x, as: SIMD4<UInt8>.self))
    }

    /// Copies the first and last pixel into the r+1 slots beside them.
    @inline(__always)
    private func extendEdges<Lane: SIMDScalar>(_ padded: UnsafeMutablePointer<SIMD4<Lane>>) {
        let first = padded[pad], last = padded[pad + width - 1]
        for i in 0..<pad {
            padded[i] = first
            padded[pad + width + i] = last
        }
    }

    /// Pixels per step of `horizontalMeans`.
    static let chunk = 256
    /// `horizontalMeans`' buffer: a chunk of window sums (four samples a pixel) for each half row.
    static let windowSumSamples = 2 * 4 * chunk

    /// Rounded means of h[x] = Σ_{k=−r…r} p[clamp(x+k)] per channel, over an edge-extended row of
    /// column sums, `chunk` pixels at a time: a chunk's window sums stay in L1 between the running
    /// sum and the rounding, where a whole row of them (64 KiB at 4096 pixels) went through L2.
    /// The running sum steps two pixels at a time, the entering and leaving pairs of column sums
    /// each widened by one vpmovzxwd: widening each pixel alone took two shuffles a pixel, which
    /// bounded the loop (perf). Two running sums, over the two halves of the row, advance together,
    /// so that neither waits on the add before.
    @inline(__always)
    private func horizontalMeans<Column: ColumnSum>(_ padded: UnsafeMutablePointer<SIMD4<Column>>, _ rounding: MeanRounding,
                                                    _ sums: UnsafeMutablePointer<UInt32>, into out: UnsafeMutablePointer<UInt8>) {
        let p = UnsafePointer(padded + pad)        // p[x] is pixel x
        let half = (width + 1) / 2, second = width - half     // second == half or half − 1
        @inline(__always) func windowSum(at x: Int) -> SIMD4<UInt32> {
            var sum = SIMD4<UInt32>(repeating: 0)
            for k in -radius...radius { sum &+= Column.pixel(p, x &+ k) }
            return sum
        }
        /// Stores h[x] (x from `start`) and steps to h[x + 1].
        @inline(__always) func step(_ sum: inout SIMD4<UInt32>, _ x: Int, _ start: Int, _ target: UnsafeMutableRawPointer) {
            target.storeBytes(of: sum, toByteOffset: 16 &* (x &- start), as: SIMD4<UInt32>.self)
            sum &+= Column.pixel(p, x &+ radius &+ 1) &- Column.pixel(p, x &- radius)
        }
        /// The same for x and x + 1.
        @inline(__always) func pairStep(_ sum: inout SIMD4<UInt32>, _ x: Int, _ start: Int, _ target: UnsafeMutableRawPointer) {
            let d = Column.pair(p, x &+ radius &+ 1) &- Column.pair(p, x &- radius)
            target.storeBytes(of: sum, toByteOffset: 16 &* (x &- start), as: SIMD4<UInt32>.self)
            sum &+= d.lowHalf
            target.storeBytes(of: sum, toByteOffset: 16 &* (x &- start) &+ 16, as: SIMD4<UInt32>.self)
            sum &+= d.highHalf
        }
        var a = windowSum(at: 0), b = windowSum(at: half)
        let sumsB = sums + 4 * Self.chunk
        let targetA = UnsafeMutableRawPointer(sums), targetB = UnsafeMutableRawPointer(sumsB)
        var start = 0
        while start < half {
            let end = min(start + Self.chunk, half), paired = max(start, min(end, second))
            var x = start
            while x &+ 2 <= paired {
                pairStep(&a, x, start, targetA)
                pairStep(&b, x &+ half, half &+ start, targetB)
                x &+= 2
            }
            if x < paired { step(&b, x &+ half, half &+ start, targetB) }
            while x < end { step(&a, x, start, targetA); x &+= 1 }
            rounding.means(sums, count: 4 * (end - start), into: out + 4 * start, streaming: streams)
            if paired > start {
                rounding.means(sumsB, count: 4 * (paired - start), into: out + 4 * (half + start), streaming: streams)
            }
            start = end
        }
    }

    /// How window sums over an odd count d become rounded means: one float multiply-add per
    /// sample up to d = 32767 (r ≤ 90 over both axes), exact integer division while 2s + d stays
    /// below 2³¹ (r ≤ 1000), a double multiply beyond.
    private enum MeanRounding {
        case reciprocal(ReciprocalRounding)
        /// ⌊(2s + d) / 2d⌋.
        case division(ExactDivision, UInt32)
        /// ⌊(s + d/2) · fl(1/d)⌋ in double precision, for sums up to 2³². Exact: (s + d/2)/d lies at
        /// least 1/(2d) ≥ 2⁻²⁵ from every integer (d odd), and the product errs by under 2⁻⁴⁴.
        case wide(reciprocal: Double, half: Double)

        init(divisor d: Int) {
            if let reciprocal = ReciprocalRounding(divisor: d) {
                self = .reciprocal(reciprocal)
            } else if (2 * 255 + 1) * d < 1 << 31 {
                self = .division(ExactDivision(divisor: UInt64(2 * d)), UInt32(d))
            } else {
                self = .wide(reciprocal: 1 / Double(d), half: Double(d) / 2)
            }
        }

        @inline(__always)
        func means(_ sums: UnsafePointer<UInt32>, count n: Int, into out: UnsafeMutablePointer<UInt8>, streaming: Bool) {
            var i = 0
            let s = UnsafeRawPointer(sums), o = UnsafeMutableRawPointer(out)
            switch self {
            case .reciprocal(let rounding):
                // Streaming stores need 16-byte aligned rows (widths of a multiple of four pixels).
                let streams = streaming && Int(bitPattern: o) & 15 == 0
                while i + 16 <= n {
                    let means = rounding.means(s.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD16<UInt32>.self))
                    if streams {
                        frost_stream_store16(o + i, means)
                    } else {
                        o.storeBytes(of: means, toByteOffset: i, as: SIMD16<UInt8>.self)
                    }
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
            case .wide(let reciprocal, let half):
                while i < n {
                    out[i] = UInt8(truncatingIfNeeded: Int(((Double(sums[i]) + half) * reciprocal).rounded(.down)))
                    i += 1
                }
            }
        }
    }
}

/// The lanes of the box blur's column sums V (per pixel and channel, the sum of the 2r+1 source
/// samples above and below). 16-bit lanes hold every window of up to 257 rows ((2r+1)·255 < 2¹⁶)
/// and halve the bytes V streams through each row: 32 KiB at 4096 pixels, inside L1, where
/// 32-bit lanes (64 KiB) spilled to L2; the slide then moves sixteen samples per vector.
/// (Codable because SIMD vectors are, and `Lanes.Scalar == Self` asks the same of the lanes.)
protocol ColumnSum: SIMDScalar, FixedWidthInteger, UnsignedInteger, Codable {
    /// One vector of sums: sixteen 16-bit or eight 32-bit lanes (256 bits).
    associatedtype Lanes: SIMD where Lanes.Scalar == Self
    /// `Lanes.scalarCount` bytes of a row from byte i, widened to lanes.
    static func widened(_ row: UnsafeRawPointer, _ i: Int) -> Lanes
    /// Pixel x of a row of sums, in 32-bit lanes.
    static func pixel(_ v: UnsafePointer<SIMD4<Self>>, _ x: Int) -> SIMD4<UInt32>
    /// Pixels x and x + 1 of a row of sums, in 32-bit lanes.
    static func pair(_ v: UnsafePointer<SIMD4<Self>>, _ x: Int) -> SIMD8<UInt32>
}

extension ColumnSum {
    /// v[i] += entering[i] − leaving[i] (or v[i] += entering[i]) for `count` samples, a vector
    /// at a time, then sample by sample. Specialised for each lane type (checked in the generated
    /// code: vpmovzxbw + vpaddw/vpsubw for 16-bit lanes, vpmovzxbd + vpaddd/vpsubd for 32-bit).
    @inline(never)
    static func slide(_ v: UnsafeMutableRawPointer, adding entering: UnsafeRawPointer, subtracting leaving: UnsafeRawPointer?, count n: Int) {
        let step = Lanes.scalarCount, size = MemoryLayout<Self>.stride
        var i = 0
        if let leaving {
            while i + step <= n {
                frost_prefetch_ahead(entering + i)
                let s = v.loadUnaligned(fromByteOffset: size &* i, as: Lanes.self)
                v.storeBytes(of: s &+ widened(entering, i) &- widened(leaving, i), toByteOffset: size &* i, as: Lanes.self)
                i &+= step
            }
        } else {
            while i + step <= n {
                // The box reductions read the source from DRAM here (opaque images in place):
                // RGB σ = 20 and 40 1.12-1.25x with the prefetch.
                frost_prefetch_ahead(entering + i)
                let s = v.loadUnaligned(fromByteOffset: size &* i, as: Lanes.self)
                v.storeBytes(of: s &+ widened(entering, i), toByteOffset: size &* i, as: Lanes.self)
                i &+= step
            }
        }
        let sums = v.assumingMemoryBound(to: Self.self)
        for j in i..<n {
            let enter = Self(entering.load(fromByteOffset: j, as: UInt8.self))
            sums[j] = sums[j] &+ enter &- (leaving.map { Self($0.load(fromByteOffset: j, as: UInt8.self)) } ?? 0)
        }
    }
}

extension UInt16: ColumnSum {
    /// The largest window whose sums of bytes fit 16 bits.
    static let columnSumWindow = Int(UInt16.max) / 255

    @inline(__always)
    static func widened(_ row: UnsafeRawPointer, _ i: Int) -> SIMD16<UInt16> {
        LaneConversion.widenedToHalfwords(row.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
    }

    @inline(__always)
    static func pixel(_ v: UnsafePointer<SIMD4<UInt16>>, _ x: Int) -> SIMD4<UInt32> { SIMD4<UInt32>(truncatingIfNeeded: v[x]) }

    @inline(__always)
    static func pair(_ v: UnsafePointer<SIMD4<UInt16>>, _ x: Int) -> SIMD8<UInt32> {
        frost_widened_halves8(UnsafeRawPointer(v + x).loadUnaligned(as: SIMD8<UInt16>.self))
    }
}

extension UInt32: ColumnSum {
    @inline(__always)
    static func widened(_ row: UnsafeRawPointer, _ i: Int) -> SIMD8<UInt32> {
        LaneConversion.widened(row.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self))
    }

    @inline(__always)
    static func pixel(_ v: UnsafePointer<SIMD4<UInt32>>, _ x: Int) -> SIMD4<UInt32> { v[x] }

    @inline(__always)
    static func pair(_ v: UnsafePointer<SIMD4<UInt32>>, _ x: Int) -> SIMD8<UInt32> {
        UnsafeRawPointer(v + x).loadUnaligned(as: SIMD8<UInt32>.self)
    }
}
