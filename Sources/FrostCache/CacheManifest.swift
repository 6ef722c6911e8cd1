/// `manifest.json`: what a cache folder holds. Written last and atomically, so a folder without a
/// valid manifest, or whose hashes or parameters do not match, is not a cache.
public struct CacheManifest: Sendable, Equatable, Codable {
    public static let formatName = "frost-blur-cache"
    /// 2 adds each level's `margin` and `placement`; version 1 caches still load (their geometry
    /// follows from the factor: one block of margin when reduced).
    public static let currentVersion = 2
    public static let supportedVersions = 1...2

    public struct Source: Sendable, Equatable, Codable {
        /// The source's file name (no folder).
        public var file: String
        public var bytes: Int
        public var sha256: String
        public var width: Int
        public var height: Int
    }

    public struct Level: Sendable, Equatable, Codable {
        public var index: Int
        public var sigma: Double
        /// ImageEffects radius in points.
        public var radius: Double
        /// Stored at 1/factor of the source size.
        public var factor: Int
        public var width: Int
        public var height: Int
        /// A file name inside the cache folder.
        public var file: String
        public var sha256: String
        /// Stored pixels of edge margin on each side (version 2; nil in version 1).
        public var margin: Int?
        /// Where the stored image lies in source pixel coordinates (version 2; nil in version 1).
        public var placement: Placement?

        /// Stored pixel (i, j) is the average of source pixels [f·(i − m), f·(i − m) + f) ×
        /// [f·(j − m), f·(j − m) + f), edge-extended: its center is at f·(i − m + ½). Drawn as a
        /// texture stretched over `placement` with bilinear filtering (pixel centers aligned,
        /// clamped), then cut to the source's rectangle, a level is what `frost fade` shows within
        /// one level (docs/cache-format.md).
        public var geometry: Placement {
            placement ?? Placement(factor: factor, margin: storedMargin, storedWidth: width, storedHeight: height)
        }

        /// The margin in stored pixels: written in version 2, one block when reduced in version 1.
        public var storedMargin: Int { margin ?? (factor > 1 ? CachePlan.storageMargin : 0) }
    }

    /// A rectangle in source pixels (x right, y down, a pixel k covering [k, k + 1)).
    public struct Placement: Sendable, Equatable, Codable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(factor f: Int, margin m: Int, storedWidth w: Int, storedHeight h: Int) {
            x = -Double(m * f)
            y = -Double(m * f)
            width = Double(w * f)
            height = Double(h * f)
        }
    }

    public var format: String
    public var version: Int
    public var source: Source
    public var parameters: CacheOptions
    public var plan: CachePlan
    public var levels: [Level]
}
