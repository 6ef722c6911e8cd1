import FrostCodecs
import FrostColor
import FrostCore

/// Everything a user chooses about a cache: its levels (`blur`, σ in pixels, radii in points ×
/// `scale`) and how they are stored; recorded in the manifest, compared on resume.
public struct CacheOptions: Sendable, Equatable {
    /// Twitter's or Secret's levels.
    public typealias Preset = BlurCacheSpec.Preset

    /// The levels: σ in pixels, radii in points × `scale`.
    public var blur: BlurCacheSpec
    /// Pixels per point for an ImageEffects radius.
    public var scale: Double
    /// Levels stored at the coarsest size their blur allows (false: every level at full size).
    public var compact: Bool
    /// The level files' format: PNG, JPEG or WebP.
    public var format: ImageFormat
    /// JPEG quality.
    public var quality: Int
    /// WebP levels: lossy at this quality, lossless when nil.
    public var webpQuality: Int?
    /// The space the levels are rendered in (nil: the source's own, its profile kept).
    public var color: CacheColor?
    /// What a source's transparency is flattened onto before its levels are made (nil: kept,
    /// but in JPEG levels, which hold no alpha: flattened onto white).
    public var background: Color?
    /// Whether level 0, the source itself, is stored (an app that has the source needs only the
    /// blurred levels: a version 3 cache).
    public var sourceLevel = true
    /// Level files named after their content (`level-03-<first 8 hex digits of its SHA-256>.webp`),
    /// so that a rebuilt level never has an old level's address: a CDN may keep them for ever.
    public var contentNames = false

    /// Options for a cache of `blur`'s levels, stored compactly as PNG by default.
    public init(blur: BlurCacheSpec = BlurCacheSpec(), scale: Double = 1, compact: Bool = true, format: ImageFormat = .png,
                quality: Int = 90, webpQuality: Int? = nil, color: CacheColor? = nil) {
        self.blur = blur
        self.scale = scale
        self.compact = compact
        self.format = format
        self.quality = quality
        self.webpQuality = webpQuality
        self.color = color
    }

    /// The options with the blur's fields spelled out.
    public init(levels: Int = BlurCacheSpec.defaultLevels, maxSigma: Double? = nil, maxRadius: Double? = nil,
                spacing: CachePlan.Spacing = .geometric, tint: Color? = nil, saturation: Double = 1, ramp: Bool = false,
                scale: Double = 1, preset: Preset? = nil, compact: Bool = true, format: ImageFormat = .png,
                quality: Int = 90, webpQuality: Int? = nil, color: CacheColor? = nil) {
        self.init(blur: BlurCacheSpec(levels: levels, maxSigma: maxSigma, maxRadius: maxRadius, spacing: spacing, tint: tint,
                                      saturation: saturation, ramp: ramp, preset: preset),
                  scale: scale, compact: compact, format: format, quality: quality, webpQuality: webpQuality, color: color)
    }

    /// The levels' plan.
    public var plan: CachePlan { blur.plan(scale: scale, compact: compact) }

    /// Levels for apps and browsers (`frost cache --web`): lossy WebP at `quality`, without the
    /// source level (the app has the source), named after their content.
    public static func web(_ blur: BlurCacheSpec = BlurCacheSpec(), scale: Double = 1, quality: Int = webQuality) -> CacheOptions {
        var options = CacheOptions(blur: blur, scale: scale, format: .webp, webpQuality: quality)
        options.sourceLevel = false
        options.contentNames = true
        return options
    }

    /// `--web`'s WebP quality: a tenth of PNG's bytes at about one level from the lossless levels
    /// (docs/cache-format.md, "Level file formats").
    public static let webQuality = 80

    /// The colour transparency goes onto, nil when the levels keep it.
    public var flattening: Color? { background ?? (format == .jpeg ? EncodeOptions.defaultBackground : nil) }

    /// Two options are the same when they make the same cache, however they were spelled: the
    /// blur's numbers as rendered (`BlurCacheSpec`), and the background as used (`--background
    /// white` for JPEG levels is JPEG's default), so a rerun with a default given or left out
    /// skips the caches it made.
    public static func == (a: CacheOptions, b: CacheOptions) -> Bool {
        a.blur == b.blur && a.scale == b.scale && a.compact == b.compact && a.format == b.format && a.quality == b.quality
            && a.webpQuality == b.webpQuality && a.color == b.color && a.flattening == b.flattening && a.sourceLevel == b.sourceLevel
            && a.contentNames == b.contentNames
    }

