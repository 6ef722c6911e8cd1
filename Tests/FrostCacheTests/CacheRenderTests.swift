@testable import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostEffects
import FrostFiles
import FrostTestSupport
import Testing

/// Rendering: every level against direct rendering, compact against full size.
@Suite struct CacheRenderTests {
    static let photo: Image = {
        let coffee = try! Image(contentsOfFile: Corpus.path("photos/coffee.png"))
        return coffee.resized(width: 300, height: 200)
    }()

    static let cutout: Image = try! Image(contentsOfFile: Corpus.repository + "/SampleImages/coffee-cutout.png").resized(width: 240, height: 160)

    /// Semigroup chains and reduced renders stay within 2 levels of blurring the source directly.
    @Test(arguments: [false, true])
    func everyLevelIsWithinTwoOfDirectRendering(transparent: Bool) {
        let source = transparent ? Self.cutout : Self.photo
        let plan = CachePlan(count: 10, maxSigma: 40, compact: false)
        let levels = CacheRenderer(plan: plan, threads: 1).render(source)
        for (level, image) in zip(plan.levels, levels) {
            let direct = source.gaussianBlurred(sigma: level.sigma, threads: 1)
            let d = PixelDifference(image, direct)
            #expect(d.max <= 2, "level \(level.index) σ \(level.sigma): \(d)")
        }
    }

    /// A compact level enlarged for use is within 1 level of the full-size level.
    @Test(arguments: [false, true])
    func compactLevelsAreWithinOneOfFullSize(transparent: Bool) {
        let source = transparent ? Self.cutout : Self.photo
        let full = CacheRenderer(plan: CachePlan(count: 10, maxSigma: 40, compact: false), threads: 1).render(source)
        let plan = CachePlan(count: 10, maxSigma: 40)
        let compact = CrossfadeCache(plan: plan, levels: CacheRenderer(plan: plan, threads: 1).render(source),
                                     width: source.width, height: source.height)
        for i in plan.levels.indices {
            let d = PixelDifference(compact.level(i, threads: 1), full[i])
            #expect(d.max <= 1, "level \(i) factor \(plan.levels[i].factor): \(d)")
        }
    }

    @Test func twitterLevelsAreImageEffects() {
        let plan = CachePlan.twitter()
        let levels = CacheRenderer(plan: CachePlan.twitter(compact: false), threads: 1).render(Self.photo)
        for i in [0, 3, 10] {
            let expected = Self.photo.applyBlur(radius: 3 * Double(i), tintColor: Color(white: 1, alpha: 0.2), saturationDeltaFactor: 1.5, threads: 1)
            #expect(levels[i] == expected, "level \(i)")
        }
        #expect(plan.levels[10].factor > 1)
    }

    @Test func threadsGiveIdenticalLevels() {
        let plan = CachePlan(count: 6, maxSigma: 24, tint: Color(white: 1, alpha: 0.2), saturation: 1.4, ramp: true)
        #expect(CacheRenderer(plan: plan, threads: 1).render(Self.photo) == CacheRenderer(plan: plan, threads: 2).render(Self.photo))
    }
}
