#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CFrostSystem
import FrostCodecs

/// The local folder store: whole reads with size limits, atomic writes (a temporary file renamed
/// into place), folders made as needed, with errno's words in its errors.
package enum LocalStore {
    /// The bytes of a file and what it is (its size and `inode:…/mtime:…` identity, from the
    /// descriptor read: the file that was read, even if the name moves on), refused before reading
    /// when it holds more than `maxBytes`.
    /// `regularOnly`: a FIFO, socket or device is refused without waiting on it.
    package static func read(_ path: String, maxBytes: Int = .max, regularOnly: Bool = false) throws -> (bytes: [UInt8], info: ObjectInfo) {
        let (fd, st) = try openInput(path, maxBytes: maxBytes, regularOnly: regularOnly)
        defer { close(fd) }
        return (try readAll(fd, sizeHint: Int(st.st_size), maxBytes: maxBytes), info(st))
    }

    /// The file at `path` opened for reading, with its status; refused when it is a folder or
    /// larger than `maxBytes`, or with `regularOnly` anything but a regular file (opened without
    /// blocking, so a FIFO is refused at once). The caller closes the descriptor.
    package static func openInput(_ path: String, maxBytes: Int, regularOnly: Bool = false) throws -> (descriptor: Int32, status: stat) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw ioError("cannot open") }
        var st = stat()
        do {
            guard fstat(fd, &st) == 0 else { throw ioError("cannot stat") }
            if (st.st_mode & S_IFMT) == S_IFDIR { throw CodecError(.io, "is a directory") }
            if regularOnly, (st.st_mode & S_IFMT) != S_IFREG { throw CodecError(.io, notRegular) }
            if Int(st.st_size) > maxBytes { throw tooLarge(maxBytes, size: Int(st.st_size)) }
        } catch {
            close(fd)
            throw error
        }
        return (fd, st)
    }

    /// The size and identity of the file at `path` (links followed), nil when there is none (no
    /// such name, a part of the path not a folder, or a folder there). Any other failure (EACCES,
    /// EIO, ELOOP, ENAMETOOLONG...) is thrown: the lookup failed, which does not say it is gone.
    package static func info(_ path: String) throws -> ObjectInfo? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw CodecError(.io, "cannot look up \(path): \(String(cString: strerror(errno)))", file: path)
        }
        return (st.st_mode & S_IFMT) != S_IFDIR ? info(st) : nil
    }

    /// `inode:<ino>/mtime:<sec>.<nsec>`: the manifest's identity of a local source (a rewrite or a
    /// replacement changes one or the other).
    static func info(_ st: stat) -> ObjectInfo {
        ObjectInfo(size: Int(st.st_size), identity: ObjectInfo.fileIdentity(inode: UInt64(st.st_ino), seconds: Int(st.st_mtim.tv_sec),
                                                                             nanoseconds: Int(st.st_mtim.tv_nsec)))
    }

    /// The file's bytes handed to `body` a piece at a time (`chunk` bytes but the last), refused
    /// past `maxBytes` before anything is read: a large file hashed, copied or uploaded in little memory.
    package static func readPieces(_ path: String, maxBytes: Int = .max, chunk: Int = 1 << 20, _ body: ([UInt8]) throws -> Void) throws {
        let (fd, _) = try openInput(path, maxBytes: maxBytes)
        defer { close(fd) }
        while true {
            let piece = try read(fd, upTo: chunk)
            if !piece.isEmpty { try body(piece) }
            if piece.count < chunk { return }
        }
    }

    /// Up to `count` bytes from the start of a file (to sniff its format).
    package static func readPrefix(_ path: String, count: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot open") }
        defer { close(fd) }
        return try read(fd, upTo: count)
    }

    /// Everything on standard input (`-` as an input).
    package static func readStandardInput(maxBytes: Int = .max) throws -> [UInt8] {
        try readAll(0, sizeHint: 1 << 20, maxBytes: maxBytes)
    }

    /// The process's umask, read once: reading it means setting it (umask(0), then back), and two
    /// threads doing that at once could leave it 0 for good (every later file world-writable).
    package static let creationMask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// The message a file that is not a regular one is refused with.
    package static let notRegular = "is not a regular file"

    package static func tooLarge(_ maxBytes: Int, size: Int? = nil) -> CodecError {
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

    /// mkdir -p, with errno's own words ("Read-only file system") on failure.
    package static func makeFolder(_ folder: String) throws {
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

    package static func ioError(_ what: String) -> CodecError {
        CodecError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
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
        fd = template.withUnsafeMutableBufferPointer { frost_make_temporary($0.baseAddress!) }
        guard fd >= 0 else { throw LocalStore.ioError("cannot create a file in \(folder)") }
        temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // mkstemp creates 0600; give the file the permissions a plain create would (0666 & ~umask).
        fchmod(fd, 0o666 & ~LocalStore.creationMask)
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
                    throw LocalStore.ioError("cannot write")
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
            let error = LocalStore.ioError("cannot write")
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = LocalStore.ioError("cannot rename into place")
            unlink(temporary)
            throw error
        }
    }
}
