import Foundation
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

/// A real S3 server on loopback for the storage tests: moto's, with authentication on
/// (Tests/References/s3_server.py: every request's Signature Version 4 is checked against an IAM
/// user's key), started once per test process from the venv `make check` makes
/// ($FROST_REFERENCE_PYTHON, else .build-references). A test that cannot start it fails: nothing
/// is skipped.
public final class S3TestServer: @unchecked Sendable {
    public let endpoint: String
    public let accessKeyID: String
    public let secretAccessKey: String
    /// The server's JSON line, for the fault proxy's deletions.
    public let credentialsFile: String
    private let process: Process
    private let input: Pipe

    public static let python: String = ProcessInfo.processInfo.environment["FROST_REFERENCE_PYTHON"]
        ?? Corpus.repository + "/.build-references/bin/python"

    /// The server every test of this process shares (each test uses buckets of its own).
    public static func shared() throws -> S3TestServer { try started.get() }
    private static let started = Result { try S3TestServer() }

    private init() throws {
        let (process, input, line) = try Self.launch(Corpus.repository + "/Tests/References/s3_server.py", [])
        self.process = process
        self.input = input
        let fields = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        endpoint = fields["endpoint"] as? String ?? ""
        accessKeyID = fields["access_key_id"] as? String ?? ""
        secretAccessKey = fields["secret_access_key"] as? String ?? ""
        credentialsFile = NSTemporaryDirectory() + "frost-s3-\(UUID().uuidString).json"
        try line.write(toFile: credentialsFile, atomically: true, encoding: .utf8)
    }

    deinit { try? input.fileHandleForWriting.close() }

    /// Runs `script` with the test venv's Python; its first line of standard output, once printed.
    static func launch(_ script: String, _ arguments: [String]) throws -> (Process, Pipe, String) {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw S3TestError("no Python at \(python): run `make references` (make check does), which installs moto[server] and awscli")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { throw S3TestError("\(script) ended before it was ready (is moto[server] installed in \(python)'s venv?)") }
            line += more
        }
        return (process, input, String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self))
    }

    /// The variables Frost and the AWS CLI read, pointed at `endpoint` (the server, or a proxy in
    /// front of it), with no profile files of the machine's in the way; the server's key unless
    /// another (`accessKeyID`, `secret`) is given.
    public func environment(endpoint: String? = nil, accessKeyID: String? = nil, secret: String? = nil) -> [String: String] {
        ["AWS_ENDPOINT_URL": endpoint ?? self.endpoint, "AWS_ACCESS_KEY_ID": accessKeyID ?? self.accessKeyID,
         "AWS_SECRET_ACCESS_KEY": secret ?? secretAccessKey, "AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "us-east-1",
         "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "FROST_S3_READ_TIMEOUT": "30"]
    }

    /// A client of the storage module configured by `environment(…)` (and no home's files), trying
    /// each request `attempts` times.
    public func client(endpoint: String? = nil, accessKeyID: String? = nil, secret: String? = nil, attempts: Int = 4) -> S3Client {
        var configuration = S3Configuration.resolve(environment: environment(endpoint: endpoint, accessKeyID: accessKeyID, secret: secret)
            .merging(["HOME": "/nonexistent"]) { $1 })
        configuration.maxAttempts = attempts
        return S3Client(configuration: configuration)
    }

    /// A new IAM user of this server allowed only `actions` (`s3:ListBucket`, …): its access key
    /// ID and secret, to see a read refused by policy.
    public func user(allowed actions: [String]) throws -> (accessKeyID: String, secret: String) {
        let name = "frost-user-" + UUID().uuidString.lowercased().prefix(8)
        try aws(["iam", "create-user", "--user-name", name])
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["# + actions.map { "\"\($0)\"" }.joined(separator: ",")
            + #"],"Resource":"*"}]}"#
        try aws(["iam", "put-user-policy", "--user-name", name, "--policy-name", "only", "--policy-document", policy])
        let keys = try aws(["iam", "create-access-key", "--user-name", name, "--query", "AccessKey.[AccessKeyId,SecretAccessKey]", "--output", "text"])
        let parts = keys.stdout.split(whereSeparator: { $0 == "\t" || $0 == "\n" }).map(String.init)
        guard parts.count == 2 else { throw S3TestError("iam create-access-key gave \(keys.stdout)") }
        return (parts[0], parts[1])
    }

    /// The AWS CLI (the venv's): the independent client that puts catalogs in and reads results out.
    @discardableResult
    public func aws(_ arguments: [String]) throws -> FrostRun {
        let run = try FrostRun.run(arguments, environment: environment(), executable: (Self.python as NSString).deletingLastPathComponent + "/aws")
        if run.status != 0 { throw S3TestError("aws \(arguments.joined(separator: " ")): \(run.stderr)") }
        return run
    }

    /// A new bucket with a name of its own (versioned when asked: one version per write).
    public func makeBucket(versioned: Bool = false) throws -> String {
        let name = "frost-" + UUID().uuidString.lowercased().prefix(18)
        try aws(["s3api", "create-bucket", "--bucket", String(name)])
        if versioned { try aws(["s3api", "put-bucket-versioning", "--bucket", String(name), "--versioning-configuration", "Status=Enabled"]) }
        return String(name)
    }

    /// The keys under `prefix` in `bucket` (the AWS CLI's listing).
    public func keys(_ bucket: String, prefix: String = "") throws -> [String] {
        let run = try aws(["s3api", "list-objects-v2", "--bucket", bucket, "--prefix", prefix, "--query", "Contents[].Key", "--output", "text"])
        return run.stdout.split(whereSeparator: { $0 == "\t" || $0 == "\n" }).map(String.init).filter { $0 != "None" }.sorted()
    }
}

