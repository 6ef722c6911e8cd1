#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CFrostSystem
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

    /// A file or object as a local file, to be read as files are (by rows, in pieces), with what
    /// it is (size and identity), refused past `maxBytes` before anything is read: a local file is
    /// itself (opened and its status taken, nothing read); an object is downloaded into a
    /// temporary file (`TMPDIR`) as it arrives, never whole in memory. The download's name is
    /// removed as soon as it is made, so a process killed while it works (SIGKILL) leaves nothing
    /// behind: it is read through `/proc/self/fd/N` while the copy holds it open, and is gone
    /// when the copy is dropped. `listed`: what a listing said of the object, which saves its HEAD.
    public static func localCopy(_ path: String, maxBytes: Int = .max, listed: ObjectInfo? = nil) throws -> LocalCopy {
        guard let address = ObjectAddress(path) else {
            let (fd, st) = try LocalStore.openInput(path, maxBytes: maxBytes)
            close(fd)
            return LocalCopy(path: path, info: LocalStore.info(st))
        }
        if maxBytes < .max {
            guard let info = try listed ?? S3Client.shared.head(address) else {
                throw CodecError(.io, "no such object (404 NoSuchKey)", file: path)
            }
            if info.size > maxBytes { throw LocalStore.tooLarge(maxBytes, size: info.size) }
        }
        var template = Array((NSTemporaryDirectory() + "frost-download-XXXXXX").utf8CString)
        // Held open for the copy's life, never a child's (ffmpeg): closed on exec.
        let fd = template.withUnsafeMutableBufferPointer { frost_make_temporary($0.baseAddress!) }
        guard fd >= 0 else { throw LocalStore.ioError("cannot create a temporary file in \(NSTemporaryDirectory())") }
        unlink(template)
        do {
            return LocalCopy(downloaded: fd, info: try S3Client.shared.download(address, into: fd, maxBytes: maxBytes))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Copies the local file at `file` to `path` (an object: uploaded as it is read, in parts
    /// past 16 MiB), which appears whole or not at all.
    public static func copy(file: String, to path: String) throws {
        let sink = try writer(path)
        try LocalStore.readPieces(file, chunk: 4 << 20) { try sink.append($0) }
        try sink.commit()
    }

    /// The bytes of a file or object, nil when there is none (one GET for an object); a lookup
    /// that fails (a 503, EIO) is thrown, not taken for none.
    public static func readIfPresent(_ path: String) throws -> [UInt8]? {
        guard let address = ObjectAddress(path) else { return try LocalStore.info(path) == nil ? nil : try LocalStore.read(path).bytes }
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

    /// The size and identity of a file or object, nil only when there is surely none (ENOENT or
    /// ENOTDIR, a folder there; an object's 404); a lookup that fails otherwise is thrown.
    public static func info(_ path: String) throws -> ObjectInfo? {
        guard let address = ObjectAddress(path) else { return try LocalStore.info(path) }
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
            return try ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { try LocalStore.info(folder + "/" + $0) != nil }
        }
        let prefix = address.isFolder ? address.key : address.key + "/"
        return try S3Client.shared.list(bucket: address.bucket, prefix: prefix, delimiter: "/").map { String($0.key.dropFirst(prefix.count)) }
    }

    /// Every object under a prefix with its key relative to it, in key order.
    public static func objects(under address: ObjectAddress) throws -> [(relative: String, info: ObjectInfo)] {
        var found: [(relative: String, info: ObjectInfo)] = []
        try objects(under: address) { found += $0 }
        return found
    }

    /// The same, a page (up to 1000) at a time as the listing arrives, for listings too long to hold.
    public static func objects(under address: ObjectAddress, page: ([(relative: String, info: ObjectInfo)]) throws -> Void) throws {
        let prefix = address.isFolder ? address.key : address.key + "/"
        try S3Client.shared.list(bucket: address.bucket, prefix: prefix) { listed in
            try page(listed.map { (String($0.key.dropFirst(prefix.count)), $0.info) })
        }
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

/// A file or object as a local file (`Storage.localCopy`): the file itself, or a download of
/// the object without a name, held open and gone when the copy is dropped.
public final class LocalCopy: Sendable {
    /// The local file to read (a download's `/proc/self/fd/N`: opening it opens the file anew).
    public let path: String
    /// What the file or object was when it was read: its size and identity.
    public let info: ObjectInfo
    /// The download's descriptor, which keeps it; -1 for a local file.
    private let descriptor: Int32

    init(path: String, info: ObjectInfo) {
        (self.path, self.info, descriptor) = (path, info, -1)
    }

    init(downloaded descriptor: Int32, info: ObjectInfo) {
        (path, self.info, self.descriptor) = ("/proc/self/fd/\(descriptor)", info, descriptor)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
