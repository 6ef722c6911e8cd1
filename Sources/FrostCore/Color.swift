/// A straight-alpha sRGB color with components in 0...1, as UIColor holds it.
public struct Color: Sendable, Equatable, Hashable, Codable {
    /// 0 to 1, straight (not premultiplied).
    public var red: Double
    /// 0 to 1, straight.
    public var green: Double
    /// 0 to 1, straight.
    public var blue: Double
    /// 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A color from straight components from 0 to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// UIColor(white:alpha:).
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// 8-bit components.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
    }

    /// Opaque white.
    public static let white = Color(white: 1)
    /// Opaque black.
    public static let black = Color(white: 0)
    /// Transparent.
    public static let clear = Color(white: 0, alpha: 0)

    /// Secret's text-view background palette (docs/design.md, Seed apps).
    public static let palette: [String: Color] = [
        "emerald-sea": Color(r: 18, g: 133, b: 116), "hopscotch": Color(r: 157, g: 105, b: 183),
        "lavender": Color(r: 100, g: 57, b: 144), "burst": Color(r: 213, g: 100, b: 12),
        "cupid": Color(r: 157, g: 30, b: 38), "peony": Color(r: 220, g: 72, b: 99),
        "midnight": Color(r: 39, g: 36, b: 32), "default": .white,
        "white": .white, "black": .black, "clear": .clear,
    ]

    /// The same color with another alpha.
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// Parses the palette's names (Secret's colours, which win over CSS's `lavender`), CSS colours
    /// (names, `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)`) and
    /// `white:W@A` (or `white:W`).
    public init(parsing text: String) throws(ColorParseError) {
        let s = text.trimmingCharacters(in: " ").lowercased()
        if let named = Color.palette[s] {
            self = named
        } else if let css = Color.css(s) {
            self = css
        } else if s.hasPrefix("white:") {
            let parts = s.dropFirst(6).split(separator: "@", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let w = Double(parts[0]), (0...1).contains(w) else {
                throw ColorParseError(text: text)
            }
            let a = parts.count == 2 ? Double(parts[1]) : 1
            guard let a, (0...1).contains(a) else { throw ColorParseError(text: text) }
            self.init(white: w, alpha: a)
        } else {
            throw ColorParseError(text: text)
        }
    }

    /// Premultiplied components scaled to 0...255 (not rounded).
    public var premultiplied255: SIMD4<Double> {
        SIMD4(red * alpha, green * alpha, blue * alpha, alpha) * 255
    }
}

/// Rec.709 luma of 8-bit R, G, B, rounded; weights in 1/256 units (54 + 183 + 19 = 256). On
/// premultiplied samples this is luma × alpha, a luminance mask's coverage.
@inlinable
@_spi(Kernels) public func rec709Luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
    let sum: UInt32 = 54 * UInt32(r) + 183 * UInt32(g) + 19 * UInt32(b)
    return UInt8((sum + 128) >> 8)
}

/// A COLOR string that names no color.
public struct ColorParseError: Error, CustomStringConvertible, Sendable {
    /// The string as given.
    public let text: String
    public var description: String {
        "'\(text)' is not a color (use a CSS colour: a name such as red, #f00, #ff000080, rgb(255 0 0 / 50%) or transparent; "
            + "white:W@A; or one of " + Color.palette.keys.sorted().joined(separator: ", ") + ")"
    }
}

private extension String {
    func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s.removeFirst() }
        while s.last == character { s.removeLast() }
        return String(s)
    }
}
