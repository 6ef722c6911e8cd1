/// How a property moves between two keys: the fraction of the way from the first key's value to
/// the second's, given how far the driver is between them.
public enum Easing: Sendable, Equatable {
    /// Proportional to the distance between the keys.
    case linear
    /// A CSS cubic-bezier curve.
    case cubicBezier(CubicBezier)
    /// Holds the earlier key's value until the next key.
    case step
    /// A spring from the earlier value to the later one, its clock the driver's distance from the
    /// earlier key (seconds for time, points for scroll); it may overshoot before the later key.
    case spring(Spring)

    /// The fraction at `elapsed` driver units past the earlier key, of `span` units between keys.
    public func fraction(elapsed: Double, span: Double) -> Double {
        let u = span > 0 ? min(max(elapsed / span, 0), 1) : 1
        switch self {
        case .linear: return u
        case .cubicBezier(let curve): return curve.value(at: u)
        case .step: return u >= 1 ? 1 : 0
        case .spring(let spring): return spring.value(at: elapsed)
        }
    }
}
