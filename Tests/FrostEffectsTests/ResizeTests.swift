@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// The separable resampler against a direct two-dimensional evaluation of its filter in Double.
@Suite struct ResizeTests {
    /// Triangle taps of half-width max(1, shrink) around each output center, edges clamped, normalised.
    static func taps(_ n: Int, origin: Double, length: Double, output o: Int) -> [(Int, Double)] {
        let scale = Double(n) / length, support = max(1, scale)
        let center = (Double(o) + 0.5 - origin) * scale - 0.5
        var taps: [Int: Double] = [:]
        for s in Int((center - support).rounded(.down))...Int((center + support).rounded(.up)) {
            let w = max(0, 1 - abs(Double(s) - center) / support)
            if w > 0 { taps[min(max(s, 0), n - 1), default: 0] += w }
        }
        let total = taps.values.reduce(0, +)
        return taps.map { ($0.key, $0.value / total) }
    }

    static func reference(_ image: Image, over rect: Rect, region: PixelBounds) -> [Double] {
        var out = [Double](repeating: 0, count: region.width * region.height * 4)
        for j in 0..<region.height {
            let ys = taps(image.height, origin: rect.y, length: rect.height, output: region.y + j)
            for i in 0..<region.width {
                let xs = taps(image.width, origin: rect.x, length: rect.width, output: region.x + i)
                for (sy, wy) in ys {
                    for (sx, wx) in xs {
                        for c in 0..<4 { out[(j * region.width + i) * 4 + c] += Double(image.pixels[(sy * image.width + sx) * 4 + c]) * wx * wy }
                    }
                }
            }
        }
        return out
    }

    @Test(arguments: [
        (Rect(x: -3.3, y: 2.5, width: 61.7, height: 45.2), PixelBounds(x: 0, y: 0, width: 53, height: 41)),   // enlarge ≈ 2.1×
        (Rect(x: 0.25, y: -1, width: 19.1, height: 14.4), PixelBounds(x: 1, y: 0, width: 17, height: 13)),   // shrink ≈ 1.5×
        (Rect(x: 0, y: 0, width: 29, height: 22), PixelBounds(x: 3, y: 2, width: 21, height: 17)),           // almost 1:1, a sub-region
    ])
    func matchesTheDirectFilter(rect: Rect, region: PixelBounds) {
        let image = noiseImage(width: 29, height: 22, opaque: true)
        let fast = image.resampled(over: rect, region: region)
        let slow = Self.reference(image, over: rect, region: region)
        let worst = zip(fast.pixels, slow).map { abs(Double($0) - $1) }.max()!
        #expect(worst <= 0.51, "max difference \(worst)")
    }

    @Test func shrinkingByTwoOrMoreAveragesBoxesAndKeepsConstants() {
        // A 2×2 checker shrunk by exactly 2: each output is the mean of one 2×2 block.
        var image = Image(width: 8, height: 6, filledWith: (0, 0, 0, 255))
        for y in 0..<6 { for x in 0..<8 where (x + y) % 2 == 0 { for c in 0..<3 { image.pixels[(y * 8 + x) * 4 + c] = 200 } } }
        let half = image.resized(width: 4, height: 3)
        #expect(half.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 255 : $0.element == 100 })
        let gray = Image(width: 97, height: 61, filledWith: (37, 90, 211, 255))
        for (w, h) in [(13, 9), (40, 25), (200, 130)] {
            #expect(gray.resized(width: w, height: h).pixels == Image(width: w, height: h, filledWith: (37, 90, 211, 255)).pixels)
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
        let slow = Self.reference(image, over: rect, region: PixelBounds(x: 0, y: 0, width: 20, height: 20))
        let worst = zip(cover.pixels, slow).map { abs(Double($0) - $1) }.max()!
        #expect(worst <= 0.51, "max difference \(worst)")
    }

    /// A whole-number shrink is the exact area average: every output the mean of its f×f block.
    @Test func wholeNumberShrinkIsTheAreaAverage() {
        let image = noiseImage(width: 96, height: 64, opaque: true)
        for f in [2, 4, 8] {
            let small = image.resized(width: 96 / f, height: nil, fit: .contain)
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
}
