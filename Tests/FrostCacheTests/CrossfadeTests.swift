@testable import FrostCrossfade
import FrostCache
@_spi(Kernels) import FrostCore
import FrostEffects
import FrostTestSupport
import Testing

@Suite struct CrossfadeTests {
    @Test func variancesMatchBetweenLevels() {
        let plan = CachePlan(count: 10, maxSigma: 40)
        for p in stride(from: 0.0, through: 1.0, by: 0.01) {
            let s = plan.selection(at: p, mode: .blend)
            let a = plan.levels[s.lower].sigma, b = plan.levels[s.upper].sigma
            let variance = (1 - s.t) * a * a + s.t * b * b
            #expect(abs(variance.squareRoot() - p * 40) < 1e-6, "p \(p)")
        }
    }

    /// Twitter's buckets: level ⌈N·p⌉, at least 1 once p > 0.
    @Test func nearestModeIsTheBucketFormula() {
        let plan = CachePlan.twitter()
        #expect(plan.selection(at: 0, mode: .nearest).lower == 0)
        for p in stride(from: 0.001, through: 1.0, by: 0.007) {
            let expected = max(1, Int((10 * p).rounded(.up)))
            #expect(plan.selection(at: p, mode: .nearest).lower == min(10, expected), "p \(p)")
        }
    }

    /// The fade is monotone and continuous: frames 0.01 apart differ by no more than the blend of
    /// neighbours allows, and sharpness (mean gradient) never rises with p.
    @Test func fadeIsMonotoneAndContinuous() {
        let photo = noiseImage(width: 96, height: 64, opaque: true).gaussianBlurred(sigma: 1.5)
        let plan = CachePlan(count: 10, maxSigma: 24)
        let cache = CrossfadeCache(plan: plan, levels: CacheRenderer(plan: plan, threads: 1).render(photo), width: 96, height: 64)
        func sharpness(_ image: Image) -> Double {
            var total = 0
            for y in 0..<image.height { for x in 1..<image.width { total += abs(Int(image.pixels[(y * image.width + x) * 4]) - Int(image.pixels[(y * image.width + x - 1) * 4])) } }
            return Double(total) / Double(image.width * image.height)
        }
        var previous = cache.frame(at: 0, threads: 1)
        var lastSharpness = sharpness(previous)
        for k in 1...100 {
            let p = Double(k) / 100
            let frame = cache.frame(at: p, threads: 1)
            let s = plan.selection(at: p, mode: .blend)
            // A step in p moves t by Δt: neighbouring frames differ by at most Δt·|b − a| + rounding.
            let a = cache.level(s.lower, threads: 1), b = cache.level(s.upper, threads: 1)
            let span = PixelDifference(a, b).max
            let before = plan.selection(at: p - 0.01, mode: .blend)
            let deltaT = before.lower == s.lower ? abs(s.t - before.t) : 1
            #expect(Double(PixelDifference(frame, previous).max) <= deltaT * Double(span) + 2, "p \(p)")
            let sharp = sharpness(frame)
            #expect(sharp <= lastSharpness + 0.02, "p \(p)")
            previous = frame
            lastSharpness = sharp
        }
    }

    @Test func alphaModeFadesTheLastLevelOverTheSource() {
        let photo = noiseImage(width: 40, height: 30, opaque: true)
        let plan = CachePlan.secret()
        let cache = CrossfadeCache(plan: plan, levels: CacheRenderer(plan: plan, threads: 1).render(photo), width: 40, height: 30)
        #expect(cache.frame(at: 0, mode: .alpha, threads: 1) == cache.level(0, threads: 1))
        #expect(cache.frame(at: 1, mode: .alpha, threads: 1).pixels == cache.level(1, threads: 1).pixels)
        // Frames blend in Float in one pass; the 1/256-step integer blend agrees within a level.
        let expected = cache.level(0, threads: 1).blended(with: cache.level(1, threads: 1), fraction: 0.4, threads: 1)
        #expect(PixelDifference(cache.frame(at: 0.4, mode: .alpha, threads: 1), expected).max <= 1)
    }

    /// A frame made from only the levels it needs (what `frost fade` decodes) is the frame made
    /// from every level, in each mode.
    @Test func aFrameNeedsOnlyItsSelectedLevels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try CacheStore.build(sourcePath: Corpus.path("pillow/jpeg/hopper.jpg"), into: folder.path,
                             options: CacheOptions(levels: 6, maxSigma: 20), threads: 1)
        let full = CrossfadeCache(try CacheStore.load(folder.path))
        for mode in FadeMode.allCases {
            for p in [0, 0.01, 0.37, 0.5, 0.99, 1] {
                let levels = full.plan.levelsNeeded(at: p, mode: mode)
                let partial = CrossfadeCache(try CacheStore.load(folder.path, only: { $0.levelsNeeded(at: p, mode: mode) }))
                #expect(partial.levels.compactMap { $0 }.count == levels.count)
                #expect(partial.frame(at: p, mode: mode, threads: 1) == full.frame(at: p, mode: mode, threads: 1), "\(mode) p \(p)")
            }
        }
    }

    @Test func scrollMappings() {
        #expect(ScrollMapping.fraction(offset: 50, start: 0, end: 200) == 0.25)
        #expect(ScrollMapping.fraction(offset: -10, start: 0, end: 200) == 0)
        #expect(ScrollMapping.fraction(offset: 900, start: 0, end: 200) == 1)
        #expect(ScrollMapping.fraction(offset: 50, start: 0, end: 200, ease: true) == 0.25 * 0.25 * (3 - 0.5))
        #expect(ScrollMapping.secret(offset: 100) == 0.5 && ScrollMapping.secret(offset: 400) == 1)
        #expect(ScrollMapping.twitter(offset: 115, switchOffset: 100) == 0)
        #expect(ScrollMapping.twitter(offset: 130, switchOffset: 100) == 0.5)
        #expect(ScrollMapping.twitter(offset: 200, switchOffset: 100) == 1)
    }
}
