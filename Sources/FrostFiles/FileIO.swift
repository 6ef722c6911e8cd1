#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FrostCodecs

/// Whole-file reads and atomic writes with errno-based messages.
public enum FileIO {
    /// The bytes of a file, refused before reading when it holds more than `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = .max) throws -> [UInt8] {
        let (fd, size) = try openInput(path, maxBytes: maxBytes)
        defer { close(fd) }
        return try readAll(fd, sizeHint: size, maxBytes: maxBytes)
    }

    /// The file at `path` opened for reading, with its size; refused when it is a folder or
    /// larger than `maxBytes`. The caller closes the descriptor.
    package static func openInput(_ path: String, maxBytes: Int) throws -> (descriptor: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot open") }
        var st = stat()
        do {
            guard fstat(fd, &st) == 0 else { throw ioError("cannot stat") }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw CodecError(.io, "is a directory") }
            if Int(st.st_size) > maxBytes { throw tooLarge(maxBytes, size: Int(st.st_size)) }
        } catch {
            close(fd)
            throw error
        }
        return (fd, Int(st.st_size))
    }

    /// The file's bytes handed to `body` a piece at a time (`chunk` bytes but the last), refused
    /// past `maxBytes` before anything is read: a large file hashed or copied in little memory.
    package static func readPieces(_ path: String, maxBytes: Int = .max, chunk: Int = 1 << 20, _ body: ([UInt8]) throws -> Void) throws {
        let (fd, _) = try openInput(path, maxBytes: maxBytes)
        defer { close(fd) }
        while true {
            let piece = try read(fd, upTo: chunk)
            if !piece.isEmpty { try body(piece) }
            if piece.count < chunk { return }
        }
    }

    /// Whether `path` is a folder (or a link to one).
    public static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Up to `count` bytes from the start of a file (to sniff its format).
    public static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot open") }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: count)
        let n = head.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) }
        guard n >= 0 else { throw ioError("cannot read") }
        return Array(head.prefix(n))
    }

    /// The bytes of the file at `path`, or of standard input for `-` (how every command names it).
    public static func readInput(_ path: String, maxBytes: Int = .max) throws -> [UInt8] {
        path == "-" ? try readStandardInput(maxBytes: maxBytes) : try read(path, maxBytes: maxBytes)
    }

    /// `path` as seen from `folder`: itself when absolute (or with no folder), else joined to it.
    /// Tested as bytes, as `confined` reads paths.
    public static func resolve(_ path: String, relativeTo folder: String) -> String {
        path.utf8.first == UInt8(ascii: "/") || folder.isEmpty ? path : folder + "/" + path
    }

    /// Everything on standard input (`-` as an input).
    public static func readStandardInput(maxBytes: Int = .max) throws -> [UInt8] {
        try readAll(0, sizeHint: 1 << 20, maxBytes: maxBytes)
    }

    static func tooLarge(_ maxBytes: Int, size: Int? = nil) -> CodecError {
        CodecError(.tooLarge, "file is \(size.map { "\($0) bytes" } ?? "larger than that"), more than the limit of \(maxBytes) bytes (see --max-file-size)")
    }

    /// Reads to the end (a file can grow while it is read: the limit holds for what arrives). The
    /// bytes go straight into the arrays kept: one byte more than the hint to see the end, then
    /// (standard input, a file still growing) pieces of 1 MiB. A zeroed 1 MiB chunk copied from was
    /// a sixth of `frost info` on a 1 MB JPEG (perf).
    private static func readAll(_ fd: Int32, sizeHint: Int, maxBytes: Int) throws -> [UInt8] {
        let first = min(sizeHint, maxBytes) + 1, piece = 1 << 20
        var bytes = try read(fd, upTo: first), full = bytes.count == first
        while full, bytes.count <= maxBytes {
            let more = try read(fd, upTo: piece)
            bytes += more
            full = more.count == piece
        }
        if bytes.count > maxBytes { throw tooLarge(maxBytes) }
        return bytes
    }

    /// Up to `count` bytes from `fd`, fewer only at its end.
    private static func read(_ fd: Int32, upTo count: Int) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, count - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ioError("cannot read")
                }
                if n == 0 { break }
                filled += n
            }
        }
    }

    /// Writes all of `bytes` to standard output (`-` as an output), which the caller calls once,
    /// with the whole encoded file: a failure before it leaves standard output empty.
    public static func writeStandardOutput(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot write to standard output")
            }
            offset += n
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`, so a reader
    /// sees the old file or the new one, never a part; on failure nothing is left behind.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let file = try AtomicFile(path)
        try file.append(bytes)
        try file.commit()
    }

    /// Makes `folder` (and its parents) if missing and checks that files can be created in it, so
    /// a batch with nowhere to write says so once instead of failing every input.
    public static func prepareWritableFolder(_ folder: String) throws {
        try makeFolder(folder)
        _ = try AtomicFile(folder + "/.frost-write-check")   // removed again as it goes
    }

    /// `relative` under `root`, or an error when writing there could land outside `root`: an
    /// absolute path, a `..` segment, or a folder on the way that is a symbolic link.
    /// Paths are bytes here: Swift's `String` compares grapheme clusters, and "/" followed by a
    /// combining mark is one cluster, which would hide a `../` from a split by `Character`.
    public static func confined(_ relative: String, under root: String) throws -> String {
        let outside = { (why: String) in CodecError(.refused, "\(relative) would be written outside \(root.isEmpty ? "." : root)/ (\(why))") }
        if relative.utf8.first == UInt8(ascii: "/") { throw outside("an absolute path") }
        let parts = relative.utf8.split(separator: UInt8(ascii: "/")).filter { !$0.elementsEqual(".".utf8) }
            .map { String(decoding: $0, as: UTF8.self) }
        if parts.isEmpty { throw outside("no file name") }
        if parts.contains(where: { $0.utf8.elementsEqual("..".utf8) }) { throw outside("a .. segment") }
        var folder = root.isEmpty ? "." : root
        for part in parts.dropLast() {
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

    /// mkdir -p, with errno's own words ("Read-only file system") on failure.
    public static func makeFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CodecError(.io, "exists and is not a folder") }
            return
        }
        var path = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o777) != 0 && errno != EEXIST { throw ioError("cannot create the folder") }
        }
    }

    static func ioError(_ what: String) -> CodecError {
        CodecError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}

/// A file on disk, whatever its name: two paths are one file when their identities are equal.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
}

/// A file written in parts (an animation frame by frame) and renamed into place whole: until
/// `commit()` it is a temporary file beside its path, removed if the writer is dropped first, so
/// a failed write never leaves a part or truncates a file already there.
public final class AtomicFile: FileSink {
    /// Where the file lands on `commit()`.
    public let path: String
    private let temporary: String
    private var fd: Int32

    /// A temporary file beside `path` (0666 less the umask, as a plain create).
    public init(_ path: String) throws {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder.isEmpty ? "/" : folder)/.\(name).frost-XXXXXX".utf8CString)
        fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileIO.ioError("cannot create a file in \(folder)") }
        temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkstemp creates 0600; give the file the permissions a plain create would (0666 & ~umask).
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
    }

    deinit {
        if fd >= 0 {
            close(fd)
            unlink(temporary)
        }
    }

    /// Writes `bytes` at the end.
    public func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileIO.ioError("cannot write")
                }
                written += n
            }
        }
    }

    /// Closes the file and renames it over `path`.
    public func commit() throws {
        let descriptor = fd
        fd = -1
        guard close(descriptor) == 0 else {
            let error = FileIO.ioError("cannot write")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = FileIO.ioError("cannot rename into place")
            unlink(temporary)
            throw error
        }
    }
}
