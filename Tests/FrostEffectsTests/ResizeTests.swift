import CFrostSystem
import Foundation
@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// The fixed-point resampler against a direct evaluation of each filter in Double: horizontal
/// taps, clamped to [0, 255], then vertical taps, as the passes define it.
@Suite struct ResizeTests {
    /// Each filter written out again from its definition (Keys 1981; Mitchell & Netravali 1988;
    /// Lanczos), not through `ResampleKernel.value`.
    static func filter(_ kernel: ResampleKernel, _ x: Double) -> Double {
        let x = abs(x)
        switch kernel {
        case .linear: return x < 1 ? 1 - x : 0
        case .cubic: return x < 1 ? 1.5 * x * x * x - 2.5 * x * x + 1 : x < 2 ? -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 : 0
        case .mitchell:
            return x < 1 ? (7 * x * x * x - 12 * x * x + 16.0 / 3) / 6
                : x < 2 ? (-7.0 / 3 * x * x * x + 12 * x * x - 20 * x + 32.0 / 3) / 6 : 0
        case .lanczos3:
            if x == 0 { return 1 }
            return x < 3 ? 3 * Foundation.sin(Double.pi * x) * Foundation.sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x) : 0
        case .nearest, .area: fatalError("not a sampled filter")
        }
    }

    /// Output o's taps over n source pixels (index → weight), edges folded onto the border pixel, normalised.
    static func taps(_ kernel: ResampleKernel, _ n: Int, origin: Double, length: Double, output o: Int) -> [Int: Double] {
        let scale = Double(n) / length
        let center = (Double(o) + 0.5 - origin) * scale - 0.5
        var taps: [Int: Double] = [:]
        func add(_ s: Int, _ w: Double) { if w != 0 { taps[min(max(s, 0), n - 1), default: 0] += w } }
        switch kernel {
        case .nearest:
            add(Int(((Double(o) + 0.5 - origin) * scale).rounded(.down)), 1)
        case .area:
            let from = center - scale / 2, to = center + scale / 2
            for s in Int((from - 1).rounded(.down))...Int((to + 1).rounded(.up)) {
                add(s, max(0, min(Double(s) + 0.5, to) - max(Double(s) - 0.5, from)))
            }
        default:
            let stretch = max(1, scale), reach = [ResampleKernel.linear: 1.0, .cubic: 2, .mitchell: 2, .lanczos3: 3][kernel]! * stretch
            for s in Int((center - reach).rounded(.down))...Int((center + reach).rounded(.up)) { add(s, filter(kernel, (Double(s) - center) / stretch)) }
        }
        let total = taps.values.reduce(0, +)
        return taps.mapValues { $0 / total }
    }

    static func reference(_ image: Image, _ kernel: ResampleKernel, over rect: Rect, region: PixelBounds) -> [Double] {
        func clamp(_ v: Double) -> Double { min(max(v, 0), 255) }
        let xs = (0..<region.width).map { taps(kernel, image.width, origin: rect.x, length: rect.width, output: region.x + $0) }
        let ys = (0..<region.height).map { taps(kernel, image.height, origin: rect.y, length: rect.height, output: region.y + $0) }
        // The horizontal pass over every source row.
        var rows = [Double](repeating: 0, count: image.height * region.width * 4)
        for y in 0..<image.height {
            for (i, taps) in xs.enumerated() {
                for c in 0..<4 {
                    let v = taps.reduce(0) { $0 + Double(image.pixels[(y * image.width + $1.key) * 4 + c]) * $1.value }
                    rows[(y * region.width + i) * 4 + c] = clamp(v)
                }
            }
        }
        var out = [Double](repeating: 0, count: region.width * region.height * 4)
        for (j, taps) in ys.enumerated() {
            for i in 0..<region.width * 4 {
                out[j * region.width * 4 + i] = clamp(taps.reduce(0) { $0 + rows[$1.key * region.width * 4 + i] * $1.value })
            }
        }
        return out
    }

    static func worst(_ image: Image, _ reference: [Double]) -> Double {
        zip(image.pixels, reference).map { abs(Double($0) - $1) }.max()!
    }

    /// Every filter, shrinking (by 1.5, 3.7 and 9), enlarging, near 1:1 over a sub-region, each
    /// within one level of the Double evaluation on noise (the worst case for ringing).
    @Test(arguments: ResampleKernel.allCases)
    func everyKernelMatchesItsDoubleReference(kernel: ResampleKernel) {
        let image = noiseImage(width: 61, height: 47, opaque: true)
        let cases = [
            (Rect(x: -3.3, y: 2.5, width: 131.7, height: 97.2), PixelBounds(x: 0, y: 0, width: 123, height: 99)),   // enlarge ≈ 2.1×
            (Rect(x: 0.25, y: -1, width: 40.1, height: 31.4), PixelBounds(x: 1, y: 0, width: 37, height: 29)),     // shrink ≈ 1.5×
            (Rect(x: 0, y: 0, width: 16.5, height: 12.7), PixelBounds(x: 0, y: 0, width: 16, height: 12)),         // shrink ≈ 3.7×
            (Rect(x: 0, y: 0, width: 61.0 / 9, height: 47.0 / 9), PixelBounds(x: 0, y: 0, width: 6, height: 5)),   // shrink by 9
            (Rect(x: 0, y: 0, width: 60, height: 47), PixelBounds(x: 3, y: 2, width: 41, height: 37)),             // almost 1:1, a sub-region
        ]
        for (rect, region) in cases {
            let fast = image.resampled(over: rect, region: region, kernel: kernel)
            let worst = Self.worst(fast, Self.reference(image, kernel, over: rect, region: region))
            #expect(worst <= 1, "\(kernel) over \(rect): max difference \(worst)")
        }
    }

    /// A 4096-wide row shrunk to 1170 (the bench's ratio) through every pass size: within a level.
    @Test(arguments: [ResampleKernel.area, .linear, .lanczos3])
    func theBenchRatioMatchesItsReference(kernel: ResampleKernel) {
        let image = noiseImage(width: 1400, height: 9, opaque: true)
        let fast = image.resized(width: 400, height: 5, kernel: kernel)
        let slow = Self.reference(image, kernel, over: Rect(x: 0, y: 0, width: 400, height: 5), region: PixelBounds(x: 0, y: 0, width: 400, height: 5))
        #expect(Self.worst(fast, slow) <= 1)
    }

    @Test(arguments: ResampleKernel.allCases)
    func flatImagesStayFlat(kernel: ResampleKernel) {
        let gray = Image(width: 97, height: 61, filledWith: (37, 90, 211, 255))
        for (w, h) in [(13, 9), (40, 25), (200, 130), (97, 7)] {
            #expect(identical(gray.resized(width: w, height: h, kernel: kernel), Image(width: w, height: h, filledWith: (37, 90, 211, 255))))
        }
    }

    /// The area average of a whole-number shrink is each f×f block's mean.
    @Test func wholeNumberAreaShrinkIsTheBlockMean() {
        let image = noiseImage(width: 96, height: 64, opaque: true)
        for f in [2, 4, 8] {
            let small = image.resized(width: 96 / f, height: nil, fit: .contain, kernel: .area)
            #expect(small.height == 64 / f)
            var worst = 0.0
            for y in 0..<small.height { for x in 0..<small.width { for c in 0..<4 {
                var sum = 0.0
                for j in 0..<f { for i in 0..<f { sum += Double(image.pixels[((y * f + j) * 96 + x * f + i) * 4 + c]) } }
                worst = max(worst, abs(Double(small.pixels[(y * small.width + x) * 4 + c]) - sum / Double(f * f)))
            } } }
            #expect(worst <= 0.51, "shrink by \(f): max difference \(worst)")
        }
    }

    /// `resize --fit`: contain keeps the aspect inside the box, cover fills it and cuts the overflow
    /// equally from both ends (checked against the direct filter over the enlarged rectangle),
    /// fill stretches; one size alone keeps the aspect ratio.
    @Test func fitModesAgainstTheDirectFilter() {
        let image = noiseImage(width: 29, height: 22, opaque: true)
        let contain = image.resized(width: 20, height: 20, fit: .contain)
        #expect(contain.width == 20 && contain.height == 15)
        #expect(image.resized(width: 20, height: 20, fit: .fill).pixels == image.resized(width: 20, height: 20).pixels)
        #expect(image.resized(width: nil, height: 11, fit: .contain).width == 15)   // 29·11/22 = 14.5 → 15 (rounded half up)
        let cover = image.resized(width: 20, height: 20, fit: .cover)
        #expect(cover.width == 20 && cover.height == 20)
        let scale = 20.0 / 22, rect = Rect(x: (20 - 29 * scale) / 2, y: 0, width: 29 * scale, height: 20)
        let slow = Self.reference(image, .default, over: rect, region: PixelBounds(x: 0, y: 0, width: 20, height: 20))
        #expect(Self.worst(cover, slow) <= 1)
    }

    /// Ringing never leaves a premultiplied color above its alpha, and a straight image comes back straight.
    @Test func ringingStaysInsideAlpha() {
        var image = noiseImage(width: 40, height: 30)
        image = image.premultiplied()
        let small = image.resized(width: 13, height: 11, kernel: .lanczos3)
        #expect(small.isPremultiplied)
        for i in stride(from: 0, to: small.pixels.count, by: 4) {
            #expect((0..<3).allSatisfy { small.pixels[i + $0] <= small.pixels[i + 3] })
        }
    }

    /// The AVX2 passes and, where the CPU has it, the AVX512-VNNI ones equal their scalar references
    /// exactly (in builds without AVX2 all are the scalar code).
    @Test(.serialized, arguments: [false, true]) func vectorPassesEqualTheScalarOnes(vnni: Bool) {
        frost_resample_use_vnni(vnni ? 1 : 0)
        defer { frost_resample_use_vnni(1) }
        var random = XorShift64(seed: 7)
        // 1100 taps: a row shrunk to a few pixels (more groups of four than a byte counts).
        for taps in [1, 2, 3, 4, 5, 8, 11, 12, 22, 23, 24, 1100] {
            // Shift 8: the VNNI split's base is the shift itself; 13: the split into 128·high + low.
            let width = max(300, taps + 20), count = 50, shift = [8, 24].contains(taps) ? 8 : 13
            let rows = (0..<4).map { _ in (0..<(4 * width)).map { _ in UInt8(truncatingIfNeeded: random.next() >> 40) } }
            let first = (0..<count).map { _ in Int32(random.next() % UInt64(width - taps)) }
            // Within ±16383, as the split VNNI weights need; the extremes included. With 4 and 8 taps
            // none is negative (the samples are not clamped).
            let range = taps > 24 ? 120 : 12_000   // no sum past 2³¹
            var weights = (0..<(count * taps)).map { _ in Int16(truncatingIfNeeded: Int(random.next() % UInt64(range)) - range / 4) }
            weights[0] = 16_383
            weights[weights.count - 1] = -16_384
            if taps == 4 || taps == 8 { weights = weights.map { $0 == -16_384 ? 16_383 : abs($0) } }
            // Zero tails of up to five taps: outputs that sum fewer groups of four than the span holds.
            for o in stride(from: 1, to: count, by: 3) where taps > 5 {
                for k in (taps - 1 - o % 5)..<taps { weights[o * taps + k] = 0 }
            }
            let clamps: Int32 = weights.contains { $0 < 0 } ? 1 : 0
            var split = [Int8](repeating: 0, count: taps % 4 == 0 ? 2 * weights.count : 0)
            var groups = [Int32](repeating: 0, count: count), base: Int32 = 0
            if !split.isEmpty {
                base = frost_resample_split_weights(weights, count, Int32(taps), Int32(shift), &split, &groups)
                #expect(base == (shift == 8 ? 8 : 7), "split base, \(taps) taps")
                #expect(taps < 8 || groups.contains { Int($0) < taps / 4 }, "some outputs sum fewer groups")
            }
            for nrows in 1...4 {
                var fast = [[UInt16]](repeating: [UInt16](repeating: 0, count: 4 * count), count: nrows)
                var slow = fast
                withRowPointers(rows, nrows) { sources in
                    withMutableRowPointers(&fast) { targets in
                        split.withUnsafeBufferPointer { split in
                            frost_resample_horizontal(sources, Int32(nrows), first, weights, split.isEmpty ? nil : split.baseAddress,
                                                      groups, base, clamps, Int32(taps), Int32(shift), count, targets)
                        }
                    }
                }
                for r in 0..<nrows { frost_resample_horizontal_scalar(rows[r], first, weights, Int32(taps), Int32(shift), count, &slow[r]) }
                #expect(fast == slow, "horizontal, \(taps) taps, \(nrows) rows")
            }
            let samples = 4 * 77
            // Weights small enough that no sum of 8.7 samples can pass 2³¹ (as ResampleAxis chooses them).
            let columns = (0..<taps).map { _ in (0..<samples).map { _ in UInt16(random.next() % 32_641) } }
            let vertical = taps > 24 ? 30 : 3_000
            func weight() -> UInt32 { UInt32(UInt16(bitPattern: Int16(Int(random.next() % UInt64(vertical)) - vertical / 3))) }
            let pairs = (0..<((taps + 1) / 2)).map { j in (2 * j + 1 < taps ? weight() : 0) << 16 | weight() }
            var fast = [UInt8](repeating: 0, count: samples), slow = fast
            Self.withRows(columns) { pointers in
                frost_resample_vertical(pointers, pairs, Int32(taps), 16, samples, &fast)
                frost_resample_vertical_scalar(pointers, pairs, Int32(taps), 16, 0, samples, &slow)
                #expect(fast == slow, "vertical, \(taps) taps")
                // Two output rows over one window (the rows read once): each its own scalar pass.
                let pairs2 = (0..<((taps + 1) / 2)).map { j in (2 * j + 1 < taps ? weight() : 0) << 16 | weight() }
                var first2 = [UInt8](repeating: 0, count: samples), second2 = first2, slow2 = first2
                frost_resample_vertical_two(pointers, pairs, pairs2, Int32(taps), 16, samples, &first2, &second2)
                frost_resample_vertical_scalar(pointers, pairs2, Int32(taps), 16, 0, samples, &slow2)
                #expect(first2 == slow && second2 == slow2, "two verticals, \(taps) taps")
            }
        }
    }

    /// `rows` in memory of their own, as the C passes take them.
    static func withRows<R>(_ rows: [[UInt16]], _ body: ([UnsafePointer<UInt16>?]) -> R) -> R {
        let copies = rows.map { row -> UnsafeMutablePointer<UInt16> in
            let p = UnsafeMutablePointer<UInt16>.allocate(capacity: row.count)
            p.initialize(from: row, count: row.count)
            return p
        }
        defer { copies.forEach { $0.deallocate() } }
        return body(copies.map { UnsafePointer($0) })
    }

    private func withRowPointers<R>(_ rows: [[UInt8]], _ n: Int, _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> R) -> R {
        let copies = rows.prefix(n).map { row -> UnsafeMutablePointer<UInt8> in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: row.count)
            p.initialize(from: row, count: row.count)
            return p
        }
        defer { copies.forEach { $0.deallocate() } }
        return copies.map { UnsafePointer<UInt8>?(UnsafePointer($0)) }.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private func withMutableRowPointers(_ rows: inout [[UInt16]], _ body: (UnsafePointer<UnsafeMutablePointer<UInt16>?>) -> Void) {
        let copies = rows.map { row -> UnsafeMutablePointer<UInt16> in
            let p = UnsafeMutablePointer<UInt16>.allocate(capacity: row.count)
            p.initialize(from: row, count: row.count)
            return p
        }
        copies.map { Optional($0) }.withUnsafeBufferPointer { body($0.baseAddress!) }
        for (r, p) in copies.enumerated() {
            rows[r] = Array(UnsafeBufferPointer(start: p, count: rows[r].count))
            p.deallocate()
        }
    }
}
