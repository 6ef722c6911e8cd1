import CFrostSystem
import Foundation
import FrostCodecs
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

/// How a cache folder comes to be and goes: built whole in a local staging folder and then put in
/// place. A local cache's staging folder is beside it (`<folder>.tmp-XXXXXX`) and swapped in, so
/// that a reader finds the old cache or the new one at its path and never a half-built one or none
/// (docs/cache-format.md, "Rebuilds"); a cache in a bucket is staged in `TMPDIR` and uploaded, its
/// levels first and its manifest last (`upload`). And what in a folder is the store's own (level
/// files, the manifest, temporary files), which is all it ever removes.
enum CacheFolder {
    /// The suffix of a cache being built beside `folder` (then six random characters).
    static let stagingMarker = ".tmp-"
    /// The start of a bucket cache's staging folder in `TMPDIR` (then `-PID`, the marker, six characters).
    static let bucketStaging = "frost-cache"
    /// The suffix of a cache swapped out and being removed.
    static let retiredMarker = ".old-"

    /// Builds into a new staging folder (`body` writes the cache there, the manifest last) and
    /// puts it in place: swapped in beside it, or uploaded to a bucket. A failure removes the
    /// staging folder and leaves `folder` as it was (in a bucket: see `upload`, which is told the
    /// names already in the folder by `existing` where a listing gave them, else lists them).
    static func staged<T>(_ folder: String, existing: [String]? = nil, _ body: (String) throws -> T) throws -> T {
        let inBucket = ObjectAddress.isObject(folder)
        if !inBucket {
            let parent = Storage.parent(of: folder)
            do {
                try FileManager.default.createDirectory(atPath: parent.isEmpty ? "." : parent, withIntermediateDirectories: true)
            } catch {
                throw CodecError(.io, "cannot create the cache folder \(folder)")
            }
        }
        if inBucket { _ = abandonedStagingsSwept }
        let staging = try temporaryFolder(inBucket ? NSTemporaryDirectory() + bucketStaging + "-\(getpid())" + stagingMarker : folder + stagingMarker,
                                          for: folder)
        // Locked while in use, so that no other run's sweep takes it (whatever its PID says there).
        let lock = inBucket ? open(staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
        if lock >= 0 { flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        do {
            let result = try body(staging)
            if inBucket {
                try upload(staging, to: folder, existing: existing)
                remove(staging)
            } else {
                try install(staging, at: folder)
            }
            return result
        } catch {
            remove(staging)
            throw error
        }
    }

    /// Bucket caches staged in `TMPDIR` by runs that were killed (`frost-cache-PID.tmp-XXXXXX`; no
    /// signal handler removes them), removed once per process before its first: a folder whose
    /// process is gone, that nothing has changed for an hour, and that no run holds locked (a run
    /// in another PID namespace sharing the folder may carry a PID that is free here: its lock
    /// keeps its folder), or an older release's `frost-cache.tmp-XXXXXX` of that age. Only the
    /// store's own files go (`remove`).
    private static let abandonedStagingsSwept: Void = {
        let temporary = NSTemporaryDirectory()
        let now = time(nil)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] {
            guard let pid = stagingOwner(name), pid != getpid(), pid == 0 || (kill(pid, 0) != 0 && errno == ESRCH) else { continue }
            var st = stat()
            let path = FileIO.joined(temporary, name)
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, Double(now - st.st_mtim.tv_sec) > CacheSweep.abandonedAge else { continue }
            let lock = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            if flock(lock, LOCK_EX | LOCK_NB) == 0 { _ = remove(path) }
        }
    }()

    /// The PID in a bucket staging folder's name (`frost-cache-PID.tmp-XXXXXX`), 0 for an older
    /// release's `frost-cache.tmp-XXXXXX`; nil for any other name.
    static func stagingOwner(_ name: String) -> pid_t? {
        guard name.hasPrefix(bucketStaging), let marker = name.range(of: stagingMarker), name[marker.upperBound...].count == 6 else { return nil }
        let tag = name[name.index(name.startIndex, offsetBy: bucketStaging.count)..<marker.lowerBound]
        if tag.isEmpty { return 0 }
        guard tag.hasPrefix("-"), let pid = pid_t(tag.dropFirst()), pid > 0 else { return nil }
        return pid
    }

    /// A new empty folder named `prefix` + six random characters, with the permissions a plain
    /// mkdir gives (mkdtemp's 0700 would keep other users, a web server, out of the cache).
    private static func temporaryFolder(_ prefix: String, for folder: String) throws -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw CodecError(.io, "cannot create the cache folder \(folder): \(String(cString: strerror(errno)))")
        }
        let made = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(made, 0o777 & ~LocalStore.creationMask)
        return made
    }

    /// Puts the finished `staging` folder's cache at `folder` in a bucket: the level files first,
    /// then the manifest, each object appearing whole when its upload completes, so a manifest is
    /// there only when its levels are. Over a previous cache whose level files keep their names
    /// (`level-NN.png`), its manifest is removed first: nothing may vouch for old and new levels
    /// mixed while they are overwritten (a reader finds no cache until the new manifest is there).
    /// Level files named by content (`--content-names`, `--web`) never overwrite another
    /// content, so the old manifest stays until the new one replaces it: readers see the old cache
    /// or the new one. Then the old cache's files the new one does not have are removed. A failed
    /// upload removes what it wrote (but levels the old manifest, kept, still names). The old
    /// cache's names are `existing` when a listing gave them (a batch's of its output), else listed.
    static func upload(_ staging: String, to folder: String, existing: [String]? = nil) throws {
        let files = entries(staging).filter(isOwn).sorted()
        let levels = files.filter { $0 != CacheStore.manifestName }
        let before = Set(try existing ?? Storage.names(in: folder))
        let overwritten = levels.contains { before.contains($0) && !isContentNamed($0) }
        let manifestRemoved = overwritten && before.contains(CacheStore.manifestName)
        var uploaded: [String] = []
        do {
            if manifestRemoved { try Storage.remove(folder + "/" + CacheStore.manifestName) }
            for name in levels {
                try Storage.copy(file: staging + "/" + name, to: folder + "/" + name)
                uploaded.append(name)
            }
            try Storage.copy(file: staging + "/" + CacheStore.manifestName, to: folder + "/" + CacheStore.manifestName)
        } catch {
            for name in uploaded where manifestRemoved || !before.contains(name) { try? Storage.remove(folder + "/" + name) }
            throw error
        }
        for name in before.sorted() where isOwn(name) && !files.contains(name) { try? Storage.remove(folder + "/" + name) }
    }

    /// Puts the finished `staging` folder at `folder`. Where a folder is there already it is
    /// exchanged in one step (renameat2 RENAME_EXCHANGE); where the file system cannot (NFS, FUSE)
    /// the old one is renamed away first, leaving a moment without either. Entries of the old
    /// folder that are not the store's (a user's notes) move into the new one; the rest goes.
    static func install(_ staging: String, at folder: String) throws {
        if rename(staging, folder) == 0 { return }
        guard errno == EEXIST || errno == ENOTEMPTY || errno == EISDIR || errno == ENOTDIR else { throw failure(folder) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CodecError(.io, "cannot write the cache \(folder): exists and is not a folder")
        }
        let old: String
        if frost_rename_exchange(staging, folder) == 0 {
            old = staging
        } else {
            guard errno == EINVAL || errno == ENOSYS || errno == EPERM else { throw failure(folder) }
            old = try temporaryFolder(folder + retiredMarker, for: folder)
            guard rename(folder, old) == 0 else { throw failure(folder) }
            guard rename(staging, folder) == 0 else {
                let error = failure(folder)
                _ = rename(old, folder)
                throw error
            }
        }
        for name in entries(old) where !isOwn(name) { _ = rename(old + "/" + name, folder + "/" + name) }
        remove(old)
    }

    private static func failure(_ folder: String) -> CodecError {
        CodecError(.io, "cannot write the cache \(folder): \(String(cString: strerror(errno)))")
    }

    /// Removes the store's files from `folder` (the manifest first, so that nothing vouches for
    /// a part; then the level files and temporary files) and the folder itself when nothing else is
    /// left in it (a bucket's prefix is gone with its last object). True when it is gone (in a
    /// bucket: when every one of the store's objects is).
    @discardableResult
    static func remove(_ folder: String) -> Bool {
        let inBucket = ObjectAddress.isObject(folder)
        guard let names = inBucket ? try? Storage.names(in: folder) : entries(folder) else { return false }
        let own = names.filter(isOwn).sorted { ($0 == CacheStore.manifestName ? 0 : 1, $0) < ($1 == CacheStore.manifestName ? 0 : 1, $1) }
        if inBucket { return own.allSatisfy { (try? Storage.remove(folder + "/" + $0)) != nil } }
        for name in own { unlink(folder + "/" + name) }
        return rmdir(folder) == 0 || errno == ENOENT
    }

    /// A folder's entries (none when it cannot be read).
    static func entries(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// A file the store writes in a cache folder.
    static func isOwn(_ name: String) -> Bool { isLevelFile(name) || name == CacheStore.manifestName || isTemporary(name) }

    /// `level-NN.png` (or .jpg, .webp), or `level-NN-<8 hex digits>.webp` named by content.
    static func isLevelFile(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        guard parts.count == 2, ImageFormat(pathExtension: name) != nil, parts[0].hasPrefix("level-") else { return false }
        let words = parts[0].dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        let index = words[0]
        guard !index.isEmpty, index.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return words.count == 1 || (words.count == 2 && isContentName(words[1]))
    }

    /// `level-NN-<8 hex digits>.webp`: a level file named by its content.
    static func isContentNamed(_ name: String) -> Bool {
        let words = name.split(separator: ".").first.map { $0.split(separator: "-", omittingEmptySubsequences: false) } ?? []
        return isLevelFile(name) && words.count == 3 && isContentName(words[2])
    }

    private static func isContentName(_ word: Substring) -> Bool { word.count == 8 && word.allSatisfy(\.isHexDigit) }

    /// A file `FileIO`'s atomic writes name while they write (`.NAME.frost-XXXXXX`).
    static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.contains(".frost-") }

    /// For a staging or retired folder's name (`X.tmp-abc123`, `X.old-abc123`): X; else nil.
    static func leftoverBase(_ name: String) -> String? {
        for marker in [stagingMarker, retiredMarker] {
            guard let range = name.range(of: marker, options: .backwards) else { continue }
            let tail = name[range.upperBound...]
            if tail.count == 6, tail.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) { return String(name[..<range.lowerBound]) }
        }
        return nil
    }
}
