#if canImport(Glibc)
import Glibc
#endif
import FrostCore
import FrostEffects

/// Which blur levels a cache holds and how each is made (docs/design.md, Algorithms and Seed apps).
///
/// Level 0 is the source; levels 1…N grow to the maximum blur. Two renderers:
/// - `gaussian`: exact gaussians at σᵢ (geometric spacing by default: neighbouring σ ratio ≤ 1.5,
///   first level small, so blending two neighbours stays close to a true gaussian);
/// - `imageEffects`: UIImage+ImageEffects at radius rᵢ from the source, for plans given in
///   ImageEffects radius with linear spacing: Twitter's 11 banners, exactly.
/// Tint and saturation apply per level as in ImageEffects; with `ramp` they grow with the level
/// (tint alpha × i/N, saturation 1 + (s − 1)·i/N), so level 0 is the untouched source.
public struct CachePlan: Sendable, Equatable, Codable {
    /// How σ grows from level to level: by a ratio (≤ 1.5) or by equal steps.
    public enum Spacing: String, Sendable, Codable, CaseIterable {
        /// σ grows by a ratio of at most 1.5 from level to level.
        case geometric
        /// σ (or the ImageEffects radius) grows by equal steps.
        case linear
    }
    /// What renders the levels: exact gaussians, or UIImage+ImageEffects' three boxes.
    public enum Renderer: String, Sendable, Codable {
        /// Exact gaussians at each level's σ.
        case gaussian
        /// UIImage+ImageEffects at each level's radius, from the source.
        case imageEffects
    }

    /// One level of the plan.
    public struct Level: Sendable, Equatable, Codable {
        /// 0 is the source.
        public let index: Int
        /// Gaussian σ in pixels (for ImageEffects levels, the σ of its three boxes).
        public let sigma: Double
        /// ImageEffects radius in points (for gaussian levels, the radius whose boxes have this σ).
        public let radius: Double
        /// Drawn over the level (ImageEffects' tint).
        public let tint: Color?
        /// ImageEffects' saturation delta factor (1 leaves color alone).
        public let saturation: Double
        /// Stored at 1/factor of the source size (compact storage), 1 for full size.
        public let factor: Int

        /// No blur, tint or saturation, at full size: the source itself.
        public var isSource: Bool { sigma == 0 && tint == nil && saturation == 1 && factor == 1 }
    }

    /// The source (level 0) and the blurred levels, in rising σ.
    public let levels: [Level]
    /// What renders the levels.
    public let renderer: Renderer
    /// How σ grows.
    public let spacing: Spacing
    /// Pixels per point, for ImageEffects radii.
    public let scale: Double

    /// Blocks of edge margin around every level stored at a reduced size, so enlarging it for use
    /// interpolates right up to the border.
    public static let storageMargin = 1

    /// The largest ratio between neighbouring σ in the geometric spacing.
    public static let maximumRatio = 1.5
    /// The smallest first level of a geometric plan (when many levels would push it lower).
    public static let minimumFirstSigma = 0.5

