import Foundation
import FrostCore

/// The crop a "smart" gravity keeps (imgproxy's `g:sm`, libvips's `vips_smartcrop` with its
/// default "attention" measure, which imgproxy calls): where the picture holds edges, skin tones
/// and saturated colour. As libvips: in CIE L*a*b*, the Sobel magnitude |Gx| + |Gy| of L*, plus 255
/// where a* is 3…22 and b* 4…31 with L* ≥ 15 (skin, its ranges trained on the Humanae portraits),
/// plus 255 where the chroma C*ab passes 60; the sum averaged on a 32×32 grid, blurred with σ =
/// (the crop's diagonal in grid cells) / 6, and the crop centred on the maximum. The features are
/// measured on a copy at most 256 pixels across (the grid places the crop no finer), and a picture
/// that scores the same everywhere (a flat one) is cropped at its centre.
extension Image {
    public func attentionCrop(width w: Int, height h: Int) -> PixelBounds {
        let (w, h) = (min(max(w, 1), width), min(max(h, 1), height))
        guard w < width || h < height else { return PixelBounds(x: 0, y: 0, width: width, height: height) }
        let grid = AttentionGrid(measuring: self)
        let (cellWidth, cellHeight) = (Double(width) / Double(AttentionGrid.side), Double(height) / Double(AttentionGrid.side))
        let sigma = (Double(w) / cellWidth).hypot(Double(h) / cellHeight) / 6
        let scores = grid.blurred(sigma: sigma)
        let (peak, cx, cy) = scores.peak
        let flat = peak - (scores.cells.min() ?? peak) <= 1e-9 * max(1, peak)
        let centre = flat ? (Double(width) / 2, Double(height) / 2) : ((Double(cx) + 0.5) * cellWidth, (Double(cy) + 0.5) * cellHeight)
        let x = min(max(Int((centre.0 - Double(w) / 2).rounded()), 0), width - w)
        let y = min(max(Int((centre.1 - Double(h) / 2).rounded()), 0), height - h)
        return PixelBounds(x: x, y: y, width: w, height: h)
    }
}

/// The attention score averaged over a 32×32 grid of the picture.
struct AttentionGrid {
    static let side = 32
    /// Longest side of the copy the features are measured on.
    static let measuredSide = 256
    private(set) var cells: [Double]

    init(measuring image: Image) {
        let k = min(1, Double(Self.measuredSide) / Double(max(image.width, image.height)))
        let small = (k < 1 ? image.resized(width: max(1, Int((Double(image.width) * k).rounded())),
                                           height: max(1, Int((Double(image.height) * k).rounded()))) : image).unpremultiplied()
        let (w, h) = (small.width, small.height)
        // L*, a*, b* of every pixel (D65, sRGB primaries).
        var lab = [(Double, Double, Double)](repeating: (0, 0, 0), count: w * h)
        small.pixels.withUnsafeBufferPointer { p in
            for i in 0..<(w * h) { lab[i] = Self.lab(p[i * 4], p[i * 4 + 1], p[i * 4 + 2]) }
        }
        var sums = [Double](repeating: 0, count: Self.side * Self.side), counts = sums
        for y in 0..<h {
            for x in 0..<w {
                func l(_ dx: Int, _ dy: Int) -> Double { lab[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)].0 }
                let gx = l(1, -1) + 2 * l(1, 0) + l(1, 1) - l(-1, -1) - 2 * l(-1, 0) - l(-1, 1)
                let gy = l(-1, 1) + 2 * l(0, 1) + l(1, 1) - l(-1, -1) - 2 * l(0, -1) - l(1, -1)
                let (L, a, b) = lab[y * w + x]
                var score = abs(gx) + abs(gy)
                if (3...22).contains(a), (4...31).contains(b), L >= 15 { score += 255 }
                if a.hypot(b) > 60 { score += 255 }
                let cell = (y * Self.side / h) * Self.side + x * Self.side / w
                sums[cell] += score
                counts[cell] += 1
            }
        }
        cells = zip(sums, counts).map { $1 > 0 ? $0 / $1 : 0 }
    }

    /// The grid blurred by a Gaussian of `sigma` cells (edges clamped), separably.
    func blurred(sigma: Double) -> AttentionGrid {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        let n = Self.side
        func pass(_ input: [Double], _ index: (Int, Int) -> Int) -> [Double] {
            var out = input
            for row in 0..<n {
                for col in 0..<n {
                    var sum = 0.0
                    for (k, weight) in weights.enumerated() { sum += weight * input[index(row, min(max(col + k - radius, 0), n - 1))] }
                    out[index(row, col)] = sum / total
                }
            }
            return out
        }
        var copy = self
        copy.cells = pass(pass(cells) { $0 * n + $1 }) { $1 * n + $0 }
        return copy
    }

    /// The largest cell's value and place (the first in reading order).
    var peak: (value: Double, x: Int, y: Int) {
        var best = (value: -Double.infinity, x: 0, y: 0)
        for (i, value) in cells.enumerated() where value > best.value { best = (value, i % Self.side, i / Self.side) }
        return best
    }

    /// CIE L*a*b* of an sRGB pixel (IEC 61966-2-1, D65 white).
    static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> (Double, Double, Double) {
        let (lr, lg, lb) = (Double(LinearLight.lights[Int(r)]), Double(LinearLight.lights[Int(g)]), Double(LinearLight.lights[Int(b)]))
        let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
        let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
        let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x), f(y), f(z))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }
}

private extension Double {
    func hypot(_ other: Double) -> Double { Foundation.hypot(self, other) }
}
