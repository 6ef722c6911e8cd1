/// A CSS `cubic-bezier(x1, y1, x2, y2)` timing function (CSS Easing Functions Level 1 §2.2): the
/// curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2). For an input progress x
/// the curve's parameter t with x(t) = x is solved (Newton's method, then bisection where the
/// slope is too flat), to 1e-7 in x, and y(t) is the output; x1 and x2 lie in [0, 1], so x(t)
/// rises and t is unique. y may leave [0, 1] (an overshooting curve).
public struct CubicBezier: Sendable, Equatable {
    /// The control points (x1, y1) and (x2, y2); x1 and x2 lie in [0, 1].
    public let x1: Double, y1: Double, x2: Double, y2: Double

    /// A curve as given; `MotionScene.validate` checks that x1 and x2 lie in [0, 1].
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// CSS's named curves.
    public static let ease = CubicBezier(0.25, 0.1, 0.25, 1)
    /// CSS `ease-in`.
    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    /// CSS `ease-out`.
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    /// CSS `ease-in-out`.
    public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)

    /// B(t) for one coordinate with control values a and b: 3(1−t)²t·a + 3(1−t)t²·b + t³.
    private static func bezier(_ t: Double, _ a: Double, _ b: Double) -> Double {
        ((1 - 3 * b + 3 * a) * t + (3 * b - 6 * a)) * t * t + 3 * a * t
    }

    private static func slope(_ t: Double, _ a: Double, _ b: Double) -> Double {
        3 * (1 - 3 * b + 3 * a) * t * t + 2 * (3 * b - 6 * a) * t + 3 * a
    }

    /// The curve's parameter t whose x is `x` (x clamped to [0, 1]).
    func parameter(forX x: Double) -> Double {
        let x = min(max(x, 0), 1)
        var t = x
        for _ in 0..<8 {
            let error = Self.bezier(t, x1, x2) - x
            if abs(error) < 1e-7 { return t }
            let d = Self.slope(t, x1, x2)
            if abs(d) < 1e-6 { break }
            t -= error / d
            if !(0...1).contains(t) { break }
        }
        var (lo, hi) = (0.0, 1.0)
        t = x
        while hi - lo > 1e-12 {
            let value = Self.bezier(t, x1, x2)
            if abs(value - x) < 1e-7 { return t }
            if value < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    /// The eased progress for input progress `x` ∈ [0, 1].
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return Self.bezier(parameter(forX: x), y1, y2)
    }
}
