@testable import FrostCrossfade
import FrostCache
@_spi(Kernels) import FrostCore
import FrostEffects
import FrostTestSupport
import Testing

@Suite struct CrossfadeTests {
    @Test func blendIsExactAtTheEnds() {
        let a = noiseImage(width: 67, height: 13).premultiplied(), b = noiseImage(width: 67, height: 13, seed: 7).premultiplied()
        #expect(a.blended(with: b, fraction: 0) == a)
        #expect(a.blended(with: b, fraction: 1).pixels == b.pixels)
        #expect(a.blended(with: b, fraction: 1e-4) == a)
    }

    @Test(arguments: [0.1, 0.37, 0.5, 0.99])
    func blendKernelEqualsScalarReference(t: Double) {
        let a = noiseImage(width: 101, height: 7).premultiplied(), b = noiseImage(width: 101, height: 7, seed: 3).premultiplied()
        let w = UInt16((t * 256).rounded())
        var expected = a.pixels
        b.pixels.withUnsafeBufferPointer { bp in
            expected.withUnsafeMutableBufferPointer { BlendKernel.runScalar($0.baseAddress!, bp.baseAddress!, into: $0.baseAddress!, count: $0.count, weight: w) }
        }
        #expect(a.blended(with: b, fraction: t, threads: 1).pixels == expected)
        #expect(a.blended(with: b, fraction: t, threads: 3) == a.blended(with: b, fraction: t, threads: 1))
    }

    /// Streaming stores need aligned targets: the kernel equals the scalar reference at every
    /// output alignment and length around the 32-byte steps, walking backwards (offsets 1…2047
    /// past the inputs modulo 4096) and forwards (0, 4048: StreamOrder). Straight inputs,
    /// premultiplied as they are read (whole pixels: a target off the 4-byte grid takes the scalar
    /// path throughout), give the reference's blend of the premultiplied ones.
    @Test(arguments: [false, true])
    func blendKernelHandlesEveryAlignment(premultiplying: Bool) {
        let a = noiseImage(width: 40, height: 1), b = noiseImage(width: 40, height: 1, seed: 5)
        let (pa, pb) = premultiplying ? (a.premultiplied().pixels, b.premultiplied().pixels) : (a.pixels, b.pixels)
        let counts = premultiplying ? [0, 4, 28, 32, 36, 96, 124] : [0, 1, 31, 32, 33, 95, 96, 127]
        for offset in Array(0..<32) + [48, 4048] {
            for count in counts {
                var expected = [UInt8](repeating: 0, count: count)
                expected.withUnsafeMutableBufferPointer { BlendKernel.runScalar(pa, pb, into: $0.baseAddress!, count: count, weight: 77) }
                let out = withStreamPlacement([a.pixels, b.pixels], targetBytes: count, targetOffset: offset) { inputs, target in
                    BlendKernel.run(inputs[0], inputs[1], into: target, count: count, weight: 77,
                                    premultiplying: (premultiplying, premultiplying))
                    return Array(UnsafeBufferPointer(start: target, count: count))
                }
                #expect(out == expected, "offset \(offset), count \(count)")
            }
        }
    }

    /// Straight-alpha inputs are premultiplied as the kernel reads them: the same bytes as
    /// premultiplying first, for each input kind on either side.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func blendPremultipliesStraightInputsAsItReads(_ straight: (Bool, Bool)) {
        let a = noiseImage(width: 101, height: 7), b = noiseImage(width: 101, height: 7, seed: 3)
        let x = straight.0 ? a : a.premultiplied(), y = straight.1 ? b : b.premultiplied()
        let expected = a.premultiplied().blended(with: b.premultiplied(), fraction: 0.37, threads: 1)
        #expect(x.blended(with: y, fraction: 0.37, threads: 1) == expected)
        #expect(x.blended(with: y, fraction: 0.37, threads: 3) == expected)
        #expect(x.blended(with: y, fraction: 0) == a.premultiplied())
        #expect(x.blended(with: y, fraction: 1).pixels == b.premultiplied().pixels)
    }

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
