import FrostCodecs
import FrostFiles

/// A cache folder examined level by level, as `frost info DIR` shows it: each level's file, bytes
/// and format, and the first thing wrong with it. Unlike `CacheStore.load`, which stops at the
/// first fault, every level is looked at, so one report names every broken file.
public struct CacheCheck: Sendable {
    /// One level's file as found.
    public struct Level: Sendable {
        /// What the manifest says of it.
        public let entry: CacheManifest.Level
        /// The file's size, nil when it cannot be read.
        public let bytes: Int?
        /// The format its header says, nil when it has none Frost reads.
        public let format: ImageFormat?
        /// What is wrong with it, naming the file, nil when it is sound.
        public let problem: String?
    }

    /// The manifest, read and checked.
    public let manifest: CacheManifest
    /// Every level, in order.
    public let levels: [Level]

    /// True when every level is sound.
    public var isSound: Bool { levels.allSatisfy { $0.problem == nil } }
    /// The level files' bytes together.
    public var totalBytes: Int { levels.reduce(0) { $0 + ($1.bytes ?? 0) } }

    /// Reads the manifest (throwing when there is no cache to speak of) and checks every level:
    /// the file is inside the folder and matches its SHA-256, its header gives the manifest's size
    /// in the cache's format, and its σ, factor and placement are the plan's.
    public init(folder: String) throws {
        manifest = try CacheStore.readManifest(folder)
        let manifest = manifest
        levels = manifest.levels.map { entry in
            var bytes: Int?, format: ImageFormat?
            let problem: String? = {
                do {
                    let data = try FileIO.read(try CacheStore.levelPath(folder, entry))
                    bytes = data.count
                    try CacheStore.verifyHash(data, entry)
                    let info = try ImageInfo(bytes: data)
                    format = info.format
                    return Self.mismatch(entry, info, plan: manifest.plan.levels[entry.index], format: manifest.parameters.format)
                } catch {
                    let message = (error as? CodecError)?.message ?? "\(error)"
                    return message.contains(entry.file) ? message : "\(entry.file): \(message)"
                }
            }()
            return Level(entry: entry, bytes: bytes, format: format, problem: problem)
        }
    }

    /// The first way a readable level file disagrees with the manifest and the plan, or nil.
    static func mismatch(_ entry: CacheManifest.Level, _ info: ImageInfo, plan: CachePlan.Level, format: ImageFormat) -> String? {
        if let problem = CacheStore.sizeProblem(entry, info.width, info.height) { return problem }
        if info.format != format {
            return "\(entry.file) is \(info.format.rawValue), the cache's levels are \(format.rawValue)"
        }
        if entry.index != plan.index || entry.sigma != plan.sigma || entry.factor != plan.factor {
            return "level \(entry.index) (σ \(entry.sigma), factor \(entry.factor)) is not the plan's level "
                + "\(plan.index) (σ \(plan.sigma), factor \(plan.factor))"
        }
        if let placement = entry.placement,
           placement != CacheManifest.Placement(factor: entry.factor, margin: entry.storedMargin,
                                                storedWidth: entry.width, storedHeight: entry.height) {
            return "level \(entry.index)'s placement does not follow from its factor, margin and size"
        }
        return nil
    }
}
