/// imgproxy's gravity (its processing/gravity_type.go and calc_position.go): where a crop, an
/// extension or a watermark goes. Offsets move the part inward from the edge the gravity names
/// (from `ea` to the left, from `so` up; from the centre right and down); an offset of magnitude 1
/// or more is in pixels, times the dpr; a smaller one is a fraction of the outer size. `fp:X:Y`
/// centres the part on the point (fractions of the width and height); `sm` is for crops only
/// (where the picture draws the eye), `re` for watermarks only (tiled).
public struct Gravity: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case centre = "ce", north = "no", east = "ea", south = "so", west = "we"
        case northWest = "nowe", northEast = "noea", southWest = "sowe", southEast = "soea"
        case smart = "sm", focusPoint = "fp", replicate = "re"

        /// The nine positions every gravity option takes.
        static let positions: [Kind] = [.centre, .north, .east, .south, .west, .northWest, .northEast, .southWest, .southEast]
    }

    public var kind: Kind
    /// The offsets, or the focus point's fractions.
    public var x: Double, y: Double

    public init(_ kind: Kind = .centre, x: Double = 0, y: Double = 0) {
        self.kind = kind
        self.x = x
        self.y = y
    }

    /// Where the top-left corner of an `inner` part goes in an `outer` whole: kept inside it, or
    /// (`allowOverflow`, a watermark) overlapping it by at least a pixel.
    public func position(outer: (width: Int, height: Int), inner: (width: Int, height: Int), dpr: Double,
                         allowOverflow: Bool = false) -> (x: Int, y: Int) {
        let (width, height) = outer, (innerWidth, innerHeight) = inner
        var left: Int, top: Int
        if kind == .focusPoint {
            left = PixelRounding.scaleToEven(width, x) - innerWidth / 2
            top = PixelRounding.scaleToEven(height, y) - innerHeight / 2
        } else {
            let offX = abs(x) >= 1 ? PixelRounding.roundToEven(x * dpr) : PixelRounding.scaleToEven(width, x)
            let offY = abs(y) >= 1 ? PixelRounding.roundToEven(y * dpr) : PixelRounding.scaleToEven(height, y)
            // The centre of an odd difference rounds half to even, as imgproxy's.
            left = PixelRounding.shrinkToEven(width - innerWidth + 1, 2) + offX
            top = PixelRounding.shrinkToEven(height - innerHeight + 1, 2) + offY
            if [.north, .northEast, .northWest].contains(kind) { top = offY }
            if [.east, .northEast, .southEast].contains(kind) { left = width - innerWidth - offX }
            if [.south, .southEast, .southWest].contains(kind) { top = height - innerHeight - offY }
            if [.west, .northWest, .southWest].contains(kind) { left = offX }
        }
        let (minX, maxX, minY, maxY) = allowOverflow
            ? (-innerWidth + 1, width - 1, -innerHeight + 1, height - 1)
            : (0, width - innerWidth, 0, height - innerHeight)
        return (max(minX, min(left, maxX)), max(minY, min(top, maxY)))
    }

    /// The canonical text of the gravity (part of a result's identity).
    var identity: String { "\(kind.rawValue),\(x),\(y)" }
}
