@testable import FrostMotion
import Foundation
import Testing

/// Keyframes, CSS easing, springs and timelines against references written here.
@Suite struct TimingTests {
    @Test func keyframesInterpolateAndHoldBeyondTheEnds() {
        let k = Keyframes([.init(0, [0, 10]), .init(10, [100, 20]), .init(20, [50, 20])])
        #expect(k.value(at: -5) == [0, 10])
        #expect(k.value(at: 0) == [0, 10])
        #expect(k.value(at: 2.5) == [25, 12.5])
        #expect(k.value(at: 10) == [100, 20])
        #expect(k.value(at: 15) == [75, 20])
        #expect(k.value(at: 20) == [50, 20])
        #expect(k.value(at: 1e9) == [50, 20])
        #expect(Keyframes([.init(3, [7])]).value(at: -1) == [7])
    }

    @Test func stepHoldsTheEarlierKeyAndKeysMayCarryTheirOwnEasing() {
        let step = Keyframes([.init(0, [0]), .init(10, [1]), .init(20, [2])], easing: .step)
        #expect(step.value(at: 9.999) == [0] && step.value(at: 10) == [1] && step.value(at: 19) == [1] && step.value(at: 25) == [2])
        // Twitter's blur progress: 0 until 116, then 1/3 rising linearly to 1 at 156.
        let twitter = Keyframes([.init(96, [0], easing: .step), .init(116, [1.0 / 3]), .init(156, [1])])
        #expect(twitter.value(at: 115.9) == [0])
        #expect(abs(twitter.value(at: 136)[0] - 2.0 / 3) < 1e-12)
    }

    /// x(t) and y(t) of a cubic bezier, solved for x by bisection to 1e-14: an independent reference.
    static func reference(_ c: CubicBezier, _ x: Double) -> Double {
        func b(_ t: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        var (lo, hi) = (0.0, 1.0)
        while hi - lo > 1e-14 { let mid = (lo + hi) / 2; if b(mid, c.x1, c.x2) < x { lo = mid } else { hi = mid } }
        return b((lo + hi) / 2, c.y1, c.y2)
    }

    @Test(arguments: [CubicBezier.ease, .easeIn, .easeOut, .easeInOut, CubicBezier(0.68, -0.55, 0.27, 1.55), CubicBezier(0, 1, 1, 0)])
    func cubicBezierIsSolvedAsCSSDoes(_ curve: CubicBezier) {
        for i in 0...200 {
            let x = Double(i) / 200
            #expect(abs(curve.value(at: x) - Self.reference(curve, x)) < 1e-5, "x \(x)")
        }
        #expect(curve.value(at: 0) == 0 && curve.value(at: 1) == 1)
    }

    /// Published values: ease-in-out is symmetric (0.5 at 0.5); CSS `ease` at x = 0.5 is 0.8024
    /// (WebKit's UnitBezier, the curve's y where x(t) = 0.5); linear-looking curves are the identity.
    @Test func cssNamedCurvesHaveTheirPublishedValues() {
        #expect(abs(CubicBezier.easeInOut.value(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(CubicBezier.ease.value(at: 0.5) - 0.8024) < 1e-4)
        #expect(abs(CubicBezier.easeIn.value(at: 0.5) - 0.3153) < 1e-4)
        #expect(abs(CubicBezier.easeOut.value(at: 0.5) - 0.6847) < 1e-4)
        #expect(abs(CubicBezier(0.25, 0.25, 0.75, 0.75).value(at: 0.3) - 0.3) < 1e-6)
        // An overshooting curve leaves [0, 1].
        #expect(CubicBezier(0.68, -0.55, 0.27, 1.55).value(at: 0.9) > 1)
    }

    /// x'' = ω₀²(1 − x) − 2ζω₀x' integrated by RK4 with a small step: the reference for the closed forms.
    static func integrated(_ s: Spring, until t: Double) -> Double {
        var (x, v) = (0.0, s.velocity)
        let steps = Int(t / 1e-5), h = t / Double(max(steps, 1))
        func a(_ x: Double, _ v: Double) -> Double { s.omega * s.omega * (1 - x) - 2 * s.dampingRatio * s.omega * v }
        for _ in 0..<steps {
            let k1x = v, k1v = a(x, v)
            let k2x = v + h / 2 * k1v, k2v = a(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = a(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return x
    }

    @Test(arguments: [Spring(response: 0.5, dampingFraction: 0.8), Spring(response: 0.5, dampingFraction: 0.4),
                      Spring(response: 0.3, dampingFraction: 1), Spring(response: 0.6, dampingFraction: 1.6),
                      Spring(duration: 0.5, dampingRatio: 0.4, velocity: 3), Spring(duration: 0.8, dampingRatio: 1, velocity: -2),
                      Spring(duration: 0.4, dampingRatio: 2, velocity: 5)])
    func springsFollowTheDampedOscillator(_ spring: Spring) {
        for t in [0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.8, 1.2] {
            #expect(abs(spring.value(at: t) - Self.integrated(spring, until: t)) < 1e-6, "t \(t)")
        }
        #expect(spring.value(at: 0) == 0)
        #expect(abs(spring.value(at: 10) - 1) < 1e-6)
    }

    @Test func swiftUIParametersAndOvershoot() {
        let s = Spring(response: 0.5, dampingFraction: 0.8)
        #expect(abs(s.omega - 4 * Double.pi) < 1e-12)   // stiffness (2π/R)² = 16π², damping 2ζω₀ = 4πζ/R
        #expect(abs(2 * s.dampingRatio * s.omega - 4 * Double.pi * 0.8 / 0.5) < 1e-12)
        let under = (1...300).map { Spring(response: 0.5, dampingFraction: 0.4).value(at: Double($0) / 200) }
        #expect(under.max()! > 1.2)   // ζ 0.4 overshoots by e^(−πζ/√(1−ζ²)) ≈ 25%
        let critical = (1...300).map { Spring(response: 0.5, dampingFraction: 1).value(at: Double($0) / 200) }
        #expect(critical.max()! <= 1 && zip(critical, critical.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func timelinesIncludeBothEnds() {
        #expect(Timeline.scroll(from: -80, to: 300, frames: 96).values.count == 96)
        #expect(Timeline.scroll(from: -80, to: 300, frames: 96).values.first == -80)
        #expect(Timeline.scroll(from: -80, to: 300, frames: 96).values.last == 300)
        #expect(Timeline.scroll(from: 0, to: 12, frames: 4).values == [0, 4, 8, 12])
        #expect(Timeline.scroll(from: 5, to: 9, frames: 1).values == [5])
        #expect(Timeline.time(duration: 1, fps: 30).values.count == 31)
        let odd = Timeline.time(duration: 0.5, fps: 24).values
        #expect(odd.count == 13 && odd.last == 0.5 && odd[11] == 11.0 / 24)
        let uneven = Timeline.time(duration: 0.11, fps: 20).values
        #expect(uneven == [0, 0.05, 0.1, 0.11])
        let states = Timeline.scroll(from: 0, to: 10, frames: 2).states(other: DriverState(scroll: 99, time: 1.5))
        #expect(states == [DriverState(scroll: 0, time: 1.5), DriverState(scroll: 10, time: 1.5)])
    }
}
