#if canImport(Glibc)
import Glibc
#endif
import FrostCore

/// AWS Signature Version 4 (AWS's "Create a signed AWS API request"; S3's "Authenticating
/// Requests: Using the Authorization Header"): a request's canonical form, hashed into the string
/// to sign, HMAC'd with a key derived from the secret, the date, the region and the service.
/// Written here rather than left to libcurl's CURLOPT_AWS_SIGV4: Debian 12's curl (7.88.1) does
/// not sort or encode the query (a ListObjectsV2 continuation token with `+` or `=` broke), signs
/// no session token, and the tests can check a signer of our own against AWS's test suite and
/// botocore directly (docs/storage.md, "Signing").
public struct SigV4Signer: Sendable {
    /// Who signs.
    public let credentials: S3Credentials
    /// The region in the scope (`us-east-1`).
    public let region: String
    /// The service in the scope (`s3`, `sts`).
    public let service: String

    public init(credentials: S3Credentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// A request as the signer sees it: nothing encoded yet.
    public struct Request: Sendable {
        public var method: String
        /// The path, not encoded (`/bucket/a b.jpg`).
        public var path: String
        /// Query parameters, not encoded, in any order.
        public var query: [(name: String, value: String)]
        /// Headers to sign (and send), `host` among them.
        public var headers: [(name: String, value: String)]
        /// The payload's SHA-256 in lowercase hex.
        public var payloadHash: String

        public init(method: String, path: String, query: [(name: String, value: String)] = [],
                    headers: [(name: String, value: String)], payloadHash: String) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// The SHA-256 of an empty payload (a GET, a HEAD, a DELETE).
    public static let emptyPayloadHash = SHA256.hex([])

    /// The request's headers with `x-amz-date`, the session token (when the credentials carry one)
    /// and `Authorization` added: what is sent. `s3` says S3's rules: the path encoded once and
    /// never normalised (a key may hold `//` or `..`), and `x-amz-content-sha256` signed and sent.
    public func signed(_ request: Request, at date: AWSDate, s3: Bool) -> [(name: String, value: String)] {
        var request = request
        request.headers.append(("x-amz-date", date.stamp))
        if s3 { request.headers.append(("x-amz-content-sha256", request.payloadHash)) }
        if let token = credentials.sessionToken { request.headers.append(("x-amz-security-token", token)) }
        return request.headers + [("Authorization", authorization(request, at: date, normalizePath: !s3))]
    }

    /// The `Authorization` header of a request whose headers already hold `x-amz-date` (and
    /// anything else signed).
    public func authorization(_ request: Request, at date: AWSDate, normalizePath: Bool) -> String {
        let canonical = Self.canonicalRequest(request, normalizePath: normalizePath)
        let signature = SHA256.hexString(HMAC.sha256(key: signingKey(date), message: Array(stringToSign(canonical, at: date).utf8)))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(date)), SignedHeaders=\(Self.signedHeaders(request)), Signature=\(signature)"
    }

    /// `date/region/service/aws4_request`.
    public func scope(_ date: AWSDate) -> String { "\(date.day)/\(region)/\(service)/aws4_request" }

    /// The string to sign: the algorithm, the time, the scope and the canonical request's hash.
    public func stringToSign(_ canonicalRequest: String, at date: AWSDate) -> String {
        "AWS4-HMAC-SHA256\n\(date.stamp)\n\(scope(date))\n\(SHA256.hex(Array(canonicalRequest.utf8)))"
    }

    /// kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request").
    private func signingKey(_ date: AWSDate) -> [UInt8] {
        [date.day, region, service, "aws4_request"].reduce(Array(("AWS4" + credentials.secretAccessKey).utf8)) {
            HMAC.sha256(key: $0, message: Array($1.utf8))
        }
    }

    /// Method, canonical URI, canonical query, canonical headers, signed headers and payload hash,
    /// one per line.
    public static func canonicalRequest(_ request: Request, normalizePath: Bool) -> String {
        let path = normalizePath ? normalized(request.path) : request.path
        let headers = canonicalHeaders(request.headers)
        return [request.method, encode(path, keepingSlashes: true), canonicalQuery(request.query),
                headers.map { "\($0.name):\($0.value)\n" }.joined(), signedHeaders(request), request.payloadHash]
            .joined(separator: "\n")
    }

    /// Parameters encoded (RFC 3986's unreserved characters kept) and sorted by name, then value:
    /// also the query string sent, so the two cannot differ.
    public static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        query.map { (encode($0.name, keepingSlashes: false), encode($0.value, keepingSlashes: false)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Names lowercased, values trimmed with inner runs of spaces made one, repeated names joined
    /// by commas, sorted by name.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let words = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(words)
        }
        return merged.keys.sorted().map { ($0, merged[$0]!.joined(separator: ",")) }
    }

    static func signedHeaders(_ request: Request) -> String {
        canonicalHeaders(request.headers).map(\.name).joined(separator: ";")
    }

    /// Percent-encoding of every byte but A–Z, a–z, 0–9, `-`, `.`, `_`, `~` (and `/` in a path),
    /// hex in capitals.
    public static func encode(_ text: String, keepingSlashes: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                out += "/"
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    /// RFC 3986 §5.2.4's dot segments removed and empty segments dropped (services other than S3).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        let trailing = path.hasSuffix("/") && !parts.isEmpty
        return "/" + parts.joined(separator: "/") + (trailing ? "/" : "")
    }
}

/// A signing time: `20150830T123600Z` and its day, `20150830` (UTC).
public struct AWSDate: Sendable, Equatable {
    /// ISO 8601 basic format, seconds, UTC.
    public let stamp: String
    public var day: String { String(stamp.prefix(8)) }

    /// A time given as its stamp (the test suite's).
    public init?(stamp: String) {
        guard stamp.utf8.count == 16, stamp.hasSuffix("Z") else { return nil }
        self.stamp = stamp
    }

    /// The time `seconds` after 1970-01-01 UTC.
    public init(secondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let second = seconds - days * 86400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468, era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097, yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        stamp = "\(y)\(two(m))\(two(d))T\(two(second / 3600))\(two(second / 60 % 60))\(two(second % 60))Z"
    }

    /// Now.
    public static func now() -> AWSDate {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return AWSDate(secondsSince1970: Int(time.tv_sec))
    }
}
