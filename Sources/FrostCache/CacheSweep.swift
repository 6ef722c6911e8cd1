import Foundation
import FrostCodecs
import FrostFiles

/// What a batch's output holds besides the caches it is about to build: every cache (`<relative
/// path>.frost` with a manifest), and what killed runs left (staging and retired folders, `.frost`
/// folders or prefixes without a manifest). Found without reading a file: a local output by
/// walking its folders (names and `stat`, not entering a cache), a bucket's by one listing of the
/// prefix (ListObjectsV2, a page of 1000 keys a request). Only the entries of the inputs `owns`
/// accepts are kept (given the relative path a cache mirrors: this shard's, `FileBatch.shard`), so
/// that a shard acts only on its own and holds only its own.
public struct CacheSweep: Sendable {
    /// A cache found, and the input's relative path it mirrors (`a/b.jpg` for `a/b.jpg.frost`).
    public struct Entry: Sendable, Equatable {
        public let relative: String
        public let path: String
        /// In a bucket, when its newest object was written (seconds since 1970, from the listing).
        public var modified: Double?

        public init(relative: String, path: String, modified: Double? = nil) {
            self.relative = relative
            self.path = path
            self.modified = modified
        }
    }

    /// Caches with a manifest.
    public let caches: [Entry]
    /// Staging (`X.frost.tmp-…`) and retired (`X.frost.old-…`) folders, and `.frost` folders or
    /// prefixes without a manifest: nothing reads them, and a run removes its shard's.
    public let leftovers: [Entry]
    /// In a bucket, every object of the kept caches and leftovers with its size (by `s3://` path):
    /// what a rerun checks a cache's levels against without a request of its own. Empty for a
    /// local output, whose files are `stat`ed when they are checked.
    public let objectSizes: [String: Int]

    /// The suffix of a cache folder's name.
    public static let suffix = ".frost"

    /// The caches and leftovers under `output` (none when it does not exist yet) of the inputs
    /// `owns` accepts. A bucket that cannot be listed (missing, refused) is an error.
    public init(output: String, owns: (String) -> Bool = { _ in true }) throws {
        var caches: [Entry] = [], leftovers: [Entry] = [], sizes: [String: Int] = [:]
        if let address = ObjectAddress(output) {
            let root = address.isFolder ? address.description : address.description + "/"
            var files: [String: Set<String>] = [:]   // cache prefix → its names, this shard's
            var newest: [String: Double] = [:]       // cache prefix → its newest object's time
            try Storage.objects(under: address) { page in
                for (relative, info) in page {
                    guard let slash = relative.lastIndex(of: "/") else { continue }
                    let folder = String(relative[..<slash]), name = String(relative[relative.index(after: slash)...])
                    guard folder.hasSuffix(Self.suffix), CacheFolder.isOwn(name), owns(String(folder.dropLast(Self.suffix.count))) else { continue }
                    files[folder, default: []].insert(name)
                    sizes[root + relative] = info.size
                    if let modified = info.modified { newest[folder] = max(newest[folder] ?? modified, modified) }
                }
            }
            for (folder, names) in files.sorted(by: { $0.key < $1.key }) {
                let entry = Entry(relative: String(folder.dropLast(Self.suffix.count)), path: root + folder, modified: newest[folder])
                if names.contains(CacheStore.manifestName) { caches.append(entry) } else { leftovers.append(entry) }
            }
        } else {
            let walker = FileManager.default.enumerator(atPath: output)
            while let relative = walker?.nextObject() as? String {
                guard walker?.fileAttributes?[.type] as? FileAttributeType == .typeDirectory else { continue }
                let path = FileIO.joined(output, relative)
                if let base = CacheFolder.leftoverBase(relative), base.hasSuffix(Self.suffix) {
                    walker?.skipDescendants()
                    let entry = Entry(relative: String(base.dropLast(Self.suffix.count)), path: path)
                    if owns(entry.relative) { leftovers.append(entry) }
                } else if relative.hasSuffix(Self.suffix) {
                    walker?.skipDescendants()
                    let entry = Entry(relative: String(relative.dropLast(Self.suffix.count)), path: path)
                    guard owns(entry.relative) else { continue }
                    if FileManager.default.fileExists(atPath: path + "/" + CacheStore.manifestName) { caches.append(entry) } else { leftovers.append(entry) }
                }
            }
        }
        self.caches = caches
        self.leftovers = leftovers
        objectSizes = sizes
    }

    /// A bucket's cache prefix without a manifest is left by a stopped run only once nothing in it
    /// changed for this long (as a staging folder in `TMPDIR`, `CacheFolder`): until then it may be
    /// another run's upload in progress (the same shard run twice at once), whose levels its
    /// manifest is about to vouch for.
    public static let abandonedAge = 3600.0

    /// Whether a leftover is a stopped run's, to be removed: a local one always (a local build is
    /// staged beside its folder and swapped in whole); a bucket's when its newest object is older
    /// than `abandonedAge` at `now` (unknown: kept). One that is not is rebuilt over if it is an
    /// input's (its levels' bytes are the same), never deleted first.
    public static func isAbandoned(_ entry: Entry, now: Double = Date().timeIntervalSince1970) -> Bool {
        guard ObjectAddress.isObject(entry.path) else { return true }
        return entry.modified.map { now - $0 > abandonedAge } ?? false
    }

    /// Whether the folder at `path` is a cache or a leftover of one, which a folder walk for
    /// inputs does not enter (its levels are not images to cache). A prefix in a bucket is told by
    /// its name alone (a listing has no folders to look into).
    public static func isCacheFolder(_ path: String) -> Bool {
        let name = Storage.lastComponent(path)
        if let base = CacheFolder.leftoverBase(name), base.hasSuffix(suffix) { return true }
        return name.hasSuffix(suffix) && (ObjectAddress.isObject(path) || CacheFolder.entries(path).contains(where: CacheFolder.isOwn))
    }

    /// What the lookup of a cache's source found.
    public enum SourceLookup: Sendable, Equatable {
        /// A file or object is at this path.
        case present(String)
        /// Surely gone at every root (`Storage.info`'s nil: ENOENT, ENOTDIR, a 404): an orphan.
        /// The path under the first root.
        case gone(String)
        /// A lookup failed (a 503, EIO, a folder it may not search) and none found the source:
        /// not known, and so never an orphan. The first failure's path and reason.
        case failed(String, String)

        /// Whether the source is surely gone.
        public var isGone: Bool { if case .gone = self { true } else { false } }
    }

    /// Where the source of the cache mirroring `relative` (`a/b.jpg` for `a/b.jpg.frost`) is: the
    /// file or object at that relative path under one of `roots`, the folders, prefixes or lists'
    /// folders a batch took its inputs from. What `cache --batch --prune` and `info --sources` ask.
    public static func lookUpSource(_ relative: String, under roots: [String]) -> SourceLookup {
        var failure: SourceLookup?
        for root in roots {
            let path = FileIO.resolve(relative, relativeTo: root)
            do {
                if try Storage.info(path) != nil { return .present(path) }
            } catch {
                if failure == nil { failure = .failed(path, (error as? CodecError)?.message ?? "\(error)") }
            }
        }
        return failure ?? .gone(FileIO.resolve(relative, relativeTo: roots.first ?? ""))
    }

    /// Removes a cache or a leftover: the store's files in it (its manifest first), and the folder
    /// when nothing else is left. True when it is gone.
    public static func remove(_ entry: Entry) -> Bool { CacheFolder.remove(entry.path) }
}
