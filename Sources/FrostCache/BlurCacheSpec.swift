import FrostCore

/// What a blur cache holds: `levels` blurs above the source up to a top blur (a gaussian σ or a
/// UIImage+ImageEffects radius), their spacing, tint and saturation; or a seed app's preset. One
/// specification, with its defaults, limits and plan, for `frost cache`, a motion scene's `blur`
/// and Swift callers (`CacheOptions.blur`, `LayerBlur.spec`).
public struct BlurCacheSpec: Sendable, Equatable {
    /// The seed apps' caches: Twitter's 11 banners (radius 30·i/10, white α0.2, saturation 1.5) and Secret's one blur (radius 12, white 0.8 α0.4, saturation 1.8).
    public enum Preset: String, Sendable, Codable, CaseIterable {
        /// Twitter's profile banner: 10 levels of ImageEffects, radius 30·i/10 points, white α0.2, saturation 1.5.
        case twitter
        /// Secret's viewer: one level, radius 12 points, white 0.8 α0.4, saturation 1.8.
        case secret

        /// The preset's numbers (linear spacing of ImageEffects radii, as the apps rendered).
        public var spec: BlurCacheSpec {
            switch self {
            case .twitter: BlurCacheSpec(levels: 10, maxRadius: 30, spacing: .linear, tint: Color(white: 1, alpha: 0.2), saturation: 1.5, preset: self)
            case .secret: BlurCacheSpec(levels: 1, maxRadius: 12, spacing: .linear, tint: Color(white: 0.8, alpha: 0.4), saturation: 1.8, preset: self)
            }
        }
    }

    /// Levels above the source.
    public var levels: Int
    /// The top level's gaussian σ (nil: `defaultMaxSigma`, unless `maxRadius` is given); its
    /// unit is the caller's, turned into pixels by `plan`'s `sigmaScale`.
    public var maxSigma: Double?
    /// The top level as an ImageEffects radius in points (× the plan's scale).
    public var maxRadius: Double?
    /// How σ grows from level to level.
    public var spacing: CachePlan.Spacing
    /// Drawn over each level.
    public var tint: Color?
    /// ImageEffects' saturation delta factor per level (1 leaves colour alone).
    public var saturation: Double
    /// Tint and saturation grow with the level, so that level 0 stays the source.
    public var ramp: Bool
    /// Twitter's or Secret's levels (docs/design.md, Seed apps) instead of the numbers above.
    public var preset: Preset?

    /// Levels above the source when not given.
    public static let defaultLevels = 10
    /// The top σ when neither `maxSigma` nor `maxRadius` is given.
    public static let defaultMaxSigma = 40.0
    /// The levels a cache may hold above its source.
    public static let levelsRange: ClosedRange<Int> = 1...64
    /// The top σ's limits.
    public static let maxSigmaRange: ClosedRange<Double> = 0.3...250
    /// A radius is above 0 and at most this.
    public static let maxRadiusLimit = 500.0
    /// The saturation delta factor's limits.
    public static let saturationRange: ClosedRange<Double> = -100...100

    /// Without a `spacing`: linear for a radius (ImageEffects itself renders each level, as
    /// Twitter did), geometric for a σ (neighbouring σ ratio ≤ 1.5: blending neighbours stays
    /// close to a true gaussian).
    public init(levels: Int = defaultLevels, maxSigma: Double? = nil, maxRadius: Double? = nil, spacing: CachePlan.Spacing? = nil,
                tint: Color? = nil, saturation: Double = 1, ramp: Bool = false, preset: Preset? = nil) {
        self.levels = levels
        self.maxSigma = maxSigma
        self.maxRadius = maxRadius
        self.spacing = spacing ?? (maxRadius != nil ? .linear : .geometric)
        self.tint = tint
        self.saturation = saturation
        self.ramp = ramp
        self.preset = preset
    }

