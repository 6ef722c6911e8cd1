#if canImport(Glibc)
import Glibc
#endif

/// A damped harmonic oscillator of mass 1 pulled from 0 to 1: x'' = −k(x − 1) − c·x', x(0) = 0,
/// x'(0) = v. Its closed-form solution is evaluated directly (no simulation steps), so any time
/// gives the same value whatever was asked before; with ζ < 1 it overshoots 1 and rings.
///
/// With ω₀ = √k and ζ = c / (2ω₀), u = x − 1 (u(0) = −1, u'(0) = v):
/// - ζ < 1: u = e^(−ζω₀t)(−cos ω_d t + ((v − ζω₀)/ω_d) sin ω_d t), ω_d = ω₀√(1 − ζ²);
/// - ζ = 1: u = (−1 + (v − ω₀)t) e^(−ω₀t);
/// - ζ > 1: u = A e^(r₁t) + B e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)), A = (v + r₂)/(r₁ − r₂), B = −1 − A.
public struct Spring: Sendable, Equatable {
    /// Undamped angular frequency ω₀ (rad/s): stiffness ω₀², mass 1.
    public let omega: Double
    /// Damping ratio ζ: damping 2ζω₀.
    public let dampingRatio: Double
    /// Initial velocity in whole distances per second (UIKit's initialSpringVelocity).
    public let velocity: Double

    /// A spring as given; `MotionScene.validate` checks ω₀ > 0 (finite), ζ from 0 to 100 and |v| ≤ 1000.
    public init(omega: Double, dampingRatio: Double, velocity: Double = 0) {
        self.omega = omega
        self.dampingRatio = dampingRatio
        self.velocity = velocity
    }

    /// SwiftUI's `spring(response:dampingFraction:)`: mass 1, stiffness (2π/R)², damping 4πζ/R.
    public init(response: Double, dampingFraction: Double) {
        self.init(omega: 2 * Double.pi / response, dampingRatio: dampingFraction)
    }

    /// UIKit's `animate(withDuration:usingSpringWithDamping:initialSpringVelocity:)`. UIKit does not
    /// publish how the duration sets the stiffness; Frost takes it as Apple's later spring APIs do
    /// (UIView.animate(springDuration:bounce:), SwiftUI's Spring(duration:bounce:)): the duration
    /// is the perceptual duration, the response, so ω₀ = 2π/D.
    public init(duration: Double, dampingRatio: Double, velocity: Double = 0) {
        self.init(omega: 2 * Double.pi / duration, dampingRatio: dampingRatio, velocity: velocity)
    }

    /// x(t): 0 at t = 0, tending to 1.
    public func value(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let w = omega, z = dampingRatio, v = velocity
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            return 1 + exp(-z * w * t) * (-cos(wd * t) + (v - z * w) / wd * sin(wd * t))
        }
        if z == 1 {
            return 1 + (-1 + (v - w) * t) * exp(-w * t)
        }
        let root = (z * z - 1).squareRoot()
        let r1 = -w * (z - root), r2 = -w * (z + root)
        let a = (v + r2) / (r1 - r2), b = -1 - a
        return 1 + a * exp(r1 * t) + b * exp(r2 * t)
    }
}
