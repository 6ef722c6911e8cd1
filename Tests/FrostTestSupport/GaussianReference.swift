@_spi(Kernels) import FrostCore
import Foundation

/// The exact float64 separable gaussian with extended edges, written independently of Frost's
/// blur: for each axis, output x = Σ_k g(k)·in[clamp(x+k)] with g the sampled gaussian over
/// |k| ≤ ⌈6σ⌉ normalised to 1. Clamping folds the tails into the edge pixels, so each axis is a
/// dense n×n matrix; results stay in Double until the caller rounds them.
public enum GaussianReference {
    public static func matrix(size n: Int, sigma: Double) -> [Double] {
        let radius = Int((6 * sigma).rounded(.up))
        var g = (-radius...radius).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let total = g.reduce(0, +)
        g = g.map { $0 / total }
        var m = [Double](repeating: 0, count: n * n)
        for x in 0..<n {
            for (i, k) in (-radius...radius).enumerated() {
                m[x * n + min(max(x + k, 0), n - 1)] += g[i]
            }
        }
        return m
    }

    /// Blurs premultiplied RGBA samples; returns Doubles (same layout).
    public static func blur(_ image: Image, sigma: Double) -> [Double] {
        let w = image.width, h = image.height
        let src = image.premultiplied().pixels.map(Double.init)
        let mx = matrix(size: w, sigma: sigma), my = matrix(size: h, sigma: sigma)
        var rows = [Double](repeating: 0, count: src.count)
        for y in 0..<h {
            for x in 0..<w {
                var acc = SIMD4<Double>(repeating: 0)
                for s in 0..<w where mx[x * w + s] != 0 {
                    let i = (y * w + s) * 4
                    acc += mx[x * w + s] * SIMD4(src[i], src[i + 1], src[i + 2], src[i + 3])
                }
                for c in 0..<4 { rows[(y * w + x) * 4 + c] = acc[c] }
            }
        }
        var out = [Double](repeating: 0, count: src.count)
        for y in 0..<h {
            for s in 0..<h where my[y * h + s] != 0 {
                let weight = my[y * h + s]
                for i in 0..<(w * 4) { out[y * w * 4 + i] += weight * rows[s * w * 4 + i] }
            }
        }
        return out
    }

    /// Max and mean absolute difference, in 8-bit levels, between Frost's pixels and the
    /// reference rounded to 8 bits. (Against the unrounded reference even a perfect 8-bit result
    /// averages 0.25 on samples with uniform fractions: that is rounding, not blur error.)
    public static func error(_ frost: Image, _ reference: [Double]) -> (max: Double, mean: Double) {
        var worst = 0.0, total = 0.0
        for (i, v) in frost.pixels.enumerated() {
            let d = abs(Double(v) - reference[i].rounded())
            worst = max(worst, d)
            total += d
        }
        return (worst, total / Double(reference.count))
    }
}

extension Image {
    /// A w×h crop at (x, y).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Image {
        var pixels = [UInt8]()
        pixels.reserveCapacity(w * h * 4)
        for row in y..<(y + h) {
            let start = (row * width + x) * 4
            pixels += self.pixels[start..<(start + w * 4)]
        }
        return Image(width: w, height: h, pixels: pixels, isPremultiplied: isPremultiplied, hasAlpha: hasAlpha, isGray: isGray)
    }
}
