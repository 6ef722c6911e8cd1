@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// ImageEffects against a direct implementation of its definition (docs/design.md, Algorithms).
@Suite struct ImageEffectsTests {
    @Test func boxWidthsFollowTheFormula() {
        // d = ⌊r·scale·3·√(2π)/4 + 0.5⌋, made odd; the box radius is (d − 1)/2.
        #expect(ImageEffectsMath.boxRadius(radius: 30, scale: 1) == 28)   // 56.9 → 57
        #expect(ImageEffectsMath.boxRadius(radius: 20, scale: 1) == 19)   // 38.1 → 38 → 39
        #expect(ImageEffectsMath.boxRadius(radius: 10, scale: 2) == 19)
        #expect(ImageEffectsMath.boxRadius(radius: 12, scale: 1) == 11)   // 23.06 → 23
        #expect(ImageEffectsMath.boxRadius(radius: 1, scale: 1) == 1)     // 2.38 → 2 → 3
    }

    @Test func saturationMatrixIsApplesRounded() {
        let m = ImageEffectsMath.saturationMatrix(1.8)
        // roundf((0.2126 + 0.7873·1.8)·256) = roundf(417.21) = 417, etc.
        #expect(m[0] == [417, -146, -15])
        #expect(m[1] == [-44, 314, -15])
        #expect(m[2] == [-44, -146, 446])
        #expect(ImageEffectsMath.saturationMatrix(1) == [[256, 0, 0], [0, 256, 0], [0, 0, 256]].map { $0.map(Int32.init) })
    }

    /// vImageMatrixMultiply's arithmetic written out: ⌊(Σ m·c + 128) / 256⌋, clamped.
    static func naiveSaturation(_ p: [UInt8], _ m: [[Int32]]) -> [UInt8] {
        var out = p
        for i in stride(from: 0, to: p.count, by: 4) {
            for c in 0..<3 {
                var sum: Int32 = 128
                for j in 0..<3 { sum += m[c][j] * Int32(p[i + j]) }
                let floor = sum >= 0 ? sum / 256 : -((-sum + 255) / 256)
                out[i + c] = UInt8(min(max(floor, 0), Int32(p[i + 3])))
            }
        }
        return out
    }

    @Test(arguments: [1.8, -1.0, 0.0, 1.5, 3.0])
    func saturationMatchesVImageArithmetic(s: Double) {
        let image = noiseImage(width: 33, height: 9).premultiplied()
        let m = ImageEffectsMath.saturationMatrix(s)
        #expect(image.saturationMatrixApplied(m, threads: 1).pixels == Self.naiveSaturation(image.pixels, m))
    }

    /// The whole effect: three naive boxes, the naive matrix, source-over, tint source-over.
    @Test(arguments: [false, true])
    func applyBlurMatchesDefinition(transparent: Bool) {
        let image = noiseImage(width: 24, height: 17, opaque: !transparent)
        let tint = Color(white: 0.8, alpha: 0.4)
        let result = image.applyBlur(radius: 3, tintColor: tint, saturationDeltaFactor: 1.8, threads: 1)

        let r = ImageEffectsMath.boxRadius(radius: 3, scale: 1)
        var effect = image.premultiplied()
        for _ in 0..<3 {
            effect = Image(width: 24, height: 17, pixels: BoxBlurTests.naiveBox(effect, radius: r, axes: .both), isPremultiplied: true)
        }
        let saturated = Self.naiveSaturation(effect.pixels, ImageEffectsMath.saturationMatrix(1.8))
        let base = image.premultiplied().pixels
        var expected = [UInt8](repeating: 0, count: base.count)
        let t = tint.premultiplied255
        for i in stride(from: 0, to: base.count, by: 4) {
            let alphaEffect = Double(saturated[i + 3]) / 255
            for c in 0..<4 {
                let over = Double(saturated[i + c]) + Double(base[i + c]) * (1 - alphaEffect)
                let rounded = over.rounded()
                expected[i + c] = UInt8(min(max((t[c] + rounded * (1 - tint.alpha)).rounded(), 0), 255))
            }
        }
        let difference = zip(result.pixels, expected).map { abs(Int($0) - Int($1)) }.max()!
        #expect(difference <= 1, "max difference \(difference)")
    }

    @Test func maskLimitsTheEffect() {
        let image = noiseImage(width: 20, height: 10, opaque: true)
        // Left half white (effect), right half black (original).
        var mask = Image(width: 20, height: 10, filledWith: (0, 0, 0, 255))
        for y in 0..<10 { for x in 0..<10 { for c in 0..<3 { mask.pixels[(y * 20 + x) * 4 + c] = 255 } } }
        mask.hasAlpha = false
        let masked = image.applyBlur(radius: 4, maskImage: mask, threads: 1)
        let full = image.applyBlur(radius: 4, threads: 1)
        for y in 0..<10 {
            for x in 0..<20 {
                let i = (y * 20 + x) * 4
                let expected = x < 10 ? full.pixels[i..<(i + 4)] : image.pixels[i..<(i + 4)]
                #expect(Array(masked.pixels[i..<(i + 4)]) == Array(expected))
            }
        }
    }

    @Test func presetsUseApplesParameters() {
        let image = noiseImage(width: 40, height: 30, opaque: true)
        #expect(image.applyLightEffect(threads: 1) == image.applyBlur(radius: 30, tintColor: Color(white: 1, alpha: 0.3), saturationDeltaFactor: 1.8, threads: 1))
        #expect(image.applyDarkEffect(threads: 1) == image.applyBlur(radius: 20, tintColor: Color(white: 0.11, alpha: 0.73), saturationDeltaFactor: 1.8, threads: 1))
        #expect(image.applyExtraLightEffect(threads: 1) == image.applyBlur(radius: 20, tintColor: Color(white: 0.97, alpha: 0.82), saturationDeltaFactor: 1.8, threads: 1))
        let peony = Color.palette["peony"]!
        #expect(image.applyTintEffect(color: peony, threads: 1) == image.applyBlur(radius: 10, tintColor: peony.withAlpha(0.6), saturationDeltaFactor: -1, threads: 1))
    }
}
