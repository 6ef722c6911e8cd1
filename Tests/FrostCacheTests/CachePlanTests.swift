import FrostCache
import FrostCore
import FrostEffects
import Testing

@Suite struct CachePlanTests {
    @Test func geometricPlanRisesByAtMostOneAndAHalf() {
        let plan = CachePlan(count: 10, maxSigma: 40)
        #expect(plan.levels.count == 11 && plan.renderer == .gaussian)
        #expect(plan.levels[0].sigma == 0 && plan.levels[0].tint == nil && plan.levels[0].saturation == 1)
        #expect(abs(plan.maxSigma - 40) < 1e-9)
        let sigmas = plan.levels.map(\.sigma)
        for (a, b) in zip(sigmas.dropFirst(), sigmas.dropFirst(2)) { #expect(b / a <= CachePlan.maximumRatio + 1e-9) }
        #expect(sigmas[1] < 1.1)   // first level small
        // One level sits on σ = 8, where half-size rendering starts: five full-size levels, not six.
        #expect(sigmas.contains { abs($0 - 2 * GaussianPlan.minimumReducedSigma) < 1e-9 })
        #expect(plan.levels.dropFirst().filter { GaussianPlan.storageFactor(sigma: $0.sigma) == 1 }.count == 5)
    }

    @Test func manyLevelsKeepTheFirstLevelAtHalfAPixel() {
        let plan = CachePlan(count: 30, maxSigma: 20)
        #expect(abs(plan.levels[1].sigma - CachePlan.minimumFirstSigma) < 1e-9)
        #expect(abs(plan.maxSigma - 20) < 1e-9)
    }

    @Test func linearSigmaSpacing() {
        let plan = CachePlan(count: 4, maxSigma: 8, spacing: .linear)
        #expect(plan.levels.map(\.sigma) == [0, 2, 4, 6, 8])
        #expect(plan.renderer == .gaussian)
    }

    /// Twitter: radius 30·i/10, white α0.2, saturation 1.5 at every level, ImageEffects boxes.
    @Test func twitterPresetReproducesTheBanners() {
        let plan = CachePlan.twitter()
        #expect(plan.renderer == .imageEffects && plan.levels.count == 11)
        for (i, level) in plan.levels.enumerated() {
            #expect(abs(level.radius - 3 * Double(i)) < 1e-9)
            #expect(level.tint == Color(white: 1, alpha: 0.2) && level.saturation == 1.5)
            let d = Double(2 * ImageEffectsMath.boxRadius(radius: level.radius, scale: 1) + 1)
            #expect(i == 0 ? level.sigma == 0 : abs(level.sigma - ((d * d - 1) / 4).squareRoot()) < 1e-9)
        }
    }

    @Test func secretPresetIsOneLevel() {
        let plan = CachePlan.secret()
        #expect(plan.levels.count == 2)
        #expect(plan.levels[1].radius == 12 && plan.levels[1].tint == Color(white: 0.8, alpha: 0.4) && plan.levels[1].saturation == 1.8)
    }

    @Test func rampGrowsTintAndSaturationFromTheSource() {
        let plan = CachePlan(count: 4, maxSigma: 10, tint: Color(white: 1, alpha: 0.4), saturation: 2, ramp: true)
        #expect(plan.levels[0].tint == nil && plan.levels[0].saturation == 1)
        #expect(abs(plan.levels[2].tint!.alpha - 0.2) < 1e-9 && abs(plan.levels[2].saturation - 1.5) < 1e-9)
        #expect(abs(plan.levels[4].tint!.alpha - 0.4) < 1e-9 && plan.levels[4].saturation == 2)
    }

    @Test func compactFactorsFollowTheStorageRule() {
        let plan = CachePlan(count: 10, maxSigma: 40)
        for level in plan.levels { #expect(level.factor == GaussianPlan.storageFactor(sigma: level.sigma)) }
        #expect(CachePlan(count: 10, maxSigma: 40, compact: false).levels.allSatisfy { $0.factor == 1 })
    }
}