    /// A plan of `count` levels above the source, up to `maxSigma` (pixels) or `maxRadius`
    /// (ImageEffects points × scale).
    public init(count: Int = 10, maxSigma: Double? = nil, maxRadius: Double? = nil, spacing: Spacing = .geometric,
                tint: Color? = nil, saturation: Double = 1, ramp: Bool = false, scale: Double = 1, compact: Bool = true) {
        precondition(count >= 1, "a cache has at least one level above the source")
        let renderer: Renderer = (spacing == .linear && maxRadius != nil) ? .imageEffects : .gaussian
        let top = maxSigma ?? Self.sigma(forRadius: maxRadius ?? 30, scale: scale)
        let sigmas: [Double]
        switch (renderer, spacing) {
        case (.imageEffects, _):
            sigmas = (0...count).map { Self.sigma(forRadius: maxRadius! * Double($0) / Double(count), scale: scale) }
        case (.gaussian, .linear):
            sigmas = (0...count).map { top * Double($0) / Double(count) }
        case (.gaussian, .geometric):
            sigmas = [0] + Self.geometricSigmas(count: count, top: top)
        }
        levels = sigmas.enumerated().map { i, sigma in
            let share = ramp ? Double(i) / Double(count) : 1
            let radius = renderer == .imageEffects ? maxRadius! * Double(i) / Double(count) : Self.radius(forSigma: sigma, scale: scale)
            return Level(index: i, sigma: sigma, radius: radius,
                         tint: tint.map { $0.withAlpha($0.alpha * share) }.flatMap { $0.alpha > 0 ? $0 : nil },
                         saturation: 1 + (saturation - 1) * share,
                         factor: compact ? GaussianPlan.storageFactor(sigma: sigma) : 1)
        }
        self.renderer = renderer
        self.spacing = spacing
        self.scale = scale
    }

    /// σ of a geometric plan, rising: ratio 1.5 down from the top, except that the first level
    /// falling below the threshold of half-resolution rendering (σ = 8, `GaussianPlan`) is raised
    /// onto it and the levels below continue down from there. The level just under the threshold is
    /// the dearest to render (full size, the widest kernel); on it, it renders at half size.
    /// (Default plan: 40 … 11.85, 8, 5.33 … 1.05 instead of 40 … 7.90, 5.27 … 1.04: the full-size
    /// chain needs 73 taps per axis instead of 110.) Too many levels for a first σ of ½ spread them
    /// evenly (in log σ) from ½ instead; a top at or below ½ spreads them evenly in σ up to it.
    static func geometricSigmas(count: Int, top: Double) -> [Double] {
        if top <= minimumFirstSigma { return (1...count).map { top * Double($0) / Double(count) } }
        let threshold = 2 * GaussianPlan.minimumReducedSigma
        var sigmas: [Double] = []
        var sigma = top
        for _ in 0..<count {
            sigmas.append(sigma)
            let next = sigma / maximumRatio
            sigma = (sigma > threshold && next < threshold) ? threshold : next
        }
        if sigmas.last! < minimumFirstSigma && count > 1 {
            let ratio = pow(top / minimumFirstSigma, 1 / Double(count - 1))
            return (0..<count).map { minimumFirstSigma * pow(ratio, Double($0)) }
        }
        return sigmas.reversed()
    }

    /// Twitter's profile header: 11 banners, ImageEffects radius 30·i/10, white α0.2, saturation 1.5.
    public static func twitter(scale: Double = 1, compact: Bool = true) -> CachePlan {
        BlurCacheSpec.Preset.twitter.spec.plan(scale: scale, compact: compact)
    }

    /// Secret's viewer: one blurred snapshot, radius 12, white 0.8 α0.4, saturation 1.8.
    public static func secret(scale: Double = 1, compact: Bool = true) -> CachePlan {
        BlurCacheSpec.Preset.secret.spec.plan(scale: scale, compact: compact)
    }

    /// The top level's σ in pixels.
    public var maxSigma: Double { levels.last!.sigma }

    /// σ of ImageEffects' three d×d boxes for a radius in points: 3·(d² − 1)/12 = σ².
    public static func sigma(forRadius radius: Double, scale: Double) -> Double {
        guard radius > Double(Float.ulpOfOne) else { return 0 }
        let d = Double(2 * ImageEffectsMath.boxRadius(radius: radius, scale: scale) + 1)
        return ((d * d - 1) / 4).squareRoot()
    }

    /// The (continuous) ImageEffects radius whose three boxes have variance σ².
    public static func radius(forSigma sigma: Double, scale: Double) -> Double {
        guard sigma > 0 else { return 0 }
        let d = (4 * sigma * sigma + 1).squareRoot()
        return (d - 0.5) * 4 / (3 * (2 * Double.pi).squareRoot()) / scale
    }
}
