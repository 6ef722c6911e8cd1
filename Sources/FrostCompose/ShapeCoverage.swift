import FrostCore

/// Anti-aliased coverage (0…255 per pixel) of axis-aligned rounded rectangles over whole pixels.
///
/// Straight edges are exact: a pixel's coverage is the product of the lengths of its x and y
/// spans inside the rectangle. Inside a corner square the arc uses the distance to the corner's
/// circle, coverage = clamp(r − d + ½, 0, 1) (the signed-distance ramp, area-exact to first order),
/// taken as the minimum with the straight-edge value so tangent points are not counted twice.
enum ShapeCoverage {
    /// Coverage of `rect` with corner `radius` (pixels), over the pixels of `bounds`, row-major.
    static func roundedRect(_ rect: Rect, radius: Double, bounds: PixelBounds) -> [UInt8] {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        let xs = spans(from: rect.x, to: rect.maxX, start: bounds.x, count: bounds.width)
        let ys = spans(from: rect.y, to: rect.maxY, start: bounds.y, count: bounds.height)
        // Straight edges: the product of the row's and the column's span.
        let fullRow = xs.map { UInt8(($0 * 255).rounded()) }
        var out = [UInt8](repeating: 0, count: bounds.width * bounds.height)
        for j in 0..<bounds.height where ys[j] > 0 {
            let start = j * bounds.width
            if ys[j] == 1 {
                out.replaceSubrange(start..<(start + bounds.width), with: fullRow)
            } else {
                for i in 0..<bounds.width { out[start + i] = UInt8((xs[i] * ys[j] * 255).rounded()) }
            }
        }
        // Corner squares: the arc, as the minimum with the straight-edge value.
        guard r > 0 else { return out }
        let left = rect.x, right = rect.maxX - r, top = rect.y, bottom = rect.maxY - r
        for (isLeft, isTop) in [(true, true), (false, true), (true, false), (false, false)] {
            let sx = isLeft ? left : right, sy = isTop ? top : bottom
            let square = Rect(x: sx, y: sy, width: r, height: r)
            // The circle's center is the square's corner that points into the rectangle.
            let cx = isLeft ? sx + r : sx, cy = isTop ? sy + r : sy
            let area = square.pixelBounds.intersection(bounds)
            guard !area.isEmpty else { continue }
            for y in area.y..<area.maxY {
                let py = Double(y) + 0.5
                // A corner owns the pixels whose centers lie beyond its circle's center on both axes
                // (centers just outside the rectangle included: their pixels are partly inside).
                guard isTop ? py < cy : py >= cy else { continue }
                for x in area.x..<area.maxX {
                    let px = Double(x) + 0.5
                    guard isLeft ? px < cx : px >= cx else { continue }
                    let d = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
                    let o = (y - bounds.y) * bounds.width + x - bounds.x
                    out[o] = min(out[o], UInt8((max(0, min(1, r - d + 0.5)) * 255).rounded()))
                }
            }
        }
        return out
    }

    /// Coverage of the ring between `rect` and `rect` inset by `width` (a CALayer border).
    static func border(_ rect: Rect, radius: Double, width: Double, bounds: PixelBounds) -> [UInt8] {
        let outer = roundedRect(rect, radius: radius, bounds: bounds)
        let inner = roundedRect(rect.insetBy(width), radius: max(0, radius - width), bounds: bounds)
        return zip(outer, inner).map { $0 > $1 ? $0 - $1 : 0 }
    }

    /// True when `rect` covers whole pixels only: no anti-aliased edge, so no coverage is needed.
    static func isPixelAligned(_ rect: Rect, radius: Double) -> Bool {
        radius <= 0 && [rect.x, rect.y, rect.maxX, rect.maxY].allSatisfy { $0 == $0.rounded() }
    }

    /// Length of [start + i, start + i + 1) ∩ [lo, hi) for each i.
    private static func spans(from lo: Double, to hi: Double, start: Int, count: Int) -> [Double] {
        (0..<count).map { i in
            let a = Double(start + i)
            return max(0, min(a + 1, hi) - max(a, lo))
        }
    }
}
