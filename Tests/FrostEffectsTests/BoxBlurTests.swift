@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

@Suite struct BoxBlurTests {
    /// The definition: rounded mean of the window with clamped (edge-extended) coordinates.
    static func naiveBox(_ image: Image, radius r: Int, axes: BlurAxes) -> [UInt8] {
        let p = image.premultiplied().pixels
        var out = [UInt8](repeating: 0, count: p.count)
        let rx = axes == .vertical ? 0 : r, ry = axes == .horizontal ? 0 : r
        let area = (2 * rx + 1) * (2 * ry + 1)
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<4 {
                    var sum = 0
                    for dy in -ry...ry {
                        for dx in -rx...rx {
                            let sx = min(max(x + dx, 0), image.width - 1), sy = min(max(y + dy, 0), image.height - 1)
                            sum += Int(p[(sy * image.width + sx) * 4 + c])
                        }
                    }
                    out[(y * image.width + x) * 4 + c] = UInt8((2 * sum + area) / (2 * area))
                }
            }
        }
        return out
    }

    @Test(arguments: [(1, 1), (1, 7), (13, 5), (29, 17), (64, 3)], [0, 1, 2, 3, 7, 40, 91, 128, 129])   // 91: past the float rounding; 128 | 129: 16 | 32-bit column sums
    func matchesNaiveDoubleLoop(size: (Int, Int), radius: Int) {
        let image = noiseImage(width: size.0, height: size.1)
        for axes in BlurAxes.allCases {
            let fast = image.boxBlurred(radius: radius, axes: axes, threads: 1)
            #expect(fast.pixels == Self.naiveBox(image, radius: radius, axes: axes), "\(size) r\(radius) \(axes)")
            #expect(fast.isPremultiplied)
        }
    }

    /// Rows of several `horizontalMeans` chunks, whose two halves (one running sum each) end in
    /// different chunks (1031: 516 and 515 pixels) or the same one (514), with 16- and 32-bit
    /// column sums (r = 129 along x only, to keep the naive loop short).
    @Test(arguments: [514, 1031])
    func rowsOfSeveralChunksMatchTheNaiveLoop(width: Int) {
        let image = noiseImage(width: width, height: 3)
        for (radius, axes) in [(1, BlurAxes.allCases), (40, BlurAxes.allCases), (129, [.horizontal])] {
            for axes in axes {
                #expect(image.boxBlurred(radius: radius, axes: axes, threads: 1).pixels == Self.naiveBox(image, radius: radius, axes: axes),
                        "\(width) r\(radius) \(axes)")
            }
        }
    }

    /// Results larger than the last-level cache go out with streaming stores where their rows are
    /// 16-byte aligned: the same bytes as ordinary stores, for every axis, straight and
    /// premultiplied sources, widths that keep rows aligned (64) or not (29), two threads.
    @Test(arguments: [64, 29], [false, true])
    func streamingStoresGiveTheSameBytes(width: Int, straight: Bool) {
        let image = noiseImage(width: width, height: 23)
        let source = straight ? image.pixels : image.premultiplied().pixels
        for axes in BlurAxes.allCases {
            let results = [false, true].map { streams in
                let blur = BoxBlur(width: width, height: 23, radius: 5, axes: axes, streams: streams)
                var out = [UInt8](repeating: 0, count: source.count), input = source
                input.withUnsafeMutableBufferPointer { pixels in
                    let plane = Plane(base: pixels.baseAddress!, width: width, height: 23)
                    out.withUnsafeMutableBufferPointer {
                        if straight {
                            blur.run(StraightAlphaRows(plane: plane), $0.baseAddress!, threads: 2)
                        } else {
                            blur.run(plane, $0.baseAddress!, threads: 2)
                        }
                    }
                }
                return out
            }
            #expect(results[0] == results[1], "\(axes)")
            #expect(results[0] == Self.naiveBox(image, radius: 5, axes: axes), "\(axes)")
        }
    }

    @Test func threadsGiveIdenticalPixels() {
        let image = noiseImage(width: 203, height: 157)
        let one = image.boxBlurred(radius: 9, threads: 1)
        for threads in [2, 3, 8] {
            #expect(image.boxBlurred(radius: 9, threads: threads).pixels == one.pixels)
        }
    }

    /// White at r = 128 fills the 16-bit column sums exactly (257 · 255 = 65535); r = 129 moves
    /// to 32-bit sums.
    @Test(arguments: [25, 128, 129])
    func constantImageStaysConstant(radius: Int) {
        for color: (UInt8, UInt8, UInt8, UInt8) in [(10, 200, 30, 255), (255, 255, 255, 255)] {
            let image = Image(width: 50, height: 30, filledWith: color)
            #expect(image.boxBlurred(radius: radius).pixels == image.pixels)
        }
    }

    /// The rounding division is exact for every numerator the filter can produce.
    @Test(arguments: [3, 2 * 3, 2 * 81, 2 * 6561, 2 * 2001 * 2001, 2 * 2001, 255])
    func exactDivisionMatchesIntegerDivision(divisor: Int) {
        let divide = ExactDivision(divisor: UInt64(divisor))
        var n: UInt64 = 0
        while n < (1 << 31) {
            #expect(UInt64(divide.divide(UInt32(n))) == n / UInt64(divisor))
            #expect(UInt64(divide.divide(UInt32(n + UInt64(divisor) - 1))) == (n + UInt64(divisor) - 1) / UInt64(divisor))
            n = n * 3 + 1 + UInt64(divisor)
        }
        for n in UInt32(0)..<100_000 { #expect(divide.divide(n) == n / UInt32(divisor)) }
    }

    /// The float rounding gives round(s / d) for every sum a window of d samples can produce: all of
    /// them for small d; for large d every sum within 3 of a half-integer mean (the only places a
    /// rounding error could flip the result) plus a stride through the rest.
    @Test(arguments: [1, 3, 9, 81, 2001, 6561, 9801, 32_761, 32_767])
    func reciprocalRoundingIsExact(divisor d: Int) throws {
        let rounding = try #require(ReciprocalRounding(divisor: d))
        let top = 255 * d
        var sums: [UInt32] = d <= 81 ? Array(0...UInt32(top)) : Array(stride(from: 0, through: UInt32(top), by: 997))
        if d > 81 {
            for k in 0..<255 {
                let half = (2 * k + 1) * d / 2
                sums += (max(0, half - 3)...min(top, half + 3)).map(UInt32.init)
            }
            sums.append(UInt32(top))
        }
        while sums.count % 16 != 0 { sums.append(0) }
        for start in stride(from: 0, to: sums.count, by: 16) {
            let v = SIMD16<UInt32>(sums[start..<start + 16])
            let means = rounding.means(v)
            for i in 0..<16 {
                let expected = UInt8((2 * v[i] + UInt32(d)) / UInt32(2 * d))
                #expect(means[i] == expected && rounding.mean(v[i]) == expected, "d \(d) s \(v[i])")
            }
        }
    }

    @Test func reciprocalRoundingRefusesEvenAndLargeWindows() {
        #expect(ReciprocalRounding(divisor: 4) == nil)
        #expect(ReciprocalRounding(divisor: 32_769) == nil)
    }
}