/// Tests/References/s3_proxy.py in front of a server: requests counted and logged, faults injected.
public final class S3FaultProxy: @unchecked Sendable {
    public let endpoint: String
    private let log: String
    private let input: Pipe
    private let process: Process

    /// A proxy to `server` with `rules` (`--slowdown KEY:N`, `--drop KEY:N`, `--stall KEY:N`, `--delete-on-get KEY`);
    /// with `tls`, an https endpoint serving that certificate (chain) and key.
    public init(_ server: S3TestServer, rules: [String] = [], tls: (certificate: String, key: String)? = nil) throws {
        log = NSTemporaryDirectory() + "frost-s3-proxy-\(UUID().uuidString).jsonl"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let line: String
        let certificate = tls.map { ["--cert", $0.certificate, "--key", $0.key] } ?? []
        (process, input, line) = try S3TestServer.launch(Corpus.repository + "/Tests/References/s3_proxy.py",
                                                         ["--upstream", server.endpoint, "--log", log, "--admin", server.credentialsFile] + certificate + rules)
        let fields = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        endpoint = fields["endpoint"] as? String ?? ""
    }

    deinit {
        try? input.fileHandleForWriting.close()
        try? FileManager.default.removeItem(atPath: log)
    }

    /// One logged request.
    public struct Request: Sendable {
        public let method: String
        public let path: String
        public let query: String
        public let range: String?
        public let status: Int
        /// Bytes of the response body sent to the client.
        public let sent: Int
    }

    /// The requests so far, in order.
    public func requests() -> [Request] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let f = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Request(method: f["method"] as? String ?? "", path: f["path"] as? String ?? "", query: f["query"] as? String ?? "",
                           range: f["range"] as? String, status: f["status"] as? Int ?? 0, sent: f["sent"] as? Int ?? 0)
        }
    }
}

public struct S3TestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A loopback TCP listener that takes connections into its backlog and never reads or answers: an
/// endpoint that stalls (what a request's deadline and stop flag must end).
public final class SilentListener: @unchecked Sendable {
    public let port: Int
    private let socket: Int32

    public init() throws {
        (socket, port) = try listenOnLoopback()
    }

    deinit { close(socket) }
}

/// A loopback TCP endpoint that hands each connection to `serve` on a thread of its own.
public class LoopbackEndpoint: @unchecked Sendable {
    public let port: Int
    private let socket: Int32

    init(serve: @escaping @Sendable (Int32) -> Void) throws {
        (socket, port) = try listenOnLoopback()
        let socket = self.socket
        Thread.detachNewThread {
            while true {
                let connection = accept(socket, nil, nil)
                if connection < 0 && errno == EINTR { continue }
                guard connection >= 0 else { return }   // shut down
                Thread.detachNewThread {
                    defer { close(connection) }
                    serve(connection)
                }
            }
        }
    }

    /// Shutting the listener down wakes its blocked accept(), which then ends.
    deinit {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}

/// A loopback HTTP endpoint that answers every request at once with a 200, then sends its body one
/// byte each `interval` seconds: `bytes` of them (then the response is whole), or without a count
/// a megabyte announced and never done. What a read timeout must leave alone while bytes keep
/// coming, and end when they come slower than it. Each connection is given up after 200 bytes, so
/// a client without a deadline is not held forever.
public final class DrippingListener: LoopbackEndpoint, @unchecked Sendable {
    public init(every interval: Double = 0.1, bytes: Int? = nil) throws {
        try super.init { connection in
            let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(bytes ?? 1_000_000)\r\nETag: \"drip\"\r\n\r\n".utf8)
            guard send(connection, head, head.count, Int32(MSG_NOSIGNAL)) == head.count else { return }
            for _ in 0..<min(bytes ?? 200, 200) {
                usleep(UInt32(interval * 1_000_000))
                // Fails once the client has closed the connection.
                guard send(connection, [UInt8(ascii: ".")], 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
            }
        }
    }
}

/// A loopback HTTP endpoint that reads a request's body `chunk` bytes each `interval` seconds (an
/// upload over a slow link: it never stops moving) and then answers 200 with an ETag.
public final class SlowReadingListener: LoopbackEndpoint, @unchecked Sendable {
    public init(chunk: Int, every interval: Double) throws {
        try super.init { connection in
            var head = [UInt8](), buffer = [UInt8](repeating: 0, count: chunk)
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8) {
                guard recv(connection, &buffer, 1, 0) == 1 else { return }
                head.append(buffer[0])
            }
            let length = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            var left = length
            while left > 0 {
                usleep(UInt32(interval * 1_000_000))
                let got = recv(connection, &buffer, min(chunk, left), Int32(MSG_WAITALL))
                guard got > 0 else { return }
                left -= got
            }
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nETag: \"slow\"\r\n\r\n".utf8)
            _ = send(connection, answer, answer.count, Int32(MSG_NOSIGNAL))
        }
    }
}

/// A TCP socket listening on 127.0.0.1 at a port of the system's choosing, and the port.
private func listenOnLoopback() throws -> (socket: Int32, port: Int) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, length) == 0 && listen(socket, 16) == 0 && getsockname(socket, $0, &length) == 0
        }
    }
    guard listening else {
        close(socket)
        throw S3TestError("cannot listen on loopback")
    }
    return (socket, Int(UInt16(bigEndian: address.sin_port)))
}
