import FrostCache
import FrostCore
import FrostEffects

/// How a fraction p ∈ [0, 1] becomes a frame of a blur cache.
public enum FadeMode: String, Sendable, CaseIterable, Codable {
    /// Target σ = p·σmax, the two levels around it blended with the variance-matched
    /// t = (σ² − σa²)/(σb² − σa²) (docs/design.md, Algorithms): the blur grows continuously.
    case blend
    /// Twitter's buckets: level ⌈N·p⌉, at least 1 once p > 0.
    case nearest
    /// Secret's fade: the last level over the source with alpha p.
    case alpha
    /// A true gaussian of σ = p·σmax: the stored level at or below σ blurred by the missing
    /// √(σ² − σa²) (`CrossfadeCache.exactFrame`). Plain gaussian caches only
    /// (`CachePlan.supportsExactFrames`).
    case exact
}

/// Which two levels a frame blends and by how much.
public struct FrameSelection: Sendable, Equatable {
    /// The level below (or at) the fraction.
    public let lower: Int
    /// The level above; equal to `lower` when one level is shown.
    public let upper: Int
    /// The share of `upper` in the blend, 0 to 1.
    public let t: Double

    /// The levels the frame is made from.
    public var levels: [Int] {
        lower == upper || t == 0 ? [lower] : t == 1 ? [upper] : [lower, upper]
    }
}

extension CachePlan {
    /// The levels a frame at `p` reads: the selection's, and for `exact` the source as well (the
    /// border band of an exact frame is blurred from it).
    public func levelsNeeded(at p: Double, mode: FadeMode) -> [Int] {
        let used = selection(at: p, mode: mode).levels
        return mode == .exact && used != [0] ? [0] + used : used
    }

    /// The levels and weight for fraction `p` (clamped to [0, 1]) in `mode`.
    public func selection(at p: Double, mode: FadeMode) -> FrameSelection {
        let p = min(max(p.isFinite ? p : 0, 0), 1)
        let n = levels.count - 1
        switch mode {
        case .nearest:
            let bucket = p == 0 ? 0 : max(1, min(n, Int((Double(n) * p - 1e-9).rounded(.up))))
            return FrameSelection(lower: bucket, upper: bucket, t: 0)
        case .alpha:
            return FrameSelection(lower: 0, upper: n, t: p)
        case .exact:
            let below = levels.lastIndex(where: { $0.sigma <= p * maxSigma }) ?? 0
            return FrameSelection(lower: below, upper: below, t: 0)
        case .blend:
            let target = p * maxSigma
            guard let upper = levels.firstIndex(where: { $0.sigma >= target }), upper > 0 else {
                return FrameSelection(lower: 0, upper: 0, t: 0)
            }
            let (a, b) = (levels[upper - 1].sigma, levels[upper].sigma)
            let t = (target * target - a * a) / (b * b - a * a)
            return FrameSelection(lower: upper - 1, upper: upper, t: min(max(t, 0), 1))
        }
    }
}

extension CachePlan {
    /// Whether `FadeMode.exact` can make frames from this plan: gaussian levels without tint or
    /// saturation (a tinted level blurred further would blur its tint as well).
    public var supportsExactFrames: Bool {
        renderer == .gaussian && levels.allSatisfy { $0.tint == nil && $0.saturation == 1 }
    }
}

/// A loaded cache's levels ready to make frames at the source's size.
public struct CrossfadeCache: Sendable {
    /// The levels' plan.
    public let plan: CachePlan
    /// Stored levels, premultiplied, each at its stored size; nil for a level not loaded.
    public let levels: [Image?]
    /// The source's width: every frame's.
    public let width: Int
    /// The source's height: every frame's.
    public let height: Int

    /// A cache of `plan`'s levels (each at its stored size, nil where not loaded) for a source of `width` × `height`.
    public init(plan: CachePlan, levels: [Image?], width: Int, height: Int) {
        precondition(plan.levels.count == levels.count)
        self.plan = plan
        self.levels = levels.map { $0?.premultiplied() }  // a rendered cache's level 0 is the source as given
        self.width = width
        self.height = height
    }

    /// Level i at full size (compact levels are enlarged bilinearly on the fly).
    public func level(_ i: Int, threads: Int? = nil) -> Image {
        stored(i).enlarged(by: plan.levels[i].factor, margin: margin(i), toWidth: width, height: height, threads: threads)
    }

