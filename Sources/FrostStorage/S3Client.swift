import Foundation
import FrostCodecs
@_spi(Kernels) import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// S3's REST API (GetObject, HeadObject, PutObject, the multipart upload's four calls,
/// ListObjectsV2, DeleteObject) over libcurl, signed with Signature Version 4. Requests that can
/// be repeated (every one but the two POSTs) are retried on 500, 502, 503, 504, SlowDown,
/// RequestTimeout and a failed, dropped or timed-out connection (not a TLS certificate that fails
/// verification: that fails again), after a backoff with full jitter
/// (min(20 s, 0.1 s·2^attempt) × a random fraction: AWS's "Exponential Backoff And Jitter"); each
/// request has a connect and a read timeout, and a whole-request one if set. Failures are `CodecError`s whose message names what S3 said, never a
/// secret (docs/storage.md).
public final class S3Client: Sendable {
    public let configuration: S3Configuration
    private let connections = HTTPConnections()
    private let credentials: CredentialProvider

    /// The client the process's environment configures, made on first use.
    public static let shared = S3Client(configuration: .resolve())

    public init(configuration: S3Configuration) {
        self.configuration = configuration
        credentials = CredentialProvider(configuration.credentials)
    }

    /// How many requests this client has sent (retries included): what the tests and the
    /// benchmark count.
    public var requestCount: Int { counter.withLock { $0 } }
    private let counter = Locked(0)

    // MARK: Objects

    /// The object's size and ETag, nil when there is no such object (a missing bucket is an error).
    /// `version`: that version of it (a version id of a versioned bucket).
    public func head(_ address: ObjectAddress, version: String? = nil) throws -> ObjectInfo? {
        let response = try send("HEAD", address, query: Self.versionQuery(version))
        if response.status == 404 {
            try checkAccess(address)
            return nil
        }
        try check(response, address)
        return try info(response, address)
    }

    /// The object's bytes (those of `range` only, when given) and what it is; refused past
    /// `maxBytes` before its body is read. `version`: that version of it.
    public func get(_ address: ObjectAddress, version: String? = nil, range: Range<Int>? = nil, maxBytes: Int = .max) throws -> (bytes: [UInt8], info: ObjectInfo) {
        let headers = range.map { [("range", "bytes=\($0.lowerBound)-\($0.upperBound - 1)")] } ?? []
        let response = try send("GET", address, query: Self.versionQuery(version), headers: headers, maxBody: maxBytes)
        try check(response, address)
        var info = try info(response, address)
        // A range's answer says the whole object's size after the slash: `bytes 0-99/12345`.
        if let total = response.headers["content-range"]?.split(separator: "/").last.flatMap({ Int($0) }) {
            info = ObjectInfo(size: total, identity: info.identity)
        }
        return (response.body, info)
    }

