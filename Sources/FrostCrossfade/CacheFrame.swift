import FrostCache
import FrostCore
import FrostEffects

/// How a fraction p ∈ [0, 1] becomes a frame of a blur cache.
public enum FadeMode: String, Sendable, CaseIterable, Codable {
    /// Target σ = p·σmax, the two levels around it blended with the variance-matched
    /// t = (σ² − σa²)/(σb² − σa²) (DESIGN.md §3): the blur grows continuously.
    case blend
    /// Twitter's buckets: level ⌈N·p⌉, at least 1 once p > 0.
    case nearest
    /// Secret's fade: the last level over the source with alpha p.
    case alpha
}

/// Which two levels a frame blends and by how much.
public struct FrameSelection: Sendable, Equatable {
    public let lower: Int
    public let upper: Int
    public let t: Double

    /// The levels the frame is made from.
    public var levels: [Int] {
        lower == upper || t == 0 ? [lower] : t == 1 ? [upper] : [lower, upper]
    }
}

extension CachePlan {
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

/// A loaded cache's levels ready to make frames at the source's size.
public struct CrossfadeCache: Sendable {
    public let plan: CachePlan
    /// Stored levels, premultiplied, each at its stored size; nil for a level not loaded.
    public let levels: [Image?]
    public let width: Int
    public let height: Int

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
    /// (t = 0 and t = 1 return the levels themselves, bit for bit).
    public func frame(at p: Double, mode: FadeMode = .blend, threads: Int? = nil) -> Image {
        let s = plan.selection(at: p, mode: mode)
        let used = s.levels
        if used.count == 1 { return level(used[0], threads: threads) }
        let (a, b) = (s.lower, s.upper)
        return Image.enlargedBlend(stored(a), factor: plan.levels[a].factor, margin: margin(a),
                                   stored(b), factor: plan.levels[b].factor, margin: margin(b),
                                   fraction: s.t, width: width, height: height, threads: threads)
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
