import ArgumentParser

/// A numeric option's documented range, stated once: its help prints it ("0 to 500", "above 0 up
/// to 4") and its validation checks against it, so the two cannot disagree. OptionSweepTests runs
/// every verb at the bounds each help prints and just outside them.
struct OptionRange: CustomStringConvertible, Sendable {
    let lower: Double
    let upper: Double
    /// Whether `lower` itself is outside the range.
    let excludesLower: Bool

    init(_ lower: Double, _ upper: Double, excludingLower: Bool = false) {
        (self.lower, self.upper, self.excludesLower) = (lower, upper, excludingLower)
    }

    init(_ range: ClosedRange<Double>) { self.init(range.lowerBound, range.upperBound) }
    init(_ range: ClosedRange<Int>) { self.init(Double(range.lowerBound), Double(range.upperBound)) }

    var description: String {
        excludesLower ? "above \(decimal(lower)) up to \(decimal(upper))" : "\(decimal(lower)) to \(decimal(upper))"
    }

    func contains(_ value: Double) -> Bool {
        value.isFinite && value <= upper && (excludesLower ? value > lower : value >= lower)
    }

    /// Throws "--name must be between 0 and 500" for a value outside (nil: not given, nothing to check).
    func check(_ value: Double?, _ option: String) throws {
        guard let value else { return }
        guard contains(value) else {
            let range = excludesLower ? "above \(decimal(lower)) and at most \(decimal(upper))"
                : "between \(decimal(lower)) and \(decimal(upper))"
            throw ValidationError("\(option) must be \(range)")
        }
    }

    func check(_ value: Int?, _ option: String) throws {
        try check(value.map(Double.init), option)
    }
}
