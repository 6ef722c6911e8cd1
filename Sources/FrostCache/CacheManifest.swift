import FrostCore
import FrostFiles

/// `manifest.json`: what a cache folder holds. Written last and atomically, so a folder without a
/// valid manifest, or whose hashes or parameters do not match, is not a cache.
public struct CacheManifest: Sendable, Equatable, Codable {
    /// The manifest's `format` value.
    public static let formatName = "frost-blur-cache"
    /// 2 adds each level's `margin` and `placement`; version 1 caches still load (their geometry
    /// follows from the factor: one block of margin when reduced).
    public static let currentVersion = 2
    /// 3: a cache without its source level (`CacheOptions.sourceLevel` false): its `levels` begin
    /// at index 1, which a version 2 reader would take for the source. A cache that has level 0
    /// is written as version 2, so that readers of version 2 keep reading it (the version is
    /// the one a reader needs).
    public static let sourcelessVersion = 3
    /// The manifest versions this build reads.
    public static let supportedVersions = 1...3

    /// The image the cache was made from.
    public struct Source: Sendable, Equatable, Codable {
        /// The source's file name (no folder).
        public var file: String
        /// The source file's size.
        public var bytes: Int
        /// The source file's SHA-256, lowercase hex (`--verify` checks it, and a rerun whose source
        /// has another identity but the same size).
        public var sha256: String
        /// Which file or object it was, as it was read: `etag:<ETag>` for an object in a bucket,
        /// `inode:<ino>/mtime:<sec>.<nsec>` for a local file (nil in caches made before it was kept).
        /// With `bytes`, what a batch's rerun checks to skip a cache without reading its source.
        public var identity: String?
        /// The source's width in pixels.
        public var width: Int
        /// The source's height in pixels.
        public var height: Int

        public init(file: String, bytes: Int, sha256: String, width: Int, height: Int, identity: String? = nil) {
            (self.file, self.bytes, self.sha256, self.width, self.height, self.identity) = (file, bytes, sha256, width, height, identity)
        }

        /// Whether this is the source `info` describes (`Storage.info`: a file's status, an
        /// object's HEAD or listing), by its size and identity, nothing read; a source recorded
        /// without an identity is none.
        public func isSource(_ info: ObjectInfo) -> Bool {
            bytes == info.size && identity == info.identity
        }
    }

    /// One level file.
    public struct Level: Sendable, Equatable, Codable {
        /// 0 is the source; 1…N blur more and more.
        public var index: Int
        /// The level's gaussian σ in source pixels.
        public var sigma: Double
        /// ImageEffects radius in points.
        public var radius: Double
        /// Stored at 1/factor of the source size.
        public var factor: Int
        /// The stored image's width in pixels (reduced, with its margin, for a compact level).
        public var width: Int
        /// The stored image's height in pixels.
        public var height: Int
        /// A file name inside the cache folder.
        public var file: String
        /// The level file's SHA-256, checked when it is loaded.
        public var sha256: String
        /// Stored pixels of edge margin on each side (version 2; nil in version 1).
        public var margin: Int?
        /// Where the stored image lies in source pixel coordinates (version 2; nil in version 1).
        public var placement: Placement?
        /// The level file's size in bytes (nil in caches made before it was recorded): a rerun
        /// checks a level by its size (`stat`) without reading it.
        public var bytes: Int?

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
        /// The stored image's left edge in source pixels (negative: the margin).
        public var x: Double
        /// The stored image's top edge in source pixels.
        public var y: Double
        /// The stored image's width in source pixels.
        public var width: Double
        /// The stored image's height in source pixels.
        public var height: Double

        /// Where a level stored at 1/`f` with `m` blocks of margin lies over the source.
        public init(factor f: Int, margin m: Int, storedWidth w: Int, storedHeight h: Int) {
            x = -Double(m * f)
            y = -Double(m * f)
            width = Double(w * f)
            height = Double(h * f)
        }
    }

    /// Always `formatName`.
    public var format: String
    /// The manifest's version (`supportedVersions`).
    public var version: Int
    /// The image the levels were made from.
    public var source: Source
    /// What the user chose; a batch rebuilds a cache made with other options.
    public var parameters: CacheOptions
    /// The levels' plan, as rendered.
    public var plan: CachePlan
    /// One entry per level file, from the source up (from level 1 in version 3).
    public var levels: [Level]
    /// The colour the source's transparency was flattened onto before its levels were made
    /// (JPEG levels hold no alpha; `--background`), nil when nothing was flattened.
    public var flattenedOnto: Color?

    /// The manifest's entry for the plan's level `index`, nil when the cache does not keep it
    /// (level 0 of a cache without its source level).
    public func level(_ index: Int) -> Level? { levels.first { $0.index == index } }
}
