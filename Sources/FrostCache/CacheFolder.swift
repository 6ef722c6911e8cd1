import CFrostSystem
import Foundation
import FrostCodecs
#if canImport(Glibc)
import Glibc
#endif

/// How a cache folder comes to be and goes: built whole in a staging folder beside it
/// (`<folder>.tmp-XXXXXX`) and swapped in, so that a reader finds the old cache or the new one at
/// its path and never a half-built one or none (docs/cache-format.md, "Rebuilds"); and what in a
/// folder is the store's own (level files, the manifest, temporary files), which is all it ever
/// removes.
enum CacheFolder {
    /// The suffix of a cache being built beside `folder` (then six random characters).
    static let stagingMarker = ".tmp-"
    /// The suffix of a cache swapped out and being removed.
    static let retiredMarker = ".old-"

    /// Builds into a new staging folder beside `folder` (`body` writes the cache there, the
    /// manifest last) and swaps it in. A failure removes the staging folder and leaves `folder`
    /// as it was.
    static func staged<T>(_ folder: String, _ body: (String) throws -> T) throws -> T {
        let parent = (folder as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent.isEmpty ? "." : parent, withIntermediateDirectories: true)
        } catch {
            throw CodecError(.io, "cannot create the cache folder \(folder)")
        }
        let staging = try temporaryFolder(folder + stagingMarker)
        do {
            let result = try body(staging)
            try install(staging, at: folder)
            return result
        } catch {
            remove(staging)
            throw error
        }
    }

    /// A new empty folder named `prefix` + six random characters.
    private static func temporaryFolder(_ prefix: String) throws -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CodecError(.io, "cannot create the cache folder \(prefix.dropLast(stagingMarker.count)): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
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
            old = try temporaryFolder(folder + retiredMarker)
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

    /// Removes the store's files from `folder` (level files, manifest, temporary files) and the
    /// folder itself when nothing else is left in it. True when it is gone.
    @discardableResult
    static func remove(_ folder: String) -> Bool {
        for name in entries(folder) where isOwn(name) { unlink(folder + "/" + name) }
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
        return words.count == 1 || (words.count == 2 && words[1].count == 8 && words[1].allSatisfy(\.isHexDigit))
    }

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
