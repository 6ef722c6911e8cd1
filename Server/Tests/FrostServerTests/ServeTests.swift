import AsyncHTTPClient
import Foundation
@testable import FrostServer
import FrostService
import NIOHTTP1
import Testing

/// `frost serve` over HTTP on an ephemeral loopback port (issue 58's contract): signatures, the
/// library's bytes, 304/HEAD/Accept, metrics, 429 under load, 503 past the timeout, limits,
/// sources (the root, links out, `..`, remote hosts), damaged files, and SIGTERM with requests in flight.
@Suite(.serialized) struct ServeTests {
    static let key = "0123456789abcdef0123456789abcdef", salt = "fedcba9876543210"
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let signer = URLSignature(keyHex: key, saltHex: salt)!

    /// A root with a photo, and beside it a file a link in the root points to.
    static func root() throws -> String {
        let folder = NSTemporaryDirectory() + "frost-serve-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/served/photos", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/SampleImages/rocket.jpg", toPath: folder + "/served/photos/rocket.jpg")
        try FileManager.default.copyItem(atPath: repository + "/SampleImages/rocket.jpg", toPath: folder + "/secret.jpg")
        try FileManager.default.createSymbolicLink(atPath: folder + "/served/out.jpg", withDestinationPath: folder + "/secret.jpg")
        return folder
    }

    static func signed(_ rest: String) -> String { "/" + signer.signature(for: rest) + rest }

    static func start(_ folder: String, _ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(["--root", folder + "/served", "--key", key, "--salt", salt] + extra)
    }

    @Test func signaturesSourcesAndTheLibrarysBytes() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try Self.start(folder)
        defer { _ = server.stop() }
        #expect(try await HTTP.get(server.base + "/health").status == 200)
        let rest = "/g:ce/rs:fit:300:200:0/plain/local:///photos/rocket.jpg@webp"
        let good = try await HTTP.get(server.base + Self.signed(rest))
        #expect(good.status == 200 && good.header("Content-Type") == "image/webp" && good.header("Content-Length") == "\(good.body.count)")
        // The HTTP layer adds nothing to what the library makes.
        var settings = ImageService.Settings()
        settings.allowUnsigned = true
        settings.local = LocalSource(root: folder + "/served")
        let service = ImageService(settings)
        #expect(try service.respond(to: service.request("/_" + rest)).body == good.body)
        // The base64 source form imgproxy's URL builders emit.
        let encoded = "/g:ce/rs:fit:300:200:0/" + Base64URL.encode(Array("local:///photos/rocket.jpg".utf8)) + ".webp"
        #expect(try await HTTP.get(server.base + Self.signed(encoded)).body == good.body)
        for (path, status) in [("/insecure" + rest, 403), (rest, 403), (Self.signed(rest).replacingOccurrences(of: "300", with: "301"), 403),
                               (Self.signed("/zz:1/plain/local:///photos/rocket.jpg"), 400),
                               (Self.signed("/plain/local:///../secret.jpg"), 403), (Self.signed("/plain/local:///photos/%2E%2E/%2e%2e/secret.jpg"), 403),
                               (Self.signed("/plain/local:///out.jpg"), 403), (Self.signed("/plain/local:///nope.jpg"), 404),
                               (Self.signed("/plain/http://127.0.0.1:1/a.jpg"), 403)] {
            let answer = try await HTTP.get(server.base + path)
            #expect(answer.status == status, "\(path): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        // Info with placeholders.
        let info = try await HTTP.get(server.base + "/info" + Self.signed("/blurhash:4:3/thumbhash:1/plain/local:///photos/rocket.jpg"))
        let json = try JSONSerialization.jsonObject(with: Data(info.body)) as? [String: Any]
        #expect(info.header("Content-Type") == "application/json" && (json?["blurhash"] as? String)?.count == 28 && json?["thumbhash"] is String)
        // Unsigned URLs only when asked for.
        let open = try ServerProcess(["--root", folder + "/served", "--allow-unsigned"])
        #expect(try await HTTP.get(open.base + "/insecure" + rest).status == 200)
        #expect(open.stop() == 0)
    }

