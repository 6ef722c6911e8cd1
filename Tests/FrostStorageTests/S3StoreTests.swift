import Foundation
import FrostCodecs
import FrostCore
import FrostStorage
import FrostTestSupport
import Testing

/// The S3 store against a real server on loopback (moto with every signature checked), the AWS
/// CLI as the independent client, and a proxy that slows down and drops connections.
@Suite struct S3StoreTests {
    static func client(_ server: S3TestServer, endpoint: String? = nil, secret: String? = nil, attempts: Int = 4) -> S3Client {
        server.client(endpoint: endpoint, secret: secret, attempts: attempts)
    }

    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test func anObjectGoesInAndComesOutAsTheCLISeesIt() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket(), client = Self.client(server)
        let address = ObjectAddress(bucket: bucket, key: "photos/a b+c ሴ.jpg")
        let payload = Self.bytes(100_000, seed: 1)
        let upload = S3Upload(address, client: client)
        try upload.append(Array(payload[..<40_000]))
        try upload.append(Array(payload[40_000...]))
        #expect(try client.head(address) == nil, "the object appears only when committed")
        try upload.commit()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try server.aws(["s3", "cp", "s3://\(bucket)/photos/a b+c ሴ.jpg", folder.file("back.jpg"), "--quiet"])
        #expect(try Storage.read(folder.file("back.jpg")) == payload)
        let (bytes, info) = try client.get(address)
        #expect(bytes == payload && info.size == payload.count)
        let etag = try server.aws(["s3api", "head-object", "--bucket", bucket, "--key", address.key, "--query", "ETag", "--output", "text"]).stdout
        #expect(info.identity == "etag:" + etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"\n")))
        #expect(try client.head(address) == info)
        #expect(try client.get(address, range: 10..<20).bytes == Array(payload[10..<20]))
        #expect(try client.get(address, range: 0..<16).info.size == payload.count)
        try client.delete(address)
        #expect(try client.head(address) == nil)
    }

    /// Past 16 MiB a multipart upload, each part sent as it fills (checksummed), the object whole
    /// only at the end; dropped before it, the upload is aborted and nothing remains.
    @Test func largeObjectsGoInPartsAndAbortedOnesLeaveNothing() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket(), client = Self.client(server)
        let payload = Self.bytes(S3Upload.singlePutLimit * 2 + 12_345, seed: 2)
        let address = ObjectAddress(bucket: bucket, key: "big.png")
        let upload = S3Upload(address, client: client)
        for start in stride(from: 0, to: payload.count, by: 3 << 20) { try upload.append(Array(payload[start..<min(payload.count, start + (3 << 20))])) }
        try upload.commit()
        let (bytes, info) = try client.get(address)
        #expect(bytes == payload)
        #expect(info.identity.hasSuffix("-3"), "a three-part upload's ETag: \(info.identity)")

        var dropped: S3Upload? = S3Upload(ObjectAddress(bucket: bucket, key: "dropped.png"), client: client)
        try dropped!.append(Array(payload[..<(S3Upload.singlePutLimit + 1)]))
        dropped = nil
        #expect(try server.keys(bucket) == ["big.png"])
        let uploads = try server.aws(["s3api", "list-multipart-uploads", "--bucket", bucket, "--query", "Uploads[].Key", "--output", "text"]).stdout
        #expect(!uploads.contains("dropped.png"), "\(uploads)")
    }

    /// ListObjectsV2 page by page through continuation tokens, keys with reserved characters intact.
    @Test func listingsFollowTheirContinuationTokens() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket(), client = Self.client(server)
        let keys = ["p/a.jpg", "p/b c.png", "p/d+e=f.webp", "p/sub/g.jpg", "p/ሴ.gif", "q/other.jpg"]
        for key in keys { try [UInt8]().withUnsafeBytes { try client.put(ObjectAddress(bucket: bucket, key: key), $0) } }
        let listed = try client.list(bucket: bucket, prefix: "p/", pageSize: 2)
        #expect(listed.map(\.key) == keys.filter { $0.hasPrefix("p/") })
        #expect(try client.list(bucket: bucket, prefix: "p/", delimiter: "/", pageSize: 2).map(\.key) == ["p/a.jpg", "p/b c.png", "p/d+e=f.webp", "p/ሴ.gif"])
    }

    @Test func aWrongSecretAndAMissingBucketSaySoWithoutTheSecret() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        let wrong = "Wr0ngSecretWr0ngSecretWr0ngSecret0000000"
        let refused = #expect(throws: CodecError.self) { try Self.client(server, secret: wrong).list(bucket: bucket, prefix: "") }
        #expect(refused?.message.contains("403 SignatureDoesNotMatch") == true, "\(String(describing: refused))")
        #expect(refused.map { !"\($0)".contains(wrong) && !"\($0)".contains(server.secretAccessKey) } == true)
        let missing = #expect(throws: CodecError.self) { try Self.client(server).head(ObjectAddress(bucket: "no-such-bucket-frost", key: "a.jpg")) }
        #expect(missing?.message.contains("does not exist (404 NoSuchBucket)") == true, "\(String(describing: missing))")
    }

    /// SlowDown and a connection cut mid-body are retried; a cut that persists is one error.
    @Test func slowDownsAndDroppedConnectionsAreRetried() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        let payload = Self.bytes(300_000, seed: 3)
        for key in ["slow.jpg", "cut.jpg", "gone.jpg"] {
            try payload.withUnsafeBytes { try Self.client(server).put(ObjectAddress(bucket: bucket, key: key), $0) }
        }
        let proxy = try S3FaultProxy(server, rules: ["--slowdown", "slow.jpg:2", "--drop", "cut.jpg:1", "--drop", "gone.jpg:-1"])
        let client = Self.client(server, endpoint: proxy.endpoint, attempts: 3)
        #expect(try client.get(ObjectAddress(bucket: bucket, key: "slow.jpg")).bytes == payload)
        #expect(try client.get(ObjectAddress(bucket: bucket, key: "cut.jpg")).bytes == payload)
        let failure = #expect(throws: CodecError.self) { try client.get(ObjectAddress(bucket: bucket, key: "gone.jpg")) }
        #expect(failure?.message.hasPrefix("gave up after 3 attempts") == true, "\(String(describing: failure))")
        let requests = proxy.requests()
        #expect(requests.filter { $0.path.hasSuffix("/slow.jpg") }.map(\.status) == [503, 503, 200])
        #expect(requests.filter { $0.path.hasSuffix("/cut.jpg") }.count == 2)
        #expect(requests.filter { $0.path.hasSuffix("/gone.jpg") }.count == 3)
    }

    /// A raised stop flag (a server's request past its deadline, or whose client went away) ends
    /// a request waiting on an endpoint that never answers: stopped, not retried, not timed out.
    @Test func aStopFlagEndsARequestThatWaits() throws {
        let server = try S3TestServer.shared()
        let silent = try SilentListener()
        let client = server.client(endpoint: "http://127.0.0.1:\(silent.port)", attempts: 3)
        let flag = StopFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { flag.raise() }
        let failure = #expect(throws: CodecError.self) { try flag.during { try client.get(ObjectAddress(bucket: "b", key: "k.jpg")) } }
        #expect(failure?.kind == .stopped && client.requestCount == 1, "\(String(describing: failure))")
    }

    /// A client of the loopback endpoint at `port` with `settings` (the timeouts, AWS_MAX_ATTEMPTS)
    /// and no files of the machine's.
    static func client(port: Int, _ settings: [String: String]) -> S3Client {
        S3Client(configuration: .resolve(environment: [
            "AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret",
            "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "HOME": "/nonexistent"].merging(settings) { $1 }))
    }

    /// `body` under a stop flag raised at 20 s: a timeout that does not fire fails the test
    /// (stopped, not timed out) instead of hanging it.
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        let flag = StopFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { flag.raise() }
        return try flag.during(body)
    }

    /// FROST_S3_READ_TIMEOUT ends an attempt on which nothing moves for that long, as botocore's
    /// read timeout: an endpoint that never answers, one that sends its body a byte each 2.5 s (a
    /// read timeout of 0.5 s), and an upload to an endpoint that stops reading it (16 MiB, more
    /// than the sockets' buffers hold) each fail with one error naming the object after
    /// AWS_MAX_ATTEMPTS attempts. FROST_S3_REQUEST_TIMEOUT, when set, still caps a whole request,
    /// even one that keeps moving (a byte each 0.1 s for 3 s, capped at 1 s).
    @Test func aRequestPastItsTimeoutFailsAfterItsAttempts() throws {
        let silent = try SilentListener(), dripping = try DrippingListener(every: 2.5), steady = try DrippingListener(every: 0.1, bytes: 30)
        let stalled = "gave up after 2 attempts: read timeout: nothing received or sent for 0.5 s (FROST_S3_READ_TIMEOUT)"
        let upload = [UInt8](repeating: 7, count: 16 << 20)
        let cases: [(port: Int, settings: [String: String], put: Bool, message: String)] = [
            (silent.port, ["FROST_S3_READ_TIMEOUT": "0.5"], false, stalled),
            (dripping.port, ["FROST_S3_READ_TIMEOUT": "0.5"], false, stalled),
            (silent.port, ["FROST_S3_READ_TIMEOUT": "0.5"], true, stalled),
            (steady.port, ["FROST_S3_READ_TIMEOUT": "0.5", "FROST_S3_REQUEST_TIMEOUT": "1"], false,
             "gave up after 2 attempts: Operation timed out after"),
        ]
        for (port, settings, put, message) in cases {
            let client = Self.client(port: port, settings.merging(["AWS_MAX_ATTEMPTS": "2"]) { $1 })
            #expect(client.configuration.readTimeout == 0.5 && client.configuration.maxAttempts == 2)
            let address = ObjectAddress(bucket: "b", key: "k.jpg")
            let failure = #expect(throws: CodecError.self) {
                try Self.guarded {
                    if put { try upload.withUnsafeBytes { try client.put(address, $0) } } else { _ = try client.get(address) }
                }
            }
            #expect(failure?.kind == .io && failure?.file == "s3://b/k.jpg", "\(String(describing: failure))")
            #expect(failure?.message.hasPrefix(message) == true, "\(String(describing: failure))")
            #expect(failure.map { !"\($0)".contains("\n") } == true)
            #expect(client.requestCount == 2)
        }
    }

    /// With no whole-request cap (the default), a transfer that keeps moving is never cut, however
    /// long it lasts: a download of a byte each 0.1 s for 3 s and an upload of 64 MiB read 2 MiB
    /// each 0.1 s (3.2 s) both succeed at the first attempt, each lasting several read timeouts.
    @Test func aTransferThatKeepsMovingIsNeverCut() throws {
        let dripping = try DrippingListener(every: 0.1, bytes: 30), reading = try SlowReadingListener(chunk: 2 << 20, every: 0.1)
        let downloader = Self.client(port: dripping.port, ["FROST_S3_READ_TIMEOUT": "0.5"])
        #expect(downloader.configuration.requestTimeout == 0 && downloader.configuration.connectTimeout == 60)
        let (bytes, info) = try Self.guarded { try downloader.get(ObjectAddress(bucket: "b", key: "slow.jpg")) }
        #expect(bytes == Array(repeating: UInt8(ascii: "."), count: 30) && info.identity == "etag:drip")
        #expect(downloader.requestCount == 1)

        let uploader = Self.client(port: reading.port, ["FROST_S3_READ_TIMEOUT": "1.5"])
        let payload = [UInt8](repeating: 9, count: 64 << 20)
        try Self.guarded { try payload.withUnsafeBytes { try uploader.put(ObjectAddress(bucket: "b", key: "slow.png"), $0) } }
        #expect(uploader.requestCount == 1)
    }

    /// A pod's credentials on EKS: a web identity token exchanged at STS (moto's) for temporary
    /// keys and a session token, which then sign every request.
    @Test func webIdentityCredentialsComeFromSTS() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        let role = "frost-\(UUID().uuidString.prefix(8))"
        let trust = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Federated":"arn:aws:iam::123456789012:oidc-provider/oidc.eks.example.com"},"Action":"sts:AssumeRoleWithWebIdentity"}]}"#
        let arn = try server.aws(["iam", "create-role", "--role-name", role, "--assume-role-policy-document", trust, "--query", "Role.Arn", "--output", "text"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try server.aws(["iam", "put-role-policy", "--role-name", role, "--policy-name", "s3",
                        "--policy-document", #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#])
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6ZnJvc3Q6am9iIn0.c2lnbmF0dXJl".write(toFile: folder.file("token"), atomically: true, encoding: .utf8)
        var environment = server.environment()
        environment["AWS_ACCESS_KEY_ID"] = nil
        environment["AWS_SECRET_ACCESS_KEY"] = nil
        environment.merge(["AWS_WEB_IDENTITY_TOKEN_FILE": folder.file("token"), "AWS_ROLE_ARN": arn, "HOME": "/nonexistent"]) { $1 }
        let configuration = S3Configuration.resolve(environment: environment)
        #expect(configuration.credentials == .webIdentity(tokenFile: folder.file("token"), roleARN: arn, sessionName: "frost-\(ProcessInfo.processInfo.processIdentifier)"))
        let client = S3Client(configuration: configuration)
        try Array("hello".utf8).withUnsafeBytes { try client.put(ObjectAddress(bucket: bucket, key: "from-a-pod.txt"), $0) }
        #expect(try server.keys(bucket) == ["from-a-pod.txt"])
    }
}
