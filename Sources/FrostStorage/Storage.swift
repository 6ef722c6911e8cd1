#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FrostCodecs

/// Where Frost reads and writes: a path names a local file or folder, `s3://BUCKET/KEY` an object
/// in a bucket (`s3://BUCKET/PREFIX/` a "folder" of them). Every reader and writer (inputs,
/// outputs, folder walks, lists, caches, manifests, reports) goes through these calls, so no
/// command has a path of its own for S3 (docs/storage.md).
public enum Storage {
    /// The bytes of a file or object and what was read (its size and identity), refused before
    /// reading when it holds more than `maxBytes`: a file from its status, an object from its HEAD
    /// (or from `listed`, what a listing said of it, which saves the HEAD).
    public static func fetch(_ path: String, maxBytes: Int = .max, listed: ObjectInfo? = nil) throws -> (bytes: [UInt8], info: ObjectInfo) {
        guard let address = ObjectAddress(path) else { return try LocalStore.read(path, maxBytes: maxBytes) }
        if maxBytes < .max {
            guard let info = try listed ?? S3Client.shared.head(address) else {
                throw CodecError(.io, "no such object (404 NoSuchKey)", file: path)
            }
            if info.size > maxBytes { throw LocalStore.tooLarge(maxBytes, size: info.size) }
        }
        return try S3Client.shared.get(address, maxBytes: maxBytes)
    }

    /// The bytes of a file or object, nil when there is none (one GET for an object).
    public static func readIfPresent(_ path: String) throws -> [UInt8]? {
        guard let address = ObjectAddress(path) else { return LocalStore.info(path) == nil ? nil : try LocalStore.read(path).bytes }
        return try S3Client.shared.getIfPresent(address)?.bytes
    }

    /// The bytes of a file or object.
    public static func read(_ path: String, maxBytes: Int = .max) throws -> [UInt8] {
        try fetch(path, maxBytes: maxBytes).bytes
    }

    /// Up to `count` bytes from the start (an object's by a ranged GET).
    public static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
        guard let address = ObjectAddress(path) else { return try LocalStore.readPrefix(path, count: count) }
        return try S3Client.shared.get(address, range: 0..<count).bytes
    }

    /// The size and identity of a file or object, nil when there is none.
    public static func info(_ path: String) throws -> ObjectInfo? {
        guard let address = ObjectAddress(path) else { return LocalStore.info(path) }
        return try S3Client.shared.head(address)
    }

    /// A writer whose file or object appears whole at `commit()` and not at all otherwise.
    public static func writer(_ path: String) throws -> any FileSink {
        guard let address = ObjectAddress(path) else { return try AtomicFile(path) }
        return S3Upload(address)
    }

    /// Writes `bytes` so that a reader sees the old file or object or the new one, never a part.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try writer(path)
        try file.append(bytes)
        try file.commit()
    }

    /// Removes a file or object; none there is no error.
    public static func remove(_ path: String) throws {
        guard let address = ObjectAddress(path) else {
            if unlink(path) != 0 && errno != ENOENT { throw LocalStore.ioError("cannot remove") }
            return
        }
        try S3Client.shared.delete(address)
    }

    /// Makes a folder and its parents; a bucket has none to make.
    public static func makeFolder(_ path: String) throws {
        if ObjectAddress.isObject(path) { return }
        try LocalStore.makeFolder(path)
    }

    /// The names of the files (not folders) directly in a folder: a local folder's entries, or
    /// the keys one level under an object prefix.
    public static func names(in folder: String) throws -> [String] {
        guard let address = ObjectAddress(folder) else {
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { LocalStore.info(folder + "/" + $0) != nil }
        }
        let prefix = address.isFolder ? address.key : address.key + "/"
        return try S3Client.shared.list(bucket: address.bucket, prefix: prefix, delimiter: "/").map { String($0.key.dropFirst(prefix.count)) }
    }

    /// Every object under a prefix with its key relative to it, in key order.
    public static func objects(under address: ObjectAddress) throws -> [(relative: String, info: ObjectInfo)] {
        let prefix = address.isFolder ? address.key : address.key + "/"
        return try S3Client.shared.list(bucket: address.bucket, prefix: prefix).map { (String($0.key.dropFirst(prefix.count)), $0.info) }
    }

    /// The folder holding `path` (`s3://b/a/list.txt` → `s3://b/a`), "" for a bare local name.
    public static func parent(of path: String) -> String {
        if let address = ObjectAddress(path) {
            let key = address.key.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            return "\(ObjectAddress.scheme)\(address.bucket)\(key.isEmpty ? "" : "/" + key)"
        }
        return (path as NSString).deletingLastPathComponent
    }

    /// The last part of `path`'s name (`s3://b/a/x.jpg` → `x.jpg`).
    public static func lastComponent(_ path: String) -> String {
        if let address = ObjectAddress(path) { return String(address.key.split(separator: "/").last ?? "") }
        return (path as NSString).lastPathComponent
    }
}
