/// imgproxy's rounding of sizes and offsets (its `imath` package), so that every size and position
/// comes out as imgproxy's does: `scale` rounds half away from zero (Go's `math.Round`), the
/// `toEven` forms round half to even (`math.RoundToEven`), and a size of 0 stays 0 ("not given").
/// Every conversion to Int is clamped, so that no URL's number (`w:9999999999999/dpr:1e300`)
/// traps: a size that large is refused by the pixel limit afterwards.
enum PixelRounding {
    /// The largest magnitude a size or offset takes (2^52: exact in a Double, far past any limit).
    static let largest = Double(1 << 52)

    /// `value` as an Int, clamped to ±2^52 (NaN: 0).
    static func int(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(max(value, -largest), largest))
    }

    static func round(_ value: Double) -> Int { int(value.rounded()) }

    static func roundToEven(_ value: Double) -> Int { int(value.rounded(.toNearestOrEven)) }

    /// `a × factor` rounded (`imath.Scale`).
    static func scale(_ a: Int, _ factor: Double) -> Int { a == 0 ? 0 : round(Double(a) * factor) }

    /// `a × factor` rounded half to even (`imath.ScaleToEven`).
    static func scaleToEven(_ a: Int, _ factor: Double) -> Int { a == 0 ? 0 : roundToEven(Double(a) * factor) }

    /// `a / divisor` rounded half to even (`imath.ShrinkToEven`).
    static func shrinkToEven(_ a: Int, _ divisor: Double) -> Int { a == 0 ? 0 : roundToEven(Double(a) / divisor) }

    /// The smaller of two sizes where 0 means "not given" (`imath.MinNonZero`).
    static func minNonZero(_ a: Int, _ b: Int) -> Int { a == 0 ? b : b == 0 ? a : min(a, b) }

    /// The sum of sizes, clamped as `int` clamps.
    static func sum(_ sizes: Int...) -> Int { int(sizes.reduce(0.0) { $0 + Double($1) }) }
}
