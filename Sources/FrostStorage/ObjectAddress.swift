#if canImport(Glibc)
import Glibc
#endif

/// An object in a bucket, named as every S3 tool names it: `s3://BUCKET/KEY`. A key ending in `/`
/// (or none) names a "folder": the objects whose keys begin with it.
public struct ObjectAddress: Sendable, Hashable, CustomStringConvertible {
    public let bucket: String
    /// The key, not encoded (may be empty: the whole bucket).
    public let key: String

    public init(bucket: String, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// The address `path` names, nil when it is not an `s3://` URL with a bucket.
    public init?(_ path: String) {
        guard path.hasPrefix(Self.scheme) else { return nil }
        let rest = path.dropFirst(Self.scheme.count)
        let bucket = rest.prefix { $0 != "/" }
        guard !bucket.isEmpty else { return nil }
        self.init(bucket: String(bucket), key: String(rest.dropFirst(bucket.count + 1)))
    }

    public static let scheme = "s3://"

    /// Whether `path` is an object's URL rather than a local path.
    public static func isObject(_ path: String) -> Bool { path.hasPrefix(scheme) }

    /// `s3://bucket/key`.
    public var description: String { "\(Self.scheme)\(bucket)/\(key)" }

    /// Whether it names a prefix rather than one object: empty or ending in `/`.
    public var isFolder: Bool { key.isEmpty || key.hasSuffix("/") }
}

/// What Frost knows of a stored object or file without reading it: its size and an identity that
/// changes whenever its content may have (the manifest's `source.identity`: `etag:…` for an object,
/// `inode:…/mtime:…` for a local file).
public struct ObjectInfo: Sendable, Equatable {
    public let size: Int
    public let identity: String
    /// When the object was last written (seconds since 1970), as a listing's `LastModified`
    /// says; nil where it was not listed.
    public var modified: Double?

    public init(size: Int, identity: String) {
        self.size = size
        self.identity = identity
    }

    /// Seconds since 1970 of a listing's `LastModified` (ISO 8601 in UTC: `2026-12-05T14:30:00.000Z`),
    /// nil for any other text.
    public static func listedTime(_ text: String) -> Double? {
        let digits = text.utf8.split { !(48...57).contains($0) }.map { Int(String(decoding: $0, as: UTF8.self)) ?? 0 }
        guard text.hasSuffix("Z"), digits.count >= 6 else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(digits[0] - 1900), Int32(digits[1] - 1), Int32(digits[2]))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(digits[3]), Int32(digits[4]), Int32(digits[5]))
        return Double(timegm(&parts))
    }

    /// An object's identity from its ETag as S3 gives it, quotes stripped.
    public static func etagIdentity(_ etag: String) -> String {
        "etag:" + etag.trimmingCharacters(in: ["\""])
    }

    /// A local file's identity, `inode:<ino>/mtime:<sec>.<nsec>` (nanoseconds in nine digits): a
    /// rewritten file has another modification time, a replaced one (a new file renamed over it,
    /// as editors and sync tools write) another inode.
    public static func fileIdentity(inode: UInt64, seconds: Int, nanoseconds: Int) -> String {
        let fraction = String(nanoseconds)
        return "inode:\(inode)/mtime:\(seconds).\(String(repeating: "0", count: max(0, 9 - fraction.count)))\(fraction)"
    }
}

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
