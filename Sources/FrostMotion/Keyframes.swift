/// One property's keyframes: values at ascending driver values, eased between neighbours and
/// held beyond the first and last key (CSS's fill-mode both). A key may carry the easing of the
/// segment it starts (CSS keyframes' own animation-timing-function), else the animation's applies.
public struct Keyframes: Sendable, Equatable {
    /// A value at a driver value.
    public struct Key: Sendable, Equatable {
        /// The driver value (scroll offset in points, or time in seconds).
        public let at: Double
        /// One number, or several for a frame, a translation or a color.
        public let value: [Double]
        /// The easing from this key to the next, if not the animation's.
        public let easing: Easing?
        /// `value` at driver value `at`, eased to the next key by `easing` (nil: the animation's).
        public init(_ at: Double, _ value: [Double], easing: Easing? = nil) {
            self.at = at
            self.value = value
            self.easing = easing
        }
    }

    /// Strictly ascending in `at`.
    public let keys: [Key]
    /// Between keys without their own.
    public let easing: Easing

    /// Keys as given; `MotionScene.validate` checks that there is one at least, strictly
    /// ascending in `at`, each value as long as its property needs.
    public init(_ keys: [Key], easing: Easing = .linear) {
        self.keys = keys
        self.easing = easing
    }

    /// The value at driver value `d`.
    public func value(at d: Double) -> [Double] {
        guard !keys.isEmpty else { return [] }
        guard d > keys[0].at else { return keys[0].value }
        guard d < keys[keys.count - 1].at else { return keys[keys.count - 1].value }
        // The last key at or before d (few keys: a linear search).
        var i = 0
        while keys[i + 1].at <= d { i += 1 }
        let a = keys[i], b = keys[i + 1]
        let f = (a.easing ?? easing).fraction(elapsed: d - a.at, span: b.at - a.at)
        return zip(a.value, b.value).map { $0 + ($1 - $0) * f }
    }
}
