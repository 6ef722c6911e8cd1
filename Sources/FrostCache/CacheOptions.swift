import FrostCodecs
import FrostCore

/// Everything a user chooses about a cache; recorded in the manifest, compared on resume.
public struct CacheOptions: Sendable, Equatable, Codable {
    public enum Preset: String, Sendable, Codable, CaseIterable { case twitter, secret }

    public var levels: Int
    public var maxSigma: Double?
    public var maxRadius: Double?
    public var spacing: CachePlan.Spacing
    public var tint: Color?
    public var saturation: Double
    public var ramp: Bool
    public var scale: Double
    public var preset: Preset?
    public var compact: Bool
    public var format: ImageFormat
    /// JPEG quality.
    public var quality: Int
    /// WebP levels: lossy at this quality, lossless when nil.
    public var webpQuality: Int?

    /// The default top of the blur when neither --max-sigma nor --max-radius is given.
    public static let defaultMaxSigma = 40.0

    public init(levels: Int = 10, maxSigma: Double? = nil, maxRadius: Double? = nil, spacing: CachePlan.Spacing = .geometric,
                tint: Color? = nil, saturation: Double = 1, ramp: Bool = false, scale: Double = 1, preset: Preset? = nil,
                compact: Bool = true, format: ImageFormat = .png, quality: Int = 90, webpQuality: Int? = nil) {
        self.levels = levels
        self.maxSigma = maxSigma
        self.maxRadius = maxRadius
        self.spacing = spacing
        self.tint = tint
        self.saturation = saturation
        self.ramp = ramp
        self.scale = scale
        self.preset = preset
        self.compact = compact
        self.format = format
        self.quality = quality
        self.webpQuality = webpQuality
    }

    public var plan: CachePlan {
        switch preset {
        case .twitter: return .twitter(scale: scale, compact: compact)
        case .secret: return .secret(scale: scale, compact: compact)
        case nil:
            return CachePlan(count: levels, maxSigma: maxRadius == nil ? (maxSigma ?? Self.defaultMaxSigma) : nil,
                             maxRadius: maxRadius, spacing: spacing, tint: tint, saturation: saturation, ramp: ramp,
                             scale: scale, compact: compact)
        }
    }

    /// Level files: PNG at deflate level 1 (Up filter: Frost's run-length deflate), JPEG at
    /// `quality` (4:4:4 from 90 up), or WebP, lossless at effort 1 or lossy at `webpQuality`. On
    /// the default plan's 4096² photo levels the PNG deflates 2.0-3.2x faster than libdeflate's
    /// level 1 for 1% more bytes (docs/formats.md, "PNG settings"); the formats side by side are in
    /// docs/cache-format.md.
    public var encodeOptions: EncodeOptions { EncodeOptions(quality: quality, compressionLevel: 1, webpQuality: webpQuality) }
}
