/// A rectangle with fractional coordinates (points in a scene, or pixels once scaled).
public struct Rect: Sendable, Equatable, Hashable {
    /// The left edge.
    public var x: Double
    /// The top edge (y grows down).
    public var y: Double
    /// Not negative in a valid scene.
    public var width: Double
    /// Not negative in a valid scene.
    public var height: Double

    /// The rectangle with its top-left corner at (`x`, `y`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The horizontal center.
    public var midX: Double { x + width / 2 }
    /// The vertical center.
    public var midY: Double { y + height / 2 }

    /// The same rectangle shrunk by `d` on every side (never below zero size).
    public func insetBy(_ d: Double) -> Rect {
        Rect(x: x + d, y: y + d, width: max(0, width - 2 * d), height: max(0, height - 2 * d))
    }

    /// Whether every pixel of `bounds` lies wholly inside the rectangle.
    public func covers(_ bounds: PixelBounds) -> Bool {
        x <= Double(bounds.x) && y <= Double(bounds.y) && maxX >= Double(bounds.maxX) && maxY >= Double(bounds.maxY)
    }

    /// The smallest whole-pixel bounds that contain the rectangle; coordinates beyond ±2⁴⁰ (no
    /// image is that large) are held there, and NaN counts as 0, so the conversion cannot trap.
    public var pixelBounds: PixelBounds {
        func whole(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
            v.isNaN ? 0 : Int(min(max(v, -0x1p40), 0x1p40).rounded(rule))
        }
        let x0 = whole(x, .down), y0 = whole(y, .down)
        return PixelBounds(x: x0, y: y0, width: max(0, whole(maxX, .up) - x0), height: max(0, whole(maxY, .up) - y0))
    }
}

/// A rectangle of whole pixels.
public struct PixelBounds: Sendable, Equatable, Hashable {
    /// The first column.
    public var x: Int
    /// The first row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// The pixels from (`x`, `y`), `width` columns by `height` rows.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }
    /// True when it holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels both bounds contain (empty when they do not meet).
    public func intersection(_ other: PixelBounds) -> PixelBounds {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        return PixelBounds(x: x0, y: y0, width: max(0, min(maxX, other.maxX) - x0),
                           height: max(0, min(maxY, other.maxY) - y0))
    }

    /// Grown by `d` pixels on every side.
    public func outset(by d: Int) -> PixelBounds {
        PixelBounds(x: x - d, y: y - d, width: width + 2 * d, height: height + 2 * d)
    }
}

extension Image {
    /// All the image's pixels: (0, 0, width, height).
    public var bounds: PixelBounds { PixelBounds(x: 0, y: 0, width: width, height: height) }
}
