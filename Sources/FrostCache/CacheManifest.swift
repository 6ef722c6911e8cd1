/// `manifest.json`: what a cache folder holds. Written last and atomically, so a folder without a
/// valid manifest, or whose hashes or parameters do not match, is not a cache.
public struct CacheManifest: Sendable, Equatable, Codable {
    public static let formatName = "frost-blur-cache"
    public static let currentVersion = 1

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
    }

    public var format: String
    public var version: Int
    public var source: Source
    public var parameters: CacheOptions
    public var plan: CachePlan
    public var levels: [Level]
}