    /// The frame for fraction p: one level, or two enlarged and blended in a single pass
    /// (t = 0 and t = 1 return the levels themselves, bit for bit). `linear`: two levels are
    /// blended in linear light (each enlarged first); an exact frame's missing blur is made in it.
    public func frame(at p: Double, mode: FadeMode = .blend, linear: Bool = false, threads: Int? = nil) -> Image {
        if mode == .exact { return exactFrame(at: p, linear: linear, threads: threads) }
        let s = plan.selection(at: p, mode: mode)
        let used = s.levels
        if used.count == 1 { return level(used[0], threads: threads) }
        let (a, b) = (s.lower, s.upper)
        if linear { return level(a, threads: threads).blended(with: level(b, threads: threads), fraction: s.t, linear: true, threads: threads) }
        return Image.enlargedBlend(stored(a), factor: plan.levels[a].factor, margin: margin(a),
                                   stored(b), factor: plan.levels[b].factor, margin: margin(b),
                                   fraction: s.t, width: width, height: height, threads: threads)
    }

    /// The frame for fraction p as a gaussian of σ = p·σmax of the source, edges extended.
    ///
    /// From the stored level a at or below σ, by the semigroup G(σa) ∗ G(σd) = G(√(σa² + σd²)):
    /// the missing σd = √(σ² − σa²) is added at a's stored size (σd / factor in its pixels, where
    /// `gaussianBlurred` reduces further if σd allows), then the result is enlarged as a's level
    /// is. A compact level carries σa already including its box reduction (`GaussianLevels`), so
    /// the variances add. The semigroup holds on the whole line, not for edge extension: beyond
    /// the edge the blurred source is not its edge pixel repeated (at σ 2 from σ 1.6 that is up
    /// to 8 levels at the border). So the band of pixels whose σd window leaves the image is
    /// blurred from the source (level 0) instead, each side from a strip with 4σ of context.
    /// Where σ allows a coarser reduction than a's storage, the source is blurred directly
    /// instead: a frame never costs more than that (docs/cache-format.md has the grid). `linear`:
    /// the source blurred in linear light (the levels were blurred in sRGB values, so no level is a
    /// step towards it).
    public func exactFrame(at p: Double, linear: Bool = false, threads: Int? = nil) -> Image {
        precondition(plan.supportsExactFrames, "exact frames need a cache of plain gaussian levels")
        let sigma = min(max(p.isFinite ? p : 0, 0), 1) * plan.maxSigma
        if linear { return stored(0).gaussianBlurred(sigma: sigma, linear: true, threads: threads) }
        let a = plan.selection(at: p, mode: .exact).lower
        let missing = (sigma * sigma - plan.levels[a].sigma * plan.levels[a].sigma).squareRoot()
        let f = plan.levels[a].factor
        guard missing / Double(f) >= 0.3 else { return level(a, threads: threads) }
        let reach = Int((4 * missing).rounded(.up)) + 2 * f, strip = reach + Int((4 * sigma).rounded(.up)) + 2
        let source = stored(0)
        // Blurring the source directly is the cheaper way when σ allows a coarser reduction than
        // a is stored at (measured: σ 32 and 36 from the level of σ 26.7 at 1/4 cost 15 ms, the
        // source at 1/8 12.5), or when the border strips would cover the image.
        if GaussianPlan.storageFactor(sigma: sigma) > f || 2 * strip >= min(width, height) {
            return source.gaussianBlurred(sigma: sigma, threads: threads)
        }
        var frame = stored(a).gaussianBlurred(sigma: missing / Double(f), threads: threads)
            .enlarged(by: f, margin: margin(a), toWidth: width, height: height, threads: threads)
        for side in [PixelBounds(x: 0, y: 0, width: width, height: strip),
                     PixelBounds(x: 0, y: height - strip, width: width, height: strip),
                     PixelBounds(x: 0, y: 0, width: strip, height: height),
                     PixelBounds(x: width - strip, y: 0, width: strip, height: height)] {
            let blurred = source.cropped(to: side).gaussianBlurred(sigma: sigma, threads: threads)
            // The `reach` rows or columns at the image's edge; the rest of the strip was context.
            let keep = side.width == width
                ? PixelBounds(x: 0, y: side.y == 0 ? 0 : strip - reach, width: width, height: reach)
                : PixelBounds(x: side.x == 0 ? 0 : strip - reach, y: 0, width: reach, height: height)
            frame.paste(blurred.cropped(to: keep), x: side.x + keep.x, y: side.y + keep.y)
        }
        return frame
    }

    private func stored(_ i: Int) -> Image {
        guard let image = levels[i] else { preconditionFailure("level \(i) of the cache was not loaded") }
        return image
    }

    private func margin(_ i: Int) -> Int { plan.levels[i].factor > 1 ? CachePlan.storageMargin : 0 }
}

extension CrossfadeCache {
    /// A cache loaded and verified from disk.
    public init(_ loaded: CacheStore.Loaded) {
        self.init(plan: loaded.plan, levels: loaded.levels, width: loaded.width, height: loaded.height)
    }
}
