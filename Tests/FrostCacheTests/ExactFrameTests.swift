@testable import FrostCrossfade
import FrostCache
import FrostCodecs
import FrostCore
import FrostEffects
import FrostFiles
import FrostTestSupport
import Testing

/// `FadeMode.exact` against an exact float64 gaussian of the source (edges extended), over a grid
/// of p, for the default plan stored compact and at full size: within 2 levels max, 0.25 mean.
@Suite struct ExactFrameTests {
    static let photo = try! Image(contentsOfFile: Corpus.path("photos/astronaut.png")).resized(width: 256, height: 256)

    @Test func exactFramesAreGaussiansOfTheSource() {
        let caches = [true, false].map { compact in
            let plan = CachePlan(count: 10, maxSigma: 20, compact: compact)
            return CrossfadeCache(plan: plan, levels: CacheRenderer(plan: plan, threads: 2).render(Self.photo),
                                  width: 256, height: 256)
        }
        #expect(caches[0].plan.levels.contains { $0.factor > 1 })
        for step in 0...10 {
            let p = Double(step) / 10
            let sigma = p * 20
            let reference = sigma < 0.3 ? Self.photo.premultiplied().pixels.map(Double.init) : GaussianReference.blur(Self.photo, sigma: sigma)
            for cache in caches {
                let error = GaussianReference.error(cache.frame(at: p, mode: .exact, threads: 2), reference)
                #expect(error.max <= 2 && error.mean <= 0.25, "p \(p), σ \(sigma), compact \(cache.plan.levels.last!.factor > 1): \(error)")
            }
        }
    }

    @Test func exactUsesTheLevelAtOrBelowAndNeedsAPlainPlan() {
        let plan = CachePlan(count: 10, maxSigma: 20)
        for p in [0.0, 0.05, 0.37, 0.6, 1.0] {
            let s = plan.selection(at: p, mode: .exact)
            #expect(s.levels.count == 1 && plan.levels[s.lower].sigma <= p * 20 + 1e-9)
            #expect(s.lower == plan.levels.count - 1 || plan.levels[s.lower + 1].sigma > p * 20)
        }
        #expect(plan.supportsExactFrames)
        #expect(!CachePlan.twitter().supportsExactFrames)
        #expect(!CachePlan(count: 4, maxSigma: 10, tint: Color(white: 1, alpha: 0.2)).supportsExactFrames)
        // At a stored level's own σ the exact frame is that level.
        let cache = CrossfadeCache(plan: plan, levels: CacheRenderer(plan: plan, threads: 1).render(Self.photo), width: 256, height: 256)
        let at = plan.levels[6].sigma / 20
        #expect(identical(cache.frame(at: at, mode: .exact), cache.level(6)))
    }
}