    @Test func cachingHeadersHeadAndNegotiation() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try Self.start(folder, ["--auto-webp"])
        defer { _ = server.stop() }
        let url = server.base + Self.signed("/rs:fit:200:0/plain/local:///photos/rocket.jpg")
        let first = try await HTTP.get(url)
        let etag = try #require(first.header("ETag"))
        #expect(first.header("Content-Type") == "image/jpeg" && first.header("Vary") == "Accept" && first.header("Cache-Control")?.contains("max-age=") == true)
        let again = try await HTTP.get(url, headers: [("If-None-Match", etag)])
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        let head = try await HTTP.get(url, method: .HEAD)
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "\(first.body.count)")
        let webp = try await HTTP.get(url, headers: [("Accept", "image/webp,*/*")])
        #expect(webp.header("Content-Type") == "image/webp" && webp.header("ETag") != etag)
        let busted = try await HTTP.get(server.base + Self.signed("/rs:fit:200:0/cb:7/plain/local:///photos/rocket.jpg"))
        #expect(busted.header("ETag") != etag && busted.body == first.body)
        let metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("requests_total 5") && metrics.contains("not_modified_total 1") && metrics.contains("request_duration_seconds_count"), "\(metrics)")
    }

    @Test func overloadGetsOnly200sAnd429s() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try Self.start(folder, ["--workers", "1", "--queue", "2"])
        defer { _ = server.stop() }
        let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
            for i in 0..<24 {
                group.addTask { try await HTTP.get(server.base + Self.signed("/bl:20/cb:\(i)/plain/local:///photos/rocket.jpg@png")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let statuses = Set(answers.map(\.status))
        #expect(statuses == [200, 429], "\(answers.map(\.status))")
        #expect(answers.filter { $0.status == 429 }.allSatisfy { $0.header("Retry-After") == "1" })
        let metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"errors_total{type="queue_full"}"#))
    }

    @Test func limitsAndTimeouts() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let strict = try Self.start(folder, ["--max-pixels", "1000", "--max-file-size", "1000000"])
        #expect(try await HTTP.get(strict.base + Self.signed("/rs:fit:10:0/plain/local:///photos/rocket.jpg")).status == 413)
        #expect(strict.stop() == 0)
        let small = try Self.start(folder, ["--max-file-size", "1000"])
        #expect(try await HTTP.get(small.base + Self.signed("/plain/local:///photos/rocket.jpg")).status == 413)
        #expect(small.stop() == 0)
        let hurried = try Self.start(folder, ["--timeout", "0.01", "--workers", "1"])
        #expect(try await HTTP.get(hurried.base + Self.signed("/bl:40/plain/local:///photos/rocket.jpg@png")).status == 503)
        #expect(try await HTTP.get(hurried.base + "/health").status == 200)
        #expect(hurried.stop() == 0)
        // Timeouts in the queue and in processing lose no worker: once the slow ones are done, a
        // small request still gets the only worker in time.
        let busy = try Self.start(folder, ["--timeout", "0.3", "--workers", "1"])
        defer { _ = busy.stop() }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<8 { group.addTask { try await HTTP.get(busy.base + Self.signed("/bl:40/cb:\(i)/plain/local:///photos/rocket.jpg@png")).status } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(statuses.isSubset(of: [200, 503]) && statuses.contains(503), "\(statuses)")
        try await Task.sleep(for: .seconds(3))
        for i in 0..<3 {
            #expect(try await HTTP.get(busy.base + Self.signed("/rs:fit:40:0/cb:\(i)/plain/local:///photos/rocket.jpg")).status == 200)
        }
    }

    /// Every file kept under Tests/Fixtures (fuzz findings, damaged and odd files) and PngSuite's
    /// corrupt ones served: each gets an answer, none takes the server down.
    @Test func damagedFilesNeverTakeTheServerDown() async throws {
        let tests = Self.repository + "/Tests"
        let server = try ServerProcess(["--root", tests, "--allow-unsigned", "--max-pixels", "4000000"])
        defer { _ = server.stop() }
        let fixtures = (FileManager.default.enumerator(atPath: tests + "/Fixtures")?.allObjects as? [String] ?? []).map { "Fixtures/" + $0 }
        let corrupt = (try FileManager.default.contentsOfDirectory(atPath: tests + "/Corpus/pngsuite")).filter { $0.hasPrefix("x") }.map { "Corpus/pngsuite/" + $0 }
        let files = (fixtures + corrupt).filter { var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: tests + "/" + $0, isDirectory: &folder) && !folder.boolValue }
        #expect(files.count > 50)
        for file in files {
            let answer = try await HTTP.get(server.base + "/_/rs:fit:64:0/plain/local:///" + file + "@png")
            #expect([200, 413, 422].contains(answer.status), "\(file): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        #expect(try await HTTP.get(server.base + "/health").status == 200)
    }

    /// http(s) sources: listed hosts only; a listed loopback address is fetched, and so is a listed
    /// name whose addresses are listed.
    @Test func remoteSources() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let origin = Process()
        origin.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        origin.arguments = ["-u", "-m", "http.server", "--bind", "127.0.0.1", "0", "--directory", folder + "/served/photos"]
        let pipe = Pipe()
        origin.standardOutput = pipe
        origin.standardError = FileHandle.nullDevice
        try origin.run()
        // SIGKILL: the test runner's thread that starts it blocks SIGTERM, and the child inherits the mask.
        defer {
            kill(origin.processIdentifier, SIGKILL)
            origin.waitUntilExit()
        }
        let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(line.split(separator: " ").firstIndex(of: "port").map { line.split(separator: " ")[$0 + 1] })
        let source = "http://127.0.0.1:\(port)/rocket.jpg"
        let allowed = try Self.start(folder, ["--allow-source", "127.0.0.1"])
        defer { _ = allowed.stop() }
        let remote = try await HTTP.get(allowed.base + Self.signed("/rs:fit:100:0/plain/" + source))
        let local = try await HTTP.get(allowed.base + Self.signed("/rs:fit:100:0/plain/local:///photos/rocket.jpg"))
        #expect(remote.status == 200 && remote.body == local.body)
        #expect(try await HTTP.get(allowed.base + Self.signed("/plain/http://127.0.0.1:\(port)/missing.jpg")).status == 404)
        let closed = try Self.start(folder, ["--allow-source", "localhost"])
        defer { _ = closed.stop() }
        #expect(try await HTTP.get(closed.base + Self.signed("/plain/" + source)).status == 403)
        #expect(try await HTTP.get(closed.base + Self.signed("/plain/http://localhost:\(port)/rocket.jpg")).status == 403, "a listed name inside the network")
        // A name and its addresses listed: fetched from the address checked (its IPv4 one, where the origin listens).
        let named = try Self.start(folder, ["--allow-source", "localhost", "--allow-source", "127.0.0.1", "--allow-source", "::1"])
        defer { _ = named.stop() }
        let byName = try await HTTP.get(named.base + Self.signed("/rs:fit:100:0/plain/http://localhost:\(port)/rocket.jpg"))
        #expect(byName.status == 200 && byName.body == local.body)
        // The download connects to the address it is given, not to what the name resolves to
        // (here nothing: .invalid never resolves, RFC 6761).
        let pinned = try await RemoteFetch(maxBytes: 1 << 24, timeout: .seconds(5))
            .bytes("http://origin.invalid:\(port)/rocket.jpg", host: "origin.invalid", address: "127.0.0.1")
        #expect(pinned == Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/served/photos/rocket.jpg"))))
    }

    /// The result cache: a repeated URL is answered from disk (the same bytes and ETag), also after
    /// a restart; /metrics counts the hits.
    @Test func resultCacheAnswersRepeatsAcrossRestarts() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["--cache", folder + "/cache", "--cache-size", "10000000"]
        let url = Self.signed("/rs:fit:200:0/bl:4/plain/local:///photos/rocket.jpg@webp")
        let server = try Self.start(folder, arguments)
        let first = try await HTTP.get(server.base + url)
        let second = try await HTTP.get(server.base + url)
        #expect(first.status == 200 && second.body == first.body && second.header("ETag") == first.header("ETag"))
        var metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("result_cache_hits_total 1") && metrics.contains("result_cache_files 1"), "\(metrics)")
        #expect(server.stop() == 0)
        let restarted = try Self.start(folder, arguments)
        defer { _ = restarted.stop() }
        let third = try await HTTP.get(restarted.base + url, headers: [("If-None-Match", first.header("ETag")!)])
        #expect(third.status == 304)
        #expect(try await HTTP.get(restarted.base + url).body == first.body)
        metrics = String(decoding: try await HTTP.get(restarted.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("result_cache_hits_total 2"), "\(metrics)")
        // fade: frames come from a blur cache kept beside the results.
        let frame = try await HTTP.get(restarted.base + Self.signed("/fade:0.5:3:10/rs:fit:100:0/plain/local:///photos/rocket.jpg@png"))
        #expect(frame.status == 200 && frame.header("Content-Type") == "image/png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache/blur").count == 1)
    }

    /// A blur cache by URL: the signed URL redirects to the manifest, whose levels resolve beside
    /// it; a browser's fetch follows the same way.
    @Test func blurCachesByURL() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try Self.start(folder, ["--cache", folder + "/cache"])
        defer { _ = server.stop() }
        let url = server.base + "/cache" + Self.signed("/levels:3/ms:12/f:webp/plain/local:///photos/rocket.jpg")
        let redirect = try await HTTP.get(url, follow: false)
        let location = try #require(redirect.header("Location"))
        #expect(redirect.status == 307 && location.hasPrefix("/cache/") && location.hasSuffix("/manifest.json"))
        // The cache may be evicted: the redirect is not kept, its files (which never change) are.
        #expect(redirect.header("Cache-Control") == "no-cache")
        let manifest = try await HTTP.get(url)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(manifest.body)) as? [String: Any])
        let levels = try #require(json["levels"] as? [[String: Any]])
        #expect(manifest.status == 200 && manifest.header("Content-Type") == "application/json" && levels.count == 4, "the source and 3 blurred")
        let base = server.base + location.dropLast("manifest.json".count)
        for level in levels {
            let file = try await HTTP.get(base + (level["file"] as? String ?? "?"))
            let sha = level["sha256"] as? String ?? "?"
            #expect(file.status == 200 && file.header("Content-Type") == "image/webp" && file.header("ETag") == "\"\(sha.prefix(32))\"")
            #expect(file.header("Cache-Control")?.hasSuffix("immutable") == true)
        }
        #expect(try await HTTP.get(base + "level-07.webp").status == 404)
        #expect(try await HTTP.get(server.base + "/cache" + Self.signed("/levels:3/ms:12/f:gif/plain/local:///photos/rocket.jpg")).status == 400)
        let metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("blur_caches 1"), "\(metrics)")
    }

    /// A request whose client goes away costs nothing more: queued, it leaves the queue without
    /// running; processing, it stops at its next step and gives its worker back.
    @Test func clientsThatGoAwayAreNotServed() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // No deadline in the way: the heavy requests take seconds in a debug build on a busy machine.
        let server = try Self.start(folder, ["--workers", "1", "--timeout", "120"])
        defer { _ = server.stop() }
        let port = server.port
        /// Sends a GET and closes the connection after `seconds`, without reading the answer.
        func abandon(_ path: String, after seconds: Double) throws -> Process {
            let script = """
            import socket, sys, time
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(("GET " + sys.argv[1] + " HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n").encode())
            time.sleep(\(seconds))
            s.close()
            """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, path]
            try process.run()
            return process
        }
        // Seconds of work: enlarged to 2560 wide, blurred, written as PNG.
        let heavy = { @Sendable (i: Int) in Self.signed("/el:1/rs:fit:2560:0/bl:40/cb:\(i)/plain/local:///photos/rocket.jpg@png") }
        async let first = HTTP.get(server.base + heavy(0))
        try await Task.sleep(for: .milliseconds(100))
        let gone = try (1...3).map { try abandon(heavy($0), after: 0.1) }
        gone.forEach { $0.waitUntilExit() }
        #expect(try await first.status == 200)
        try await Task.sleep(for: .milliseconds(300))
        var metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("client_gone_total 3") && metrics.contains(#"request_span_duration_seconds_count{span="processing"} 1"#), "\(metrics)")
        // Gone while processing: its work stops at its next step (ServiceProcessor's checks, tested
        // in ImageServiceTests), the worker is free again for the next request.
        try abandon(heavy(4), after: 0.15).waitUntilExit()
        #expect(try await HTTP.get(server.base + Self.signed("/rs:fit:40:0/plain/local:///photos/rocket.jpg")).status == 200)
        metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("client_gone_total 4"), "\(metrics)")
    }

    /// SIGTERM with requests in flight: they finish (200), then the process exits 0.
    @Test func sigtermLetsRequestsInFlightFinish() async throws {
        let folder = try Self.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try Self.start(folder, ["--workers", "1"])
        let url = server.base + Self.signed("/bl:40/plain/local:///photos/rocket.jpg@png")
        async let first = HTTP.get(url)
        async let second = HTTP.get(url + "?again")
        try await Task.sleep(for: .milliseconds(100))
        let status = server.stop()
        let answers = try await [first, second]
        #expect(answers.map(\.status) == [200, 200])
        #expect(status == 0, "\(server.log())")
    }
}

private extension String {
    func replacingOccurrences(of a: String, with b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}

/// The contract's own command line: `frost serve …` runs this server.
@Suite struct FrostServeVerbTests {
    @Test func frostServeStartsTheServer() async throws {
        let frost = ServeTests.repository + "/.build/debug/frost"
        #expect(FileManager.default.isExecutableFile(atPath: frost), "build the engine first (make debug)")
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServerProcess(["serve", "--root", folder + "/served", "--key", ServeTests.key, "--salt", ServeTests.salt],
                                       executable: frost, environment: ["FROST_SERVE": ServerProcess.binary])
        #expect(try await HTTP.get(server.base + ServeTests.signed("/rs:fit:50:0/plain/local:///photos/rocket.jpg")).status == 200)
        #expect(server.stop() == 0)
    }
}