/// Windows wider than 2001 pixels, whose sums over both axes pass 2³¹ (up to 4001² · 255 < 2³²):
/// the definition computed through each source pixel's multiplicity in the clamped window, since
/// the double loop would take (2r+1)² steps a pixel.
@Suite struct WideBoxBlurTests {
    static func clampedBox(_ image: Image, radius r: Int) -> [UInt8] {
        let p = image.premultiplied().pixels, w = image.width, h = image.height
        /// How many of the 2r+1 offsets around `at` land on `source` once clamped to 0..<count.
        func multiplicity(_ source: Int, _ at: Int, _ count: Int) -> Int {
            let lo = source == 0 ? at - r : max(source, at - r), hi = source == count - 1 ? at + r : min(source, at + r)
            return max(0, min(hi, at + r) - max(lo, at - r) + 1)
        }
        let area = (2 * r + 1) * (2 * r + 1)
        var out = [UInt8](repeating: 0, count: p.count)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0
                    for sy in 0..<h {
                        for sx in 0..<w {
                            sum += multiplicity(sy, y, h) * multiplicity(sx, x, w) * Int(p[(sy * w + sx) * 4 + c])
                        }
                    }
                    out[(y * w + x) * 4 + c] = UInt8((2 * sum + area) / (2 * area))
                }
            }
        }
        return out
    }

    @Test(arguments: [1001, 1500, 2000])
    func matchesTheDefinition(radius: Int) {
        let image = noiseImage(width: 13, height: 5)
        #expect(image.boxBlurred(radius: radius, threads: 1).pixels == Self.clampedBox(image, radius: radius))
        let white = Image(width: 7, height: 3, pixels: [UInt8](repeating: 255, count: 7 * 3 * 4))
        #expect(white.boxBlurred(radius: radius).pixels == white.pixels, "sums of 255s near 2³² round to 255")
    }

    @Test func theDefinitionAgreesWithTheDoubleLoop() {
        let image = noiseImage(width: 13, height: 5)
        #expect(Self.clampedBox(image, radius: 9) == BoxBlurTests.naiveBox(image, radius: 9, axes: .both))
    }
}
