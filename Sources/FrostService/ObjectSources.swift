import FrostCodecs
import FrostCore
import FrostFiles

/// `s3://BUCKET/KEY` sources, imgproxy's syntax (`s3://BUCKET/KEY?VERSION` names a version of a
/// versioned bucket's object): objects of the buckets `--allow-source s3://BUCKET` lists, read
/// with the storage module's S3 client, configured as the command line's is (docs/storage.md,
/// "Configuration"). As imgproxy reads the URL, the key is its path, percent-decoded once more (a
/// key holding `?` or `%` writes them `%3F`, `%25`), the version its query as written.
///
/// What an object answers becomes a status (docs/serve.md, "Sources and limits"): no such key or
/// version, or no such bucket, 404; a policy that denies the read 403; credentials S3 does not
/// accept (a wrong secret, an unknown key, an expired token, none at all) and S3 out of reach or
/// failing after its retries 502: the server's fault, never the client's. The secret never shows:
/// the storage module's messages name the access key ID at most.
public struct ObjectSources: Sendable {
    /// The buckets allowed.
    public let buckets: Set<String>
    /// The client; nil: the process's (`S3Client.shared`, made on first use).
    private let client: S3Client?

    public init(buckets: [String] = [], client: S3Client? = nil) {
        self.buckets = Set(buckets)
        self.client = client
    }

    private var s3: S3Client { client ?? .shared }

    /// An object a URL names: its address and the version asked for.
    public struct Object: Sendable, Equatable {
        public let address: ObjectAddress
        /// A version id (nil: the object's current version).
        public let version: String?

        /// `s3://BUCKET/KEY` (the key percent-encoded where it must be to read back), `?VERSION` when given.
        public var url: String {
            ObjectAddress.scheme + address.bucket + "/" + Self.encoded(address.key) + (version.map { "?" + $0 } ?? "")
        }

        /// The key with `%`, `?`, `#` and controls written as `%XX`: what `parse` reads back as the key.
        private static func encoded(_ key: String) -> String {
            var bytes: [UInt8] = []
            for byte in key.utf8 {
                if "%?#".utf8.contains(byte) || byte < 0x20 || byte == 0x7F {
                    bytes += Array(("%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)).utf8)
                } else {
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The object `url` names, its bucket allowed: 400 for a URL that is not `s3://BUCKET/KEY`
    /// (`parse`), 403 for a bucket not listed.
    public func check(_ url: String) throws(ServiceError) -> Object {
        let object = try Self.parse(url)
        guard buckets.contains(object.address.bucket) else { throw ServiceError(403, "the source's bucket \(object.address.bucket) is not allowed") }
        return object
    }

    /// Reads `s3://BUCKET/KEY[?VERSION]`: a bucket name as S3 allows one (`isBucketName`), a key
    /// of 1 to 1024 bytes once decoded (a broken escape or a NUL is refused), a version id of
    /// letters, digits and `._-+/=` when given (an empty query names none). 400 otherwise.
    public static func parse(_ url: String) throws(ServiceError) -> Object {
        guard url.hasPrefix(ObjectAddress.scheme) else { throw .badRequest("not an s3:// source") }
        let rest = url.dropFirst(ObjectAddress.scheme.count)
        let bucket = String(rest.prefix { $0 != "/" })
        guard isBucketName(bucket) else { throw .badRequest("s3://: '\(bucket)' is not a bucket's name") }
        let afterBucket = rest.dropFirst(bucket.count + 1)
        let path = afterBucket.prefix { $0 != "?" && $0 != "#" }
        guard afterBucket.dropFirst(path.count).first != "#" else { throw .badRequest("s3://: a fragment is not part of an object's name") }
        let query = afterBucket.dropFirst(path.count).dropFirst()
        guard let key = ServicePath.percentDecoded(String(path)), !key.isEmpty, key.utf8.count <= 1024, !key.utf8.contains(0) else {
            throw .badRequest("s3://\(bucket)/: the key is missing, over 1024 bytes, or holds a broken %-escape or a NUL")
        }
        guard query.utf8.count <= 1024, query.utf8.allSatisfy({ isVersionByte($0) }) else {
            throw .badRequest("s3://\(bucket)/…?: a version id is letters, digits and ._-+/=")
        }
        return Object(address: ObjectAddress(bucket: bucket, key: key), version: query.isEmpty ? nil : String(query))
    }

    /// S3's rules for a bucket's name: 3 to 63 characters, lowercase letters, digits, `.`, `-` (and
    /// `_`, which older buckets and GCS's S3 interface have), beginning and ending with a letter or
    /// a digit, no `..`.
    public static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func alphanumeric(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
        guard (3...63).contains(bytes.count), alphanumeric(bytes.first!), alphanumeric(bytes.last!), !name.contains("..") else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    private static func isVersionByte(_ b: UInt8) -> Bool {
        (0x61...0x7A).contains(b) || (0x41...0x5A).contains(b) || (0x30...0x39).contains(b) || "._-+/=".utf8.contains(b)
    }

    /// The object's size and identity (its ETag) from a HEAD.
    public func head(_ object: Object) throws(ServiceError) -> ObjectInfo {
        let info: ObjectInfo?
        do {
            info = try s3.head(object.address, version: object.version)
        } catch {
            throw Self.serviceError(error, object)
        }
        guard let info else { throw ServiceError(404, "no such object: \(object.url)") }
        return info
    }

    /// The object's bytes and what its GET said of it (size, ETag); refused (413) past `maxBytes`
    /// from its Content-Length, before its body is read.
    public func get(_ object: Object, maxBytes: Int) throws(ServiceError) -> (bytes: [UInt8], info: ObjectInfo) {
        do {
            return try s3.get(object.address, version: object.version, maxBytes: maxBytes)
        } catch {
            throw Self.serviceError(error, object)
        }
    }

    /// A failure of the S3 client as the service answers it (the type's comment).
    static func serviceError(_ error: any Error, _ object: Object) -> ServiceError {
        guard let error = error as? CodecError else { return ServiceError(502, "\(object.url): \(error)") }
        switch (error.kind, S3Client.answer(in: error)) {
        case (.tooLarge, _): return ServiceError(413, "the source is larger than the limit: \(error.message)")
        case (.stopped, _): return ServiceError(499, "the request was abandoned")
        case (_, (404, _)?): return ServiceError(404, "\(object.url): \(error.message)")
        case (_, (403, "AccessDenied")?), (_, (403, nil)?): return ServiceError(403, "\(object.url): \(error.message)")
        case (_, (400, "InvalidArgument")?) where object.version != nil: return ServiceError(404, "\(object.url): no such version (\(error.message))")
        default: return ServiceError(502, "\(object.url): \(error.message)")
        }
    }
}