    /// The object written into the open file `fd` as it arrives (never whole in memory), refused
    /// past `maxBytes` before its body is read; what it is. A retried download truncates the file
    /// and starts again.
    public func download(_ address: ObjectAddress, into fd: Int32, maxBytes: Int = .max) throws -> ObjectInfo {
        final class Failure { var errno: Int32 = 0 }
        let failure = Failure()
        let response: HTTPResponse
        do {
            response = try send("GET", address, maxBody: maxBytes, restart: {
                guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw LocalStore.ioError("cannot write the download") }
            }, receive: { piece in
                var written = 0
                while written < piece.count {
                    let n = Glibc.write(fd, piece.baseAddress! + written, piece.count - written)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { failure.errno = errno; return false }
                    written += n
                }
                return true
            })
        } catch where failure.errno != 0 {
            errno = failure.errno
            throw LocalStore.ioError("cannot write the download")
        }
        try check(response, address)
        return try info(response, address)
    }

    /// GetObject's and HeadObject's `versionId` parameter, when a version is named.
    static func versionQuery(_ version: String?) -> [(String, String)] {
        version.map { [("versionId", $0)] } ?? []
    }

    /// The object's bytes, nil when there is no such key (a missing bucket is an error).
    public func getIfPresent(_ address: ObjectAddress) throws -> (bytes: [UInt8], info: ObjectInfo)? {
        let response = try send("GET", address)
        if response.status == 404, XMLText(response.body).value("Code") == "NoSuchKey" { return nil }
        try check(response, address)
        return (response.body, try info(response, address))
    }

    /// Stores `bytes` as the object in one PutObject, with its SHA-256 signed and sent as
    /// `x-amz-checksum-sha256`, which S3 checks against what arrives.
    public func put(_ address: ObjectAddress, _ bytes: UnsafeRawBufferPointer) throws {
        let digest = SHA256.digest(Array(bytes))
        let checksum = Data(digest).base64EncodedString()
        let response = try send("PUT", address, headers: [("x-amz-checksum-sha256", checksum)], body: bytes,
                                payloadHash: SHA256.hexString(digest))
        try check(response, address)
        try checkEcho(response, checksum, address)
    }

    /// Removes the object (no error when there is none).
    public func delete(_ address: ObjectAddress) throws {
        let response = try send("DELETE", address)
        if response.status == 404 { return }
        try check(response, address)
    }

    // MARK: Multipart uploads

    /// Starts a multipart upload whose parts carry SHA-256 checksums; its upload id.
    func createMultipartUpload(_ address: ObjectAddress) throws -> String {
        let response = try send("POST", address, query: [("uploads", "")], headers: [("x-amz-checksum-algorithm", "SHA256"), ("content-type", "application/octet-stream")],
                                idempotent: false)
        try check(response, address)
        guard let id = XMLText(response.body).value("UploadId") else { throw failure(address, "S3 gave no upload id") }
        return id
    }

    /// Uploads part `number` (from 1); its ETag and checksum, for the completion.
    func uploadPart(_ address: ObjectAddress, uploadID: String, number: Int, _ bytes: UnsafeRawBufferPointer) throws -> (etag: String, checksum: String) {
        let digest = SHA256.digest(Array(bytes))
        let checksum = Data(digest).base64EncodedString()
        let response = try send("PUT", address, query: [("partNumber", "\(number)"), ("uploadId", uploadID)],
                                headers: [("x-amz-checksum-sha256", checksum)], body: bytes, payloadHash: SHA256.hexString(digest))
        try check(response, address)
        try checkEcho(response, checksum, address)
        guard let etag = response.headers["etag"] else { throw failure(address, "S3 gave no ETag for part \(number)") }
        return (etag, checksum)
    }

    /// Joins the parts into the object, which appears only now.
    func completeMultipartUpload(_ address: ObjectAddress, uploadID: String, parts: [(etag: String, checksum: String)]) throws {
        let list = parts.enumerated().map { i, part in
            "<Part><PartNumber>\(i + 1)</PartNumber><ETag>\(escaped(part.etag))</ETag><ChecksumSHA256>\(part.checksum)</ChecksumSHA256></Part>"
        }.joined()
        let body = Array("<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\(list)</CompleteMultipartUpload>".utf8)
        let response = try body.withUnsafeBytes { bytes in
            try send("POST", address, query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")], body: bytes,
                     payloadHash: SHA256.hex(body), idempotent: false)
        }
        try check(response, address)
        // S3 may answer 200 and put the error in the body.
        if let code = XMLText(response.body).all("Error").first.flatMap({ $0.value("Code") }) {
            throw failure(address, "the upload could not be completed (\(code))")
        }
    }

    /// Abandons an upload: its parts are deleted, nothing appears.
    func abortMultipartUpload(_ address: ObjectAddress, uploadID: String) throws {
        let response = try send("DELETE", address, query: [("uploadId", uploadID)])
        if response.status == 404 { return }
        try check(response, address)
    }

    // MARK: Listings

    /// One object of a listing.
    public struct Listed: Sendable, Equatable {
        public let key: String
        public let info: ObjectInfo
    }

    /// Every object whose key begins with `prefix` (ListObjectsV2, `pageSize` a page, followed
    /// through its continuation tokens), in key order; with a `delimiter`, only those directly under it.
    public func list(bucket: String, prefix: String, delimiter: String? = nil, pageSize: Int = 1000) throws -> [Listed] {
        var found: [Listed] = []
        try list(bucket: bucket, prefix: prefix, delimiter: delimiter, pageSize: pageSize) { found += $0 }
        return found
    }

    /// The same, each page handed to `page` as it arrives: a listing of millions of keys kept
    /// only as far as the caller keeps it.
    public func list(bucket: String, prefix: String, delimiter: String? = nil, pageSize: Int = 1000, page each: ([Listed]) throws -> Void) throws {
        var token: String?
        let address = ObjectAddress(bucket: bucket, key: prefix)
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix), ("encoding-type", "url"), ("max-keys", "\(pageSize)")]
            if let delimiter { query.append(("delimiter", delimiter)) }
            if let token { query.append(("continuation-token", token)) }
            let response = try send("GET", ObjectAddress(bucket: bucket, key: ""), query: query)
            try check(response, address)
            let page = XMLText(response.body)
            try each(page.all("Contents").compactMap { entry in
                guard let key = entry.value("Key")?.removingPercentEncoding, let size = entry.value("Size").flatMap(Int.init) else { return nil }
                var info = ObjectInfo(size: size, identity: ObjectInfo.etagIdentity(entry.value("ETag") ?? ""))
                info.modified = entry.value("LastModified").flatMap(ObjectInfo.listedTime)
                return Listed(key: key, info: info)
            })
            token = page.value("IsTruncated") == "true" ? page.value("NextContinuationToken") : nil
        } while token != nil
    }

    // MARK: Requests

    /// Signs and sends one request to the object's (or bucket's) URL, retrying as the type says.
    /// `receive` takes a successful response's body as it arrives (`HTTPConnections.perform`);
    /// `restart` is called before each retry, so that it can start again.
    private func send(_ method: String, _ address: ObjectAddress, query: [(String, String)] = [], headers: [(String, String)] = [],
                      body: UnsafeRawBufferPointer? = nil, payloadHash: String = SigV4Signer.emptyPayloadHash,
                      idempotent: Bool = true, maxBody: Int = .max, restart: (() throws -> Void)? = nil,
                      receive: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws -> HTTPResponse {
        let (scheme, host, path) = configuration.location(bucket: address.bucket, key: address.key)
        let queryText = SigV4Signer.canonicalQuery(query.map { (name: $0.0, value: $0.1) })
        let url = "\(scheme)://\(host)\(SigV4Signer.encode(path, keepingSlashes: true))" + (queryText.isEmpty ? "" : "?" + queryText)
        var attempt = 0
        while true {
            attempt += 1
            if StopFlag.current { throw Self.stopped(address) }
            if attempt > 1 { try restart?() }
            let signer = SigV4Signer(credentials: try credentials.current(self, address), region: configuration.region, service: "s3")
            let request = SigV4Signer.Request(method: method, path: path, query: query.map { (name: $0.0, value: $0.1) },
                                              headers: [("host", host)] + headers.map { (name: $0.0, value: $0.1) }, payloadHash: payloadHash)
            let sent = signer.signed(request, at: .now(), s3: true).filter { $0.name != "host" } + [("Host", host)]
            counter.withLock { $0 += 1 }
            let again = idempotent && attempt < configuration.maxAttempts
            do {
                let response = try connections.perform(method: method, url: url, headers: sent, body: body, timeouts: configuration.timeouts,
                                                       caFile: configuration.caBundle, maxBody: maxBody,
                                                       receive: receive)
                if again, Self.isRetryable(response) {
                    Self.backoff(attempt)
                    continue
                }
                return response
            } catch .transport(let why) {
                if again {
                    Self.backoff(attempt)
                    continue
                }
                throw CodecError(.io, "\(idempotent && attempt > 1 ? "gave up after \(attempt) attempts: " : "")\(why)", file: address.description)
            } catch .permanent(let why) {
                throw CodecError(.io, why, file: address.description)
            } catch .receiverStopped {
                throw CodecError(.io, "cannot write what arrives", file: address.description)
            } catch .bodyTooLarge(let size) {
                throw CodecError(.tooLarge, "object is \(size.map { "\($0) bytes" } ?? "larger than that"), more than the limit of \(maxBody) bytes (see --max-file-size)",
                                 file: address.description)
            } catch .stopped {
                throw Self.stopped(address)
            }
        }
    }

    /// A request given up because its thread's stop flag was raised (nobody wants its answer).
    private static func stopped(_ address: ObjectAddress) -> CodecError {
        CodecError(.stopped, "the request was abandoned", file: address.description)
    }

    /// 500, 502, 503, 504, or S3's SlowDown and RequestTimeout (a 400).
    static func isRetryable(_ response: HTTPResponse) -> Bool {
        if [500, 502, 503, 504].contains(response.status) { return true }
        guard response.status >= 400, let code = XMLText(response.body).value("Code") else { return false }
        return code == "SlowDown" || code == "RequestTimeout"
    }

    /// Full jitter: a random wait up to min(20 s, 0.1 s · 2^attempt), cut short when the
    /// thread's stop flag is raised (the next attempt then does not start).
    static func backoff(_ attempt: Int) {
        let cap = min(20, 0.1 * pow(2, Double(attempt)))
        var left = Double.random(in: 0...cap)
        while left > 0, !StopFlag.current {
            usleep(UInt32(min(left, 0.02) * 1_000_000))
            left -= 0.02
        }
    }

    /// Throws what an error response says, in words: what is missing, or which credential failed.
    private func check(_ response: HTTPResponse, _ address: ObjectAddress) throws {
        guard !(200..<300).contains(response.status) else { return }
        let xml = XMLText(response.body)
        let code = xml.value("Code")
        let reason: String
        switch code {
        case "NoSuchBucket": reason = "the bucket \(address.bucket) does not exist"
        case "NoSuchKey": reason = "no such object"
        case "NoSuchVersion": reason = "no such version of the object"
        case "SignatureDoesNotMatch": reason = "S3 refused the request's signature: the secret access key does not match the access key ID"
        case "InvalidAccessKeyId": reason = "S3 does not know the access key ID \((try? credentials.current(self, address).accessKeyID) ?? "")"
        case "AccessDenied": reason = "access denied"
        case "ExpiredToken": reason = "the session token has expired"
        case nil where response.status == 404: reason = "no such object"
        case nil where response.status == 403: reason = "access denied"
        default: reason = xml.value("Message").map { "S3 said: \($0)" } ?? "S3 refused the request"
        }
        throw CodecError(response.status == 404 ? .io : .refused, "\(reason) (\(response.status)\(code.map { " \($0)" } ?? ""))", file: address.description)
    }

    /// What S3 answered to a request that failed, read back from the error this client made of it
    /// (whose message ends "(STATUS CODE)": `(404 NoSuchKey)`, `(403 SignatureDoesNotMatch)`); nil
    /// for a failure without an answer: a connection that failed, a limit, a stop.
    public static func answer(in error: CodecError) -> (status: Int, code: String?)? {
        guard error.message.hasSuffix(")"), let open = error.message.lastIndex(of: "(") else { return nil }
        let words = error.message[error.message.index(after: open)...].dropLast().split(separator: " ")
        guard let first = words.first, let status = Int(first), (300...599).contains(status), words.count <= 2 else { return nil }
        return (status, words.count == 2 ? String(words[1]) : nil)
    }

    /// A listing of nothing: fails when the bucket is missing or the credentials are refused (a
    /// HEAD's 404 carries no body to say which; a batch asks once before its first write).
    public func checkAccess(_ address: ObjectAddress) throws {
        let response = try send("GET", ObjectAddress(bucket: address.bucket, key: ""), query: [("list-type", "2"), ("max-keys", "0")])
        try check(response, address)
    }

    private func checkEcho(_ response: HTTPResponse, _ checksum: String, _ address: ObjectAddress) throws {
        if let echoed = response.headers["x-amz-checksum-sha256"], echoed != checksum {
            throw failure(address, "S3 stored a different SHA-256 than was sent (\(echoed), not \(checksum))")
        }
    }

    private func info(_ response: HTTPResponse, _ address: ObjectAddress) throws -> ObjectInfo {
        guard let etag = response.headers["etag"] else { throw failure(address, "S3 gave no ETag") }
        return ObjectInfo(size: Int(response.headers["content-length"] ?? "") ?? response.body.count, identity: ObjectInfo.etagIdentity(etag))
    }

    private func failure(_ address: ObjectAddress, _ reason: String) -> CodecError { CodecError(.io, reason, file: address.description) }

    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    // MARK: STS

    /// Temporary credentials for `role` from a web identity token (STS AssumeRoleWithWebIdentity,
    /// an unsigned call: the token is the proof).
    func assumeRole(withWebIdentityToken token: String, role: String, sessionName: String) throws -> S3Credentials {
        let (scheme, host) = configuration.stsBase
        let form = [("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", role),
                    ("RoleSessionName", sessionName), ("WebIdentityToken", token)]
        let body = Array(form.map { "\(SigV4Signer.encode($0.0, keepingSlashes: false))=\(SigV4Signer.encode($0.1, keepingSlashes: false))" }
            .joined(separator: "&").utf8)
        var attempt = 0
        while true {
            attempt += 1
            counter.withLock { $0 += 1 }
            let response: HTTPResponse
            do {
                response = try body.withUnsafeBytes { bytes throws(HTTPFailure) in
                    try connections.perform(method: "POST", url: "\(scheme)://\(host)/", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                            body: bytes, timeouts: configuration.timeouts,
                                            caFile: configuration.caBundle, maxBody: 1 << 20)
                }
            } catch HTTPFailure.stopped {
                throw CodecError(.stopped, "the request was abandoned", file: "STS at \(host)")
            } catch HTTPFailure.transport where attempt < configuration.maxAttempts {
                // Asking again for a token is harmless: STS's answer is new credentials either way.
                Self.backoff(attempt)
                continue
            } catch {
                throw CodecError(.io, "cannot reach STS at \(host) for web identity credentials: \(error)")
            }
            if Self.isRetryable(response), attempt < configuration.maxAttempts { Self.backoff(attempt); continue }
            let xml = XMLText(response.body)
            guard response.status == 200, let id = xml.value("AccessKeyId"), let secret = xml.value("SecretAccessKey") else {
                throw CodecError(.refused, "STS refused web identity credentials for \(role) (\(response.status) \(xml.value("Code") ?? ""))")
            }
            let expiration = xml.value("Expiration").flatMap { ISO8601DateFormatter().date(from: $0) }?.timeIntervalSince1970
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: xml.value("SessionToken"), expiration: expiration)
        }
    }
}

/// The credentials of a client: fixed keys, or temporary ones from STS, asked again five minutes
/// before they expire.
final class CredentialProvider: Sendable {
    private let source: CredentialSource
    private let cached = Locked<S3Credentials?>(nil)

    init(_ source: CredentialSource) { self.source = source }

    func current(_ client: S3Client, _ address: ObjectAddress) throws -> S3Credentials {
        switch source {
        case .keys(let keys, _): return keys
        case .none:
            throw CodecError(.refused, "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN",
                             file: address.description)
        case .webIdentity(let file, let role, let name):
            if let kept = cached.withLock({ $0 }), (kept.expiration ?? .infinity) > Date().timeIntervalSince1970 + 300 { return kept }
            guard let token = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw CodecError(.io, "cannot read the web identity token \(file)", file: address.description)
            }
            let fresh = try client.assumeRole(withWebIdentityToken: token.trimmingCharacters(in: .whitespacesAndNewlines), role: role, sessionName: name)
            cached.withLock { $0 = fresh }
            return fresh
        }
    }
}
