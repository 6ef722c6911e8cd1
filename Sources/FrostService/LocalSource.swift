import FrostCodecs
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

/// `local:///PATH` sources: regular files under the service's root, nothing outside it. A path
/// with a `..` or `.` part, a NUL, or one whose links resolve outside the root is refused (403),
/// before any byte is read; a missing file, or one that is not a regular file (a FIFO, a socket,
/// a device), is a 404.
public struct LocalSource: Sendable {
    /// The root, absolute and with links resolved.
    public let root: String

    /// A source rooted at `root`; nil when it is not a folder.
    public init?(root: String) {
        guard let real = FileIO.realPath(root), FileIO.identity(of: real) != nil else { return nil }
        self.root = real
    }

    /// The file a `local://` URL names, with links resolved, checked to lie inside the root.
    public func path(for url: String) throws(ServiceError) -> String {
        let (joined, relative) = try unresolvedPath(for: url)
        guard let real = FileIO.realPath(joined) else { throw ServiceError(404, "no such file: \(relative)") }
        guard FileIO.isInside(real, root), real != root else { throw ServiceError(403, "\(relative) leads outside the root") }
        // A FIFO, socket or device is no source: refused at once (reading a FIFO would wait for a writer).
        var st = stat()
        guard stat(real, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw ServiceError(404, "not a regular file: \(relative)") }
        return real
    }

    /// The path a `local://` URL names under the root, links not resolved (the URL's path after
    /// `local://` beside it): refused when it holds `.` or `..` parts or names nothing.
    func unresolvedPath(for url: String) throws(ServiceError) -> (path: String, relative: Substring) {
        guard url.hasPrefix("local://") else { throw ServiceError(400, "not a local:// source") }
        let relative = url.dropFirst("local://".count)
        let parts = relative.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty else { throw ServiceError(404, "no file named") }
        if parts.contains(where: { $0 == ".." || $0 == "." }) { throw ServiceError(403, "a source path may not hold . or .. parts") }
        return (FileIO.joined(root, parts.joined(separator: "/")), relative)
    }

    /// The bytes of the file a `local://` URL names, at most `maxBytes`.
    public func read(_ url: String, maxBytes: Int) throws(ServiceError) -> [UInt8] {
        try read(resolved: try path(for: url), named: url, maxBytes: maxBytes)
    }

    /// The bytes of the file `path(for: url)` resolved, at most `maxBytes`.
    public func read(resolved path: String, named url: String, maxBytes: Int) throws(ServiceError) -> [UInt8] {
        do {
            return try FileIO.read(path, maxBytes: maxBytes, regularOnly: true)
        } catch let error as CodecError where error.kind == .tooLarge {
            throw ServiceError(413, "the source is larger than \(maxBytes) bytes")
        } catch {
            throw ServiceError(404, "cannot read \(url.dropFirst("local://".count)): \(error)")
        }
    }
}
