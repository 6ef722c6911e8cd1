import Foundation
import FrostCore
import FrostService
import FrostTestSupport
import Testing

/// `frost serve` with `s3://BUCKET/KEY` sources and `--cache s3://BUCKET/PREFIX`, against a real S3
/// server on loopback (moto with every signature checked, started as the engine's S3 tests start
/// it: FrostTestSupport's S3TestServer, Tests/References/s3_server.py), the AWS CLI putting the
/// objects in. Two server processes sharing one cache bucket are two replicas behind an HPA.
@Suite struct ObjectServeTests {
    /// `frost-serve` with the S3 server's configuration (the AWS variables, as the CLI reads them).
    static func start(_ s3: S3TestServer, _ arguments: [String], secret: String? = nil, endpoint: String? = nil) throws -> ServerProcess {
        try ServerProcess(["--key", ServeTests.key, "--salt", ServeTests.salt] + arguments,
                          environment: s3.environment(endpoint: endpoint, secret: secret).merging(["HOME": "/nonexistent"]) { $1 })
    }

    static func text(_ answer: Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    @Test func objectsAreServedAndReplicasShareTheCacheBucket() async throws {
        let s3 = try S3TestServer.shared()
        // The cache bucket is versioned: a cache built twice would leave two versions of its files.
        let (source, cache) = (try s3.makeBucket(versioned: true), try s3.makeBucket(versioned: true))
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func put(_ file: String) throws -> String {
            try s3.aws(["s3api", "put-object", "--bucket", source, "--key", "photos/rocket.jpg", "--body", file, "--query", "VersionId", "--output", "text"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let first = try put(folder + "/served/photos/rocket.jpg")
        let arguments = ["--root", folder + "/served", "--allow-source", "s3://\(source)", "--cache", "s3://\(cache)/frost"]
        let replica = try Self.start(s3, arguments)
        defer { _ = replica.stop() }

        // The same bytes as the same file under the root; an ETag of its own; a 304 from it.
        let options = "/rs:fit:200:0/bl:4/plain/"
        let local = try await HTTP.get(replica.base + ServeTests.signed(options + "local:///photos/rocket.jpg@webp"))
        let url = ServeTests.signed(options + "s3://\(source)/photos/rocket.jpg@webp")
        let object = try await HTTP.get(replica.base + url)
        #expect(object.status == 200 && object.body == local.body && object.header("Content-Type") == "image/webp", "\(Self.text(object))")
        let etag = try #require(object.header("ETag"))
        #expect(etag != local.header("ETag"))
        #expect(try await HTTP.get(replica.base + url, headers: [("If-None-Match", etag)]).status == 304)

        // Rewritten: the new picture at once; the first version by its id.
        _ = try put(ServeTests.repository + "/SampleImages/coffee-cutout.png")
        let now = try await HTTP.get(replica.base + ServeTests.signed(options + "s3://\(source)/photos/rocket.jpg"))
        #expect(now.status == 200 && now.header("Content-Type") == "image/png", "\(Self.text(now))")
        let versioned = ServeTests.signed(options + "s3://\(source)/photos/rocket.jpg%3F\(first)@webp")
        #expect(try await HTTP.get(replica.base + versioned).body == local.body)

        for (path, status) in [(ServeTests.signed(options + "s3://not-\(source)/photos/rocket.jpg"), 403),
                               (ServeTests.signed(options + "s3://\(source)/photos/missing.jpg"), 404),
                               (ServeTests.signed(options + "s3://\(source)"), 400),
                               (ServeTests.signed(options + "s3://\(source)/photos/rocket.jpg%3Fno-such-version"), 404)] {
            let answer = try await HTTP.get(replica.base + path)
            #expect(answer.status == status, "\(path): \(answer.status) \(Self.text(answer))")
        }

        // A blur cache by URL, built by this replica into the bucket.
        let redirect = try await HTTP.get(replica.base + "/cache" + ServeTests.signed("/levels:3/ms:12/plain/s3://\(source)/photos/rocket.jpg%3F\(first)"),
                                          follow: false)
        let manifestPath = try #require(redirect.header("Location"))
        #expect(redirect.status == 307)
        let keys = try s3.keys(cache, prefix: "frost/")
        #expect(keys.filter { $0.hasPrefix("frost/blur/") }.count == 5, "4 levels and the manifest: \(keys)")
        #expect(keys.filter { !$0.hasPrefix("frost/blur/") }.count == 4, "the four results: \(keys)")

        // Another replica answers from the bucket: the result (no source read, no work) and the
        // blur cache's files it never built.
        let other = try Self.start(s3, arguments)
        defer { _ = other.stop() }
        let shared = try await HTTP.get(other.base + versioned)
        #expect(shared.status == 200 && shared.body == local.body)
        let manifest = try await HTTP.get(other.base + manifestPath)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(manifest.body)) as? [String: Any])
        let levels = try #require(json["levels"] as? [[String: Any]])
        #expect(manifest.status == 200 && levels.count == 4)
        let level = try await HTTP.get(other.base + manifestPath.dropLast("manifest.json".count) + (levels[2]["file"] as? String ?? "?"))
        #expect(level.status == 200 && level.header("Content-Type") == "image/png")
        let frame = try await HTTP.get(other.base + ServeTests.signed("/fade:0.5:3:12/rs:fit:100:0/plain/s3://\(source)/photos/rocket.jpg%3F\(first)@png"))
        #expect(frame.status == 200 && frame.header("Content-Type") == "image/png", "\(Self.text(frame))")
        let metrics = Self.text(try await HTTP.get(other.base + "/metrics"))
        #expect(metrics.contains("result_cache_hits_total 1") && metrics.contains("result_cache_misses_total 1"), "\(metrics)")
        let versions = try s3.aws(["s3api", "list-object-versions", "--bucket", cache, "--prefix", "frost/blur/", "--query", "Versions[].Key", "--output", "text"])
        #expect(versions.stdout.split(whereSeparator: \.isWhitespace).count == 5, "the frame used the cache the first replica built: \(versions.stdout)")

        // Levels damaged in the bucket (a lifecycle rule removes a cache's levels before the
        // manifest written a day later; a hand's overwrite): the next frame builds the cache again.
        let garbage = folder + "/garbage.png"
        try Data("not a level".utf8).write(to: URL(fileURLWithPath: garbage))
        let prefix = "frost/blur/" + manifestPath.dropFirst("/cache/".count).dropLast("manifest.json".count)
        for level in levels[1...2] {
            try s3.aws(["s3", "cp", garbage, "s3://\(cache)/\(prefix)\(level["file"] as? String ?? "?")", "--quiet"])
        }
        let again = try await HTTP.get(other.base + ServeTests.signed("/fade:0.5:3:12/rs:fit:120:0/plain/s3://\(source)/photos/rocket.jpg%3F\(first)@png"))
        #expect(again.status == 200, "\(again.status) \(Self.text(again))")
        for level in levels {
            let file = try await HTTP.get(other.base + manifestPath.dropLast("manifest.json".count) + (level["file"] as? String ?? "?"))
            #expect(SHA256.hex(file.body) == level["sha256"] as? String, "\(level["file"] ?? "?") rebuilt")
        }
        #expect(other.stop() == 0)
        #expect(!other.log().contains(s3.secretAccessKey) && replica.stop() == 0 && !replica.log().contains(s3.secretAccessKey))
    }

    /// A wrong secret: the server does not start with a cache in the bucket, and an object source
    /// is a 502 naming S3's refusal; an endpoint that never answers is a 504 at --download-timeout.
    /// The secret appears nowhere.
    @Test func refusedCredentialsAndASilentEndpoint() async throws {
        let s3 = try S3TestServer.shared()
        let source = try s3.makeBucket()
        try s3.aws(["s3", "cp", ServeTests.repository + "/SampleImages/rocket.jpg", "s3://\(source)/rocket.jpg", "--quiet"])
        let wrong = "Wr0ngSecretWr0ngSecretWr0ngSecret0000000"
        let unstarted = #expect(throws: ServerError.self) { try Self.start(s3, ["--cache", "s3://\(source)/cache"], secret: wrong) }
        #expect(unstarted.map { $0.description.contains("SignatureDoesNotMatch") && !$0.description.contains(wrong) } == true, "\(String(describing: unstarted))")
        let refused = try Self.start(s3, ["--allow-source", "s3://\(source)"], secret: wrong)
        let answer = try await HTTP.get(refused.base + ServeTests.signed("/w:50/plain/s3://\(source)/rocket.jpg"))
        #expect(answer.status == 502 && Self.text(answer).contains("SignatureDoesNotMatch"), "\(answer.status) \(Self.text(answer))")
        #expect(refused.stop() == 0)
        let log = refused.log()
        #expect(log.contains(" 502 ") && log.contains("SignatureDoesNotMatch") && !log.contains(wrong) && !log.contains(s3.secretAccessKey) && !Self.text(answer).contains(wrong))

        // A listener that accepts and never answers: the download's deadline, then the request's.
        let silent = try SilentListener()
        let stalled = try Self.start(s3, ["--allow-source", "s3://\(source)", "--download-timeout", "1"], endpoint: "http://127.0.0.1:\(silent.port)")
        defer { _ = stalled.stop() }
        let late = try await HTTP.get(stalled.base + ServeTests.signed("/w:50/plain/s3://\(source)/rocket.jpg"))
        #expect(late.status == 504, "\(late.status) \(Self.text(late))")
    }
}
