/// Scroll offset → fade fraction (docs/design.md, Seed apps).
public enum ScrollMapping {
    /// (y − start)/(end − start) clamped to [0, 1], optionally eased in and out (smoothstep 3t² − 2t³).
    public static func fraction(offset y: Double, start: Double, end: Double, ease: Bool = false) -> Double {
        guard end != start else { return y >= end ? 1 : 0 }
        let t = min(max((y - start) / (end - start), 0), 1)
        return ease ? t * t * (3 - 2 * t) : t
    }

    /// Secret's viewer: the blurred snapshot's alpha is min(1, 0.005·y).
    public static func secret(offset y: Double) -> Double { min(1, max(0, 0.005 * y)) }

    /// Twitter's header: p = (y − switch)/60 while y − switch ∈ (20, 60]; 0 before, 1 after.
    public static func twitter(offset y: Double, switchOffset: Double) -> Double {
        let d = y - switchOffset
        if d <= 20 { return 0 }
        return min(1, d / 60)
    }
}