    /// A value outside the limits: the key it is given by (`levels`, `max-sigma`, `max-radius`,
    /// `tint`, `saturation`; empty for the whole) and what is wrong.
    public struct Problem: Error, CustomStringConvertible, Sendable, Equatable {
        /// `levels`, `max-sigma`, `max-radius`, `tint`, `saturation`, or empty.
        public let key: String
        /// What is wrong, e.g. `expected a whole number from 1 to 64`.
        public let message: String
        public var description: String { key.isEmpty ? message : "\(key): \(message)" }
    }

    /// Throws the first value outside the limits. A preset ignores the numbers.
    public func validate() throws(Problem) {
        if preset != nil { return }
        guard Self.levelsRange.contains(levels) else {
            throw Problem(key: "levels", message: "expected a whole number from \(Self.levelsRange.lowerBound) to \(Self.levelsRange.upperBound)")
        }
        if maxSigma != nil && maxRadius != nil { throw Problem(key: "", message: "give max-sigma or max-radius, not both") }
        if let s = maxSigma, !Self.maxSigmaRange.contains(s) {
            throw Problem(key: "max-sigma", message: "expected a number from \(Self.decimal(Self.maxSigmaRange.lowerBound)) to \(Self.decimal(Self.maxSigmaRange.upperBound))")
        }
        if let r = maxRadius, !(r > 0 && r <= Self.maxRadiusLimit) {
            throw Problem(key: "max-radius", message: "expected a number above 0 and at most \(Self.decimal(Self.maxRadiusLimit))")
        }
        if let tint, ![tint.red, tint.green, tint.blue, tint.alpha].allSatisfy((0...1).contains) {
            throw Problem(key: "tint", message: "expected a color with red, green, blue and alpha from 0 to 1")
        }
        guard Self.saturationRange.contains(saturation) else {
            throw Problem(key: "saturation", message: "expected a number from \(Self.decimal(Self.saturationRange.lowerBound)) to \(Self.decimal(Self.saturationRange.upperBound))")
        }
    }

    /// The plan: radii in points × `scale` pixels per point, σ × `sigmaScale` (1 for a σ given in
    /// pixels, as `frost cache --max-sigma` takes it; the scene's scale for a motion's σ in
    /// points). Levels are stored reduced where their blur allows unless `compact` is false.
    /// The spec must be valid (`validate()`).
    public func plan(scale: Double = 1, sigmaScale: Double = 1, compact: Bool = true) -> CachePlan {
        let spec = effective
        return CachePlan(count: spec.levels, maxSigma: spec.topSigma.map { $0 * sigmaScale },
                         maxRadius: spec.maxRadius, spacing: spec.spacing, tint: spec.tint, saturation: spec.saturation, ramp: spec.ramp,
                         scale: scale, compact: compact)
    }

    /// The numbers rendered: a preset's own (what its manifest records), else these.
    public var effective: BlurCacheSpec { preset?.spec ?? self }

    /// The top level's ImageEffects radius in points, for a plan rendered by ImageEffects
    /// (a preset's, or `maxRadius`): its boxes must fit the kernel's limit at the pixel scale.
    public var topRadius: Double? { effective.maxRadius }

    /// The top σ a plan uses: `maxSigma`, or `defaultMaxSigma` when neither it nor `maxRadius` is given.
    var topSigma: Double? { maxRadius == nil ? maxSigma ?? Self.defaultMaxSigma : nil }

    /// Two specifications are the same when they render the same levels: a preset with whatever
    /// numbers beside it (it ignores them) is its own numbers, and a default given (`--max-sigma
    /// 40`) is the default left out (a manifest records `maxSigma` only when it was given).
    public static func == (a: BlurCacheSpec, b: BlurCacheSpec) -> Bool {
        let (x, y) = (a.effective, b.effective)
        return x.levels == y.levels && x.topSigma == y.topSigma && x.maxRadius == y.maxRadius && x.spacing == y.spacing
            && x.tint == y.tint && x.saturation == y.saturation && x.ramp == y.ramp && x.preset == y.preset
    }

    /// 250, 0.3: a limit as written.
    private static func decimal(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(x)
    }
}