    /// Level files: PNG at deflate level 1 (Up filter: Frost's run-length deflate), JPEG at
    /// `quality` (4:4:4 from 90 up), or WebP, lossless at effort 1 or lossy at `webpQuality`. On
    /// the default plan's 4096² photo levels the PNG deflates 2.0-3.2x faster than libdeflate's
    /// level 1 for 1% more bytes (docs/formats.md, "PNG settings"); the formats side by side are in
    /// docs/cache-format.md.
    public var encodeOptions: EncodeOptions { EncodeOptions(quality: quality, compressionLevel: 1, webpQuality: webpQuality) }
}

/// The manifest's `parameters`: one flat object, as caches have always recorded it (`colorspace`
/// and `intent` only when the levels were converted, `background`, `sourceLevel` and
/// `contentNames` only when given, so every other manifest stays as it was). A preset's numbers
/// are recorded as it renders them.
extension CacheOptions: Codable {
    private enum CodingKeys: String, CodingKey {
        case levels, maxSigma, maxRadius, spacing, tint, saturation, ramp, scale, preset, compact, format, quality, webpQuality, colorspace, intent,
             background, sourceLevel, contentNames
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(levels: try c.decode(Int.self, forKey: .levels), maxSigma: try c.decodeIfPresent(Double.self, forKey: .maxSigma),
                  maxRadius: try c.decodeIfPresent(Double.self, forKey: .maxRadius),
                  spacing: try c.decode(CachePlan.Spacing.self, forKey: .spacing), tint: try c.decodeIfPresent(Color.self, forKey: .tint),
                  saturation: try c.decode(Double.self, forKey: .saturation), ramp: try c.decode(Bool.self, forKey: .ramp),
                  scale: try c.decode(Double.self, forKey: .scale), preset: try c.decodeIfPresent(Preset.self, forKey: .preset),
                  compact: try c.decode(Bool.self, forKey: .compact), format: try c.decode(ImageFormat.self, forKey: .format),
                  quality: try c.decode(Int.self, forKey: .quality), webpQuality: try c.decodeIfPresent(Int.self, forKey: .webpQuality))
        if let name = try c.decodeIfPresent(String.self, forKey: .colorspace) {
            let intentName = try c.decode(String.self, forKey: .intent)
            guard let intent = CacheColor.intentNames.first(where: { $0.value == intentName })?.key else {
                throw DecodingError.dataCorruptedError(forKey: .intent, in: c, debugDescription: "unknown intent '\(intentName)'")
            }
            color = CacheColor(name: name, intent: intent)
        }
        background = try c.decodeIfPresent(Color.self, forKey: .background)
        sourceLevel = try c.decodeIfPresent(Bool.self, forKey: .sourceLevel) ?? true
        contentNames = try c.decodeIfPresent(Bool.self, forKey: .contentNames) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let blur = blur.effective
        try c.encode(blur.levels, forKey: .levels)
        try c.encodeIfPresent(blur.maxSigma, forKey: .maxSigma)
        try c.encodeIfPresent(blur.maxRadius, forKey: .maxRadius)
        try c.encode(blur.spacing, forKey: .spacing)
        try c.encodeIfPresent(blur.tint, forKey: .tint)
        try c.encode(blur.saturation, forKey: .saturation)
        try c.encode(blur.ramp, forKey: .ramp)
        try c.encode(scale, forKey: .scale)
        try c.encodeIfPresent(blur.preset, forKey: .preset)
        try c.encode(compact, forKey: .compact)
        try c.encode(format, forKey: .format)
        try c.encode(quality, forKey: .quality)
        try c.encodeIfPresent(webpQuality, forKey: .webpQuality)
        if let color {
            try c.encode(color.name, forKey: .colorspace)
            try c.encode(CacheColor.intentNames[color.intent], forKey: .intent)
        }
        try c.encodeIfPresent(background, forKey: .background)
        if !sourceLevel { try c.encode(false, forKey: .sourceLevel) }
        if contentNames { try c.encode(true, forKey: .contentNames) }
    }
}
