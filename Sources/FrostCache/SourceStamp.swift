import FrostCodecs
#if canImport(Glibc)
import Glibc
#endif

/// What tells a source's version apart without reading it: its size and an identity that changes
/// whenever its content may have (a file's inode and modification time; an object's ETag). A
/// cache records both (`CacheManifest.Source`), and a rerun skips a complete cache whose stamp is
/// the source's: checking ten million caches then reads ten million manifests and no source or
/// level (docs/effects.md, "Operating a large catalog").
public struct SourceStamp: Sendable, Equatable {
    /// The source's size in bytes.
    public let bytes: Int
    /// `inode:<ino>/mtime:<sec>.<nsec>` for a local file (nanoseconds in nine digits), or
    /// `etag:<ETag without its quotes>` for an object in a bucket.
    public let identity: String

    /// A stamp from its parts (an object store's size and `etag:` identity).
    public init(bytes: Int, identity: String) {
        self.bytes = bytes
        self.identity = identity
    }

    /// The stamp of the file at `path` (`stat`: nothing is read).
    public init(file path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw CodecError(.io, "cannot open: \(String(cString: strerror(errno)))") }
        self.init(bytes: Int(st.st_size), identity: Self.fileIdentity(inode: UInt64(st.st_ino), seconds: Int(st.st_mtim.tv_sec),
                                                                       nanoseconds: Int(st.st_mtim.tv_nsec)))
    }

    /// `inode:<ino>/mtime:<sec>.<nsec>`: a rewritten file has another modification time, a
    /// replaced one (a new file renamed over it, as editors and sync tools write) another inode.
    public static func fileIdentity(inode: UInt64, seconds: Int, nanoseconds: Int) -> String {
        let fraction = String(nanoseconds)
        return "inode:\(inode)/mtime:\(seconds).\(String(repeating: "0", count: max(0, 9 - fraction.count)))\(fraction)"
    }

    /// Whether a manifest's source is this one by size and identity (a manifest without an
    /// identity matches none).
    public func matches(_ source: CacheManifest.Source) -> Bool {
        source.bytes == bytes && source.identity == identity
    }
}
