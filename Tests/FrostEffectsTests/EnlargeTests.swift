@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// The bilinear enlargement (four outputs per step, edge runs one by one) against a scalar
/// evaluation of its definition in Double: `Resample.position` on each axis, vertical lerp, then
/// horizontal lerp.
@Suite struct EnlargeTests {
    /// Arbitrary premultiplied-flagged samples (the kernel does not care whether c ≤ α).
    static func reducedNoise(width: Int, height: Int, seed: UInt64) -> Image {
        let noise = noiseImage(width: width, height: height, seed: seed)
        return Image(width: width, height: height, pixels: noise.pixels, isPremultiplied: true, hasAlpha: true)
    }

    /// Output (x, y) of `image` enlarged by f with margin m, channel c, before rounding.
    static func reference(_ image: Image, factor f: Int, margin m: Int, x: Int, y: Int, channel c: Int) -> Double {
        let (j, ty) = Resample.position(y, factor: f, margin: m, limit: image.height)
        let (i, tx) = Resample.position(x, factor: f, margin: m, limit: image.width)
        func sample(_ i: Int, _ j: Int) -> Double { Double(image.pixels[(j * image.width + i) * 4 + c]) }
        func column(_ i: Int) -> Double {
            let a = sample(i, j)
            return a + (sample(i, min(j + 1, image.height - 1)) - a) * Double(ty)
        }
        let left = column(i)
        return left + (column(min(i + 1, image.width - 1)) - left) * Double(tx)
    }

    /// Each 8.7 lerp is within 1/128 of a level of its exact value (EnlargedRows), so `lerps` of
    /// them may round one level away from the Double value, only within lerps/128 of a tie.
    static func expectMatches(_ value: UInt8, _ exact: Double, lerps: Int = 2, _ context: @autoclosure () -> String) {
        let nearTie = abs(exact - exact.rounded(.down) - 0.5) <= Double(lerps) / 128 + 1e-9
        let expected = Int(min(max(exact, 0), 255).rounded(.toNearestOrEven))
        #expect(abs(Int(value) - expected) <= (nearTie ? 1 : 0), "\(context()): \(value) vs \(exact)")
    }

    /// Every factor the blurs and caches use, with and without margin, widths that are and are not
    /// whole multiples of the factor (so the bulk loop, both edge runs and the tail all run).
    static let shapes: [(factor: Int, margin: Int, width: Int, height: Int)] = [
        (1, 0, 13, 5), (1, 2, 9, 4), (2, 0, 37, 6), (2, 1, 38, 7), (4, 0, 33, 9), (4, 1, 61, 10),
        (4, 3, 64, 5), (8, 1, 75, 17), (8, 0, 16, 9), (16, 1, 70, 20),
    ]

    @Test(arguments: shapes.indices)
    func bytesMatchDefinition(_ index: Int) {
        let (f, m, w, h) = Self.shapes[index]
        let reduced = Self.reducedNoise(width: (w + f - 1) / f + 2 * m, height: (h + f - 1) / f + 2 * m, seed: UInt64(index + 1))
        let out = reduced.enlarged(by: f, margin: m, toWidth: w, height: h, threads: 1)
        #expect(out.width == w && out.height == h)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    Self.expectMatches(out.pixels[(y * w + x) * 4 + c], Self.reference(reduced, factor: f, margin: m, x: x, y: y, channel: c),
                                       "f \(f) m \(m) (\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    /// The rows a crossfade blends: (1 − t)·A + t·B of two enlargements at different factors (a
    /// third lerp).
    @Test func blendOfEnlargementsMatchesDefinition() {
        let (w, h) = (45, 23)
        let a = Self.reducedNoise(width: (w + 1) / 2 + 2, height: (h + 1) / 2 + 2, seed: 7)
        let b = Self.reducedNoise(width: (w + 7) / 8 + 2, height: (h + 7) / 8 + 2, seed: 8)
        let t = 0.37
        let out = Image.enlargedBlend(a, factor: 2, margin: 1, b, factor: 8, margin: 1, fraction: t, width: w, height: h, threads: 1)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    let p = Self.reference(a, factor: 2, margin: 1, x: x, y: y, channel: c)
                    let q = Self.reference(b, factor: 8, margin: 1, x: x, y: y, channel: c)
                    Self.expectMatches(out.pixels[(y * w + x) * 4 + c], p + (q - p) * t, lerps: 3, "(\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    /// At t = 0 and t = 1 a blend of enlargements is the one enlargement, bit for bit.
    @Test func blendOfEnlargementsAtTheEndsIsOneEnlargement() {
        let (w, h) = (37, 19)
        let a = Self.reducedNoise(width: (w + 3) / 4 + 2, height: (h + 3) / 4 + 2, seed: 3)
        let b = Self.reducedNoise(width: (w + 1) / 2 + 2, height: (h + 1) / 2 + 2, seed: 4)
        for (t, image, f) in [(0.0, a, 4), (1.0, b, 2)] {
            let blend = Image.enlargedBlend(a, factor: 4, margin: 1, b, factor: 2, margin: 1, fraction: t, width: w, height: h, threads: 1)
            #expect(blend.pixels == image.enlarged(by: f, margin: 1, toWidth: w, height: h, threads: 1).pixels, "t = \(t)")
        }
    }
}
