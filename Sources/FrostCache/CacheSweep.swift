import Foundation
import FrostFiles

/// What a batch's output holds besides the caches it is about to build: every cache folder
/// (`<relative path>.frost` with a manifest), and what killed runs left (staging and retired
/// folders, `.frost` folders without a manifest). Found by walking the folders (names and `stat`
/// only: no file is read), without entering a cache. Each entry carries the input path it
/// belongs to, so that a shard acts only on its own (`FileBatch.shard`).
public struct CacheSweep: Sendable {
    /// A folder found, and the input's relative path it mirrors (`a/b.jpg` for `a/b.jpg.frost`).
    public struct Entry: Sendable, Equatable {
        public let relative: String
        public let path: String

        public init(relative: String, path: String) {
            self.relative = relative
            self.path = path
        }
    }

    /// Cache folders with a manifest.
    public let caches: [Entry]
    /// Staging (`X.frost.tmp-…`) and retired (`X.frost.old-…`) folders, and `.frost` folders
    /// without a manifest: nothing reads them, and a run removes its shard's.
    public let leftovers: [Entry]

    /// The suffix of a cache folder's name.
    public static let suffix = ".frost"

    /// The caches and leftovers under `output` (none when it does not exist yet).
    public init(output: String) {
        var caches: [Entry] = [], leftovers: [Entry] = []
        let walker = FileManager.default.enumerator(atPath: output)
        while let relative = walker?.nextObject() as? String {
            guard walker?.fileAttributes?[.type] as? FileAttributeType == .typeDirectory else { continue }
            let path = FileIO.joined(output, relative)
            if let base = CacheFolder.leftoverBase(relative), base.hasSuffix(Self.suffix) {
                leftovers.append(Entry(relative: String(base.dropLast(Self.suffix.count)), path: path))
                walker?.skipDescendants()
            } else if relative.hasSuffix(Self.suffix) {
                let entry = Entry(relative: String(relative.dropLast(Self.suffix.count)), path: path)
                if FileManager.default.fileExists(atPath: path + "/" + CacheStore.manifestName) { caches.append(entry) } else { leftovers.append(entry) }
                walker?.skipDescendants()
            }
        }
        self.caches = caches
        self.leftovers = leftovers
    }

    /// Whether the folder at `path` is a cache or a leftover of one, which a folder walk for
    /// inputs does not enter (its levels are not images to cache).
    public static func isCacheFolder(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        if let base = CacheFolder.leftoverBase(name), base.hasSuffix(suffix) { return true }
        return name.hasSuffix(suffix) && CacheFolder.entries(path).contains(where: CacheFolder.isOwn)
    }

    /// Removes a leftover: the store's files in it and the folder, when nothing else is left. True
    /// when it is gone.
    public static func remove(_ entry: Entry) -> Bool { CacheFolder.remove(entry.path) }
}
