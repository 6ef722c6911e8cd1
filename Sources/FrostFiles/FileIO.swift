#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FrostCodecs
@_exported import FrostStorage

/// Whole-file reads and atomic writes with errno-based messages, of local files and (through
/// FrostStorage) of `s3://` objects alike.
public enum FileIO {
    /// The bytes of a file or object, refused before reading when it holds more than `maxBytes`.
    /// `regularOnly`: a local FIFO, socket or device is refused without waiting on it (a server's
    /// files: opening a FIFO would wait for a writer).
    public static func read(_ path: String, maxBytes: Int = .max, regularOnly: Bool = false) throws -> [UInt8] {
        guard regularOnly, !ObjectAddress.isObject(path) else { return try Storage.read(path, maxBytes: maxBytes) }
        return try LocalStore.read(path, maxBytes: maxBytes, regularOnly: true).bytes
    }

    /// The message a file that is not a regular one is refused with (`read(_:regularOnly:)`).
    public static let notRegular = LocalStore.notRegular

    /// The file at `path` opened for reading, with its size; refused when it is a folder or
    /// larger than `maxBytes`, or with `regularOnly` anything but a regular file (opened without
    /// blocking, so a FIFO is refused at once). The caller closes the descriptor.
    package static func openInput(_ path: String, maxBytes: Int, regularOnly: Bool = false) throws -> (descriptor: Int32, size: Int) {
        let (fd, st) = try LocalStore.openInput(path, maxBytes: maxBytes, regularOnly: regularOnly)
        return (fd, Int(st.st_size))
    }

    /// Whether `path` is a folder (or a link to one).
    public static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Up to `count` bytes from the start of a file or object (to sniff its format).
    public static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
        try Storage.readPrefix(path, count: count)
    }

    /// The bytes of the file at `path`, or of standard input for `-` (how every command names it).
    public static func readInput(_ path: String, maxBytes: Int = .max) throws -> [UInt8] {
        path == "-" ? try readStandardInput(maxBytes: maxBytes) : try read(path, maxBytes: maxBytes)
    }

    /// `path` as seen from `folder`: itself when absolute or an object's URL (or with no folder),
    /// else joined to it (`joined`: one slash between, as a prefix `s3://b/photos/` needs). Tested
    /// as bytes, as `confined` reads paths.
    public static func resolve(_ path: String, relativeTo folder: String) -> String {
        path.utf8.first == UInt8(ascii: "/") || ObjectAddress.isObject(path) || folder.isEmpty ? path : joined(folder, path)
    }

    /// Everything on standard input (`-` as an input).
    public static func readStandardInput(maxBytes: Int = .max) throws -> [UInt8] {
        try LocalStore.readStandardInput(maxBytes: maxBytes)
    }

    /// Writes all of `bytes` to standard output (`-` as an output), which the caller calls once,
    /// with the whole encoded file: a failure before it leaves standard output empty.
    public static func writeStandardOutput(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LocalStore.ioError("cannot write to standard output")
            }
            offset += n
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path` (an object:
    /// one that appears when whole), so a reader sees the old file or the new one, never a part;
    /// on failure nothing is left behind.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try Storage.write(bytes, to: path)
    }

    /// Makes `folder` (and its parents) if missing and checks that files can be created in it, so
    /// a batch with nowhere to write says so once instead of failing every input. A bucket's
    /// prefix: a listing of it, which fails when the bucket is missing or the credentials are refused.
    public static func prepareWritableFolder(_ folder: String) throws {
        if let address = ObjectAddress(folder) { return try S3Client.shared.checkAccess(address) }
        try makeFolder(folder)
        _ = try AtomicFile(folder + "/.frost-write-check")   // removed again as it goes
    }

    /// `relative` under `root`, or an error when writing there could land outside `root`: an
    /// absolute path, a `..` segment, or a folder on the way that is a symbolic link.
    /// Paths are bytes here: Swift's `String` compares grapheme clusters, and "/" followed by a
    /// combining mark is one cluster, which would hide a `../` from a split by `Character`.
    /// Under an object prefix (`s3://b/out`) the same rules hold for the key's parts; there are no links.
    public static func confined(_ relative: String, under root: String) throws -> String {
        // `out/` and `out` are one root (and for a bucket, one prefix: `out//a` would be another key).
        var root = Substring(root)
        while root.count > 1, root.hasSuffix("/") { root = root.dropLast() }
        let outside = { (why: String) in CodecError(.refused, "\(relative) would be written outside \(root.isEmpty ? "." : root)/ (\(why))") }
        if relative.utf8.first == UInt8(ascii: "/") { throw outside("an absolute path") }
        let parts = relative.utf8.split(separator: UInt8(ascii: "/")).filter { !$0.elementsEqual(".".utf8) }
            .map { String(decoding: $0, as: UTF8.self) }
        if parts.isEmpty { throw outside("no file name") }
        if parts.contains(where: { $0.utf8.elementsEqual("..".utf8) }) { throw outside("a .. segment") }
        var folder = root.isEmpty ? "." : String(root)
        for part in parts.dropLast() where !ObjectAddress.isObject(folder) {
            folder += "/" + part
            var st = stat()
            if lstat(folder, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK { throw outside("\(folder) is a symbolic link") }
        }
        return (root.isEmpty ? "" : root + "/") + parts.joined(separator: "/")
    }

    /// Whether `path` lies inside `folder` (both absolute, links resolved), compared as bytes.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        path.utf8.elementsEqual(folder.utf8) || path.utf8.starts(with: (folder == "/" ? "/" : folder + "/").utf8)
    }

    /// `name` inside `folder`, with one slash between them however `folder` ends (`src/` and `src`
    /// both give `src/a.jpg`).
    public static func joined(_ folder: String, _ name: String) -> String {
        var folder = Substring(folder)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    /// Which file `path` is (device and inode, links followed), however it is named; nil when it
    /// does not exist.
    public static func identity(of path: String) -> FileIdentity? {
        var st = stat()
        return stat(path, &st) == 0 ? FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) : nil
    }

    /// The absolute path with every link resolved, or nil when it does not resolve.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// mkdir -p, with errno's own words ("Read-only file system") on failure; nothing for a bucket.
    public static func makeFolder(_ folder: String) throws {
        try Storage.makeFolder(folder)
    }
}

/// A file on disk, whatever its name: two paths are one file when their identities are equal.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
}
