import Foundation
import FrostCodecs
import FrostFiles
import FrostTestSupport
import Testing

/// The verbs over a bucket (issue 67): a real S3 server on loopback (moto, every signature
/// checked), the AWS CLI putting the catalog in and reading results out, and a proxy counting
/// requests and bytes and injecting faults.
@Suite struct S3CommandTests {
    static let catalog = ["hopper.jpg": "pillow/jpeg/hopper.jpg", "alpha.png": "pngsuite/basn6a08.png",
                          "sub/color.png": "pngsuite/basn2c08.png", "rocket.jpg": "photos/rocket.jpg"]

    /// A bucket with the catalog under `photos/`, and a file that is not an image beside it.
    static func bucket(_ server: S3TestServer, versioned: Bool = false) throws -> String {
        let bucket = try server.makeBucket(versioned: versioned)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (name, source) in catalog {
            try FileManager.default.createDirectory(atPath: (folder.file(name) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Corpus.path(source), toPath: folder.file(name))
        }
        try "not an image".write(toFile: folder.file("notes.txt"), atomically: true, encoding: .utf8)
        try server.aws(["s3", "cp", folder.path, "s3://\(bucket)/photos/", "--recursive", "--quiet"])
        return bucket
    }

    static func frost(_ arguments: [String], _ server: S3TestServer, via proxy: S3FaultProxy? = nil, secret: String? = nil,
                      extra: [String: String] = [:]) throws -> FrostRun {
        let run = try FrostRun.run(arguments, environment: server.environment(endpoint: proxy?.endpoint, secret: secret).merging(extra) { $1 })
        // The secret is never printed, whatever happens.
        #expect(!run.stdout.contains(server.secretAccessKey) && !run.stderr.contains(server.secretAccessKey))
        if let secret { #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret)) }
        return run
    }

    /// Two shards over a bucket into the bucket, each cache's manifest written after its levels;
    /// the caches' levels are a local run's bytes; a rerun reads one manifest per cache and no
    /// source or level.
    @Test func cacheBatchOverABucketAndANoOpRerun() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let proxy = try S3FaultProxy(server)
        for shard in ["0/2", "1/2"] {
            let run = try Self.frost(["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--shard", shard, "--jobs", "2",
                                      "--levels", "3"], server, via: proxy)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let manifests = try server.keys(bucket, prefix: "caches/").filter { $0.hasSuffix("/manifest.json") }
        #expect(manifests == Self.catalog.keys.map { "caches/\($0).frost/manifest.json" }.sorted())
        // The output is listed once, at the start: no cache's upload lists its prefix again.
        #expect(proxy.requests().filter { $0.query.contains("delimiter") }.isEmpty, "\(proxy.requests().map { "\($0.method) \($0.path)?\($0.query)" })")
        let puts = proxy.requests().filter { $0.method == "PUT" }.map(\.path)
        for manifest in manifests {
            let folder = "/\(bucket)/" + manifest.dropLast("manifest.json".count)
            let order = puts.enumerated().filter { $0.element.hasPrefix(folder) }
            #expect(order.last?.element.hasSuffix("manifest.json") == true && order.count == 5, "\(order)")
        }
        // The levels are what a local run writes, byte for byte.
        let local = try TemporaryFolder()
        defer { local.remove() }
        #expect(try FrostRun.run(["cache", Corpus.path("photos/rocket.jpg"), "-o", local.file("rocket.frost"), "--levels", "3"]).status == 0)
        try server.aws(["s3", "cp", "s3://\(bucket)/caches/rocket.jpg.frost/", local.file("from-bucket"), "--recursive", "--quiet"])
        for level in 0...3 {
            let name = String(format: "level-%02d.png", level)
            #expect(try FileIO.read(local.file("from-bucket/" + name)) == (try FileIO.read(local.file("rocket.frost/" + name))), "\(name)")
        }
        let manifest = try String(contentsOfFile: local.file("from-bucket/manifest.json"), encoding: .utf8)
        let etag = try server.aws(["s3api", "head-object", "--bucket", bucket, "--key", "photos/rocket.jpg", "--query", "ETag", "--output", "text"])
            .stdout.trimmingCharacters(in: CharacterSet(charactersIn: "\"\n"))
        #expect(manifest.contains("\"identity\" : \"etag:\(etag)\""), "\(manifest)")

        let rerun = try S3FaultProxy(server)
        var skipped = 0
        for shard in ["0/2", "1/2"] {
            let run = try Self.frost(["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--shard", shard, "--jobs", "2",
                                      "--levels", "3"], server, via: rerun)
            // The batch's summary: `shard 0/2: built 0, skipped 2, failed 0 of 2 in 0s; 0 caches whose …`.
            let summary = run.stderr.split(separator: "\n").last.map { String($0.dropFirst("shard \(shard): ".count)) } ?? ""
            #expect(run.status == 0 && summary.hasPrefix("built 0, skipped ") && summary.contains(", failed 0 of "), "\(run.stderr)")
            skipped += Int(summary.dropFirst("built 0, skipped ".count).prefix { $0.isNumber }) ?? 0
        }
        #expect(skipped == Self.catalog.count)
        let requests = rerun.requests()
        #expect(!requests.contains { $0.path.contains("/photos/") && $0.method == "GET" && !$0.query.contains("list-type") }, "a source was read")
        #expect(!requests.contains { $0.path.contains("/level-") }, "a level was read")
        let perCache = requests.filter { $0.path.contains("/caches/") && $0.path.hasSuffix(".frost/manifest.json") }
        #expect(perCache.count == Self.catalog.count, "one request per cache: \(perCache.map(\.path))")
        // Besides: per shard, one listing of the catalog and one check of the output's bucket.
        #expect(requests.count == Self.catalog.count + 4, "\(requests.map { "\($0.method) \($0.path)?\($0.query)" })")
    }

    /// The operator's batch (issue 68) over a bucket as on disk: exit 3 for a bad object and 1 past
    /// --max-failures, the report (the same keys) written as an object, a cache prefix a killed
    /// run left without its manifest removed once an hour old (one written in the last hour may be
    /// another run's upload: kept, or built over when it is an input's), an orphan counted then pruned, a rebuild that leaves
    /// only the new cache's objects, and a source put again with the same bytes kept by its hash.
    @Test func theOperatorsBatchHoldsOverABucket() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let local = try TemporaryFolder()
        defer { local.remove() }
        try Data("junk".utf8).write(to: URL(fileURLWithPath: local.file("bad.png")))
        try server.aws(["s3api", "put-object", "--bucket", bucket, "--key", "photos/bad.png", "--body", local.file("bad.png")])
        // What a run killed mid-upload leaves: a cache prefix with a level and no manifest, two
        // hours old (the proxy backdates it in the listing); and two of the last hour, which may
        // be a run still uploading: one of an input (built over), one of no input (kept).
        for ghost in ["ghost", "fresh", "rocket"] {
            try server.aws(["s3api", "put-object", "--bucket", bucket, "--key", "caches/\(ghost).jpg.frost/level-00.png", "--body", Corpus.path("pngsuite/basn2c08.png")])
        }
        let batch = ["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--levels", "2", "--jobs", "2"]
        let aged = try S3FaultProxy(server, rules: ["--backdate", "caches/ghost.jpg.frost/:7200"])
        var run = try Self.frost(batch + ["--report", "s3://\(bucket)/caches/reports/r.jsonl"], server, via: aged)
        #expect(run.status == 3 && run.errorLines == ["frost: s3://\(bucket)/photos/bad.png: not a PNG, JPEG, WebP, AVIF, HEIC or GIF file"], "\(run.stderr)")
        #expect(run.stderr.contains("built 4, skipped 0, failed 1 of 5") && run.stderr.contains("removed 1 left by stopped runs")
                && run.stderr.contains("kept 2 without a manifest"), "\(run.stderr)")
        #expect(try server.keys(bucket, prefix: "caches/fresh.jpg.frost/") == ["caches/fresh.jpg.frost/level-00.png"])
        #expect(!aged.requests().contains { $0.method == "DELETE" && $0.path.contains("/rocket.jpg.frost/") }, "a fresh prefix was deleted first")
        try server.aws(["s3", "rm", "s3://\(bucket)/caches/fresh.jpg.frost/", "--recursive", "--quiet"])
        try server.aws(["s3", "cp", "s3://\(bucket)/caches/reports/r.jsonl", local.file("r.jsonl"), "--quiet"])
        let lines = try String(contentsOfFile: local.file("r.jsonl"), encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(lines.count == 6 && lines.allSatisfy { Set($0.keys).subtracting(["note"]) == ["source", "output", "status", "error", "bytes", "time"] })
        let bad = lines.first { $0["source"] as? String == "s3://\(bucket)/photos/bad.png" }
        #expect(bad?["status"] as? String == "failed" && bad?["bytes"] as? Int == 4 && bad?["output"] as? String == "s3://\(bucket)/caches/bad.png.frost")
        #expect(lines.contains { $0["status"] as? String == "removed" && $0["output"] as? String == "s3://\(bucket)/caches/ghost.jpg.frost" })
        #expect(try server.keys(bucket, prefix: "caches/ghost").isEmpty)
        // Past --max-failures (bad.png is the second input of five): the rest not tried, exit 1.
        run = try Self.frost(batch + ["--max-failures", "0", "--jobs", "1"], server)
        #expect(run.status == 1 && run.stderr.contains("not tried 3"), "\(run.stderr)")

        // A source gone: its cache counted, then pruned (its objects deleted); the rest skipped.
        try server.aws(["s3", "rm", "s3://\(bucket)/photos/hopper.jpg", "--quiet"])
        try server.aws(["s3", "rm", "s3://\(bucket)/photos/bad.png", "--quiet"])
        run = try Self.frost(batch, server)
        #expect(run.status == 0 && run.stderr.contains("skipped 3") && run.stderr.contains("1 caches whose source is gone"), "\(run.stderr)")
        // info --sources calls that cache, and only it, an orphan (a 404 for its source's HEAD).
        run = try Self.frost(["info", "--json", "--sources", "s3://\(bucket)/photos/", "s3://\(bucket)/caches/"], server)
        let orphans = try run.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            .map { ($0["file"] as? String ?? "", $0["orphan"] as? Bool, $0["source_path"] as? String ?? "") }
        #expect(run.status == 0 && orphans.map(\.0) == Self.catalog.keys.sorted().map { "s3://\(bucket)/caches/\($0).frost" }, "\(run.stdout)\(run.stderr)")
        #expect(orphans.allSatisfy { $0.1 == $0.0.hasSuffix("/hopper.jpg.frost") && $0.2 == $0.0.replacingOccurrences(of: "/caches/", with: "/photos/").replacingOccurrences(of: ".frost", with: "") },
                "\(orphans)")
        run = try Self.frost(batch + ["--prune"], server)
        #expect(run.status == 0 && run.stderr.contains("pruned 1 caches"), "\(run.stderr)")
        #expect(try server.keys(bucket, prefix: "caches/hopper.jpg.frost").isEmpty)

        // A rebuild with fewer levels: the new cache's objects, and none of the old one's.
        run = try Self.frost(["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--levels", "1"], server)
        #expect(run.status == 0 && run.stderr.contains("built 3"), "\(run.stderr)")
        #expect(try server.keys(bucket, prefix: "caches/rocket.jpg.frost/") == ["level-00.png", "level-01.png", "manifest.json"].map { "caches/rocket.jpg.frost/" + $0 })

        // The same bytes put again as a one-part multipart upload (another ETag, `…-1`): downloaded
        // and hashed, kept, and its manifest restamped with the new ETag.
        let key = ["--bucket", bucket, "--key", "photos/rocket.jpg"]
        let upload = try server.aws(["s3api", "create-multipart-upload"] + key + ["--query", "UploadId", "--output", "text"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let part = try server.aws(["s3api", "upload-part"] + key + ["--part-number", "1", "--upload-id", upload, "--body", Corpus.path("photos/rocket.jpg"),
                                                                   "--query", "ETag", "--output", "text"]).stdout.trimmingCharacters(in: CharacterSet(charactersIn: "\"\n"))
        try server.aws(["s3api", "complete-multipart-upload"] + key + ["--upload-id", upload,
                                                                      "--multipart-upload", #"{"Parts":[{"ETag":"\#(part)","PartNumber":1}]}"#])
        run = try Self.frost(["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--levels", "1",
                              "--report", local.file("again.jsonl")], server)
        #expect(run.status == 0 && run.stderr.contains("built 0, skipped 3"), "\(run.stderr)")
        let again = try String(contentsOfFile: local.file("again.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(again.contains { $0.contains("photos/rocket.jpg\"") && $0.contains("restamped") }, "\(again)")
        let etag = try server.aws(["s3api", "head-object"] + key + ["--query", "ETag", "--output", "text"])
            .stdout.trimmingCharacters(in: CharacterSet(charactersIn: "\"\n"))
        #expect(etag.hasSuffix("-1"))
        try server.aws(["s3", "cp", "s3://\(bucket)/caches/rocket.jpg.frost/manifest.json", local.file("m.json"), "--quiet"])
        #expect(try String(contentsOfFile: local.file("m.json"), encoding: .utf8).contains("\"identity\" : \"etag:\(etag)\""))
    }

    /// The filters, placeholder and info take objects and prefixes as they take files and folders,
    /// with the same results; info reads an object's header with a ranged GET.
    @Test func filtersPlaceholdersAndInfoTakeObjects() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let local = try TemporaryFolder()
        defer { local.remove() }
        var run = try Self.frost(["blur", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/blurred/", "--sigma", "2", "--jobs", "2"], server)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try server.keys(bucket, prefix: "blurred/") == Self.catalog.keys.map { "blurred/" + $0 }.sorted())
        #expect(try FrostRun.run(["blur", Corpus.path("photos/rocket.jpg"), local.file("rocket.jpg"), "--sigma", "2"]).status == 0)
        try server.aws(["s3", "cp", "s3://\(bucket)/blurred/rocket.jpg", local.file("from-bucket.jpg"), "--quiet"])
        #expect(try FileIO.read(local.file("from-bucket.jpg")) == (try FileIO.read(local.file("rocket.jpg"))))

        // A bucket's objects into a local folder, listed in a list that lives in the bucket too.
        try "hopper.jpg\nsub/color.png\n".write(toFile: local.file("list.txt"), atomically: true, encoding: .utf8)
        try server.aws(["s3", "cp", local.file("list.txt"), "s3://\(bucket)/photos/list.txt", "--quiet"])
        run = try Self.frost(["resize", "--inputs-from", "s3://\(bucket)/photos/list.txt", "--width", "16", "-o", local.file("small") + "/"], server)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ImageInfo(contentsOfFile: local.file("small/sub/color.png")).width == 16)

        let placeholder = try Self.frost(["placeholder", "s3://\(bucket)/photos/rocket.jpg"], server)
        let reference = try FrostRun.run(["placeholder", Corpus.path("photos/rocket.jpg")])
        #expect(placeholder.status == 0 && placeholder.stdout.split(separator: " ").last == reference.stdout.split(separator: " ").last)

        let proxy = try S3FaultProxy(server)
        let info = try Self.frost(["info", "s3://\(bucket)/photos/rocket.jpg"], server, via: proxy)
        let localInfo = try FrostRun.run(["info", Corpus.path("photos/rocket.jpg")])
        #expect(info.stdout.drop { $0 != " " } == localInfo.stdout.drop { $0 != " " })
        #expect(proxy.requests().map(\.range) == ["bytes=0-262143"])
        let caches = try Self.frost(["info", "s3://\(bucket)/blurred/"], server)
        #expect(caches.status == 0 && caches.stdout.split(separator: "\n").count == Self.catalog.count, "\(caches.stdout)\(caches.stderr)")
    }

    /// Each fault is one line naming the bucket and the key; the other inputs are done.
    @Test func faultsAreOneLineEachAndTheOthersAreDone() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let out = try TemporaryFolder()
        defer { out.remove() }

        var run = try Self.frost(["cache", "--batch", "s3://frost-no-such-bucket/photos/", "-o", out.file("caches")], server)
        #expect(run.status == 1 && run.errorLines == ["frost: s3://frost-no-such-bucket/photos/: the bucket frost-no-such-bucket does not exist (404 NoSuchBucket)"],
                "\(run.stderr)")

        let wrong = "Wr0ngSecretWr0ngSecretWr0ngSecret0000000"
        run = try Self.frost(["blur", "s3://\(bucket)/photos/", "-o", out.file("w") + "/", "--sigma", "1"], server, secret: wrong)
        #expect(run.status == 1 && run.errorLines.count == 1 && run.errorLines[0].hasPrefix("frost: s3://\(bucket)/photos/: ")
                && run.errorLines[0].hasSuffix("(403 SignatureDoesNotMatch)"), "\(run.stderr)")

        // Deleted between the listing and the read; refused by its size; cut mid-download every time.
        let proxy = try S3FaultProxy(server, rules: ["--delete-on-get", "photos/hopper.jpg", "--drop", "photos/alpha.png:-1"])
        run = try Self.frost(["blur", "s3://\(bucket)/photos/", "-o", out.file("blurred") + "/", "--sigma", "1", "--max-file-size", "100000"],
                             server, via: proxy, extra: ["AWS_MAX_ATTEMPTS": "2"])
        #expect(run.status == 1)
        let alpha = try FileIO.read(Corpus.path("pngsuite/basn6a08.png")).count
        #expect(Set(run.errorLines) == [
            "frost: s3://\(bucket)/photos/hopper.jpg: no such object (404 NoSuchKey)",
            "frost: s3://\(bucket)/photos/rocket.jpg: file is 112525 bytes, more than the limit of 100000 bytes (see --max-file-size)",
            "frost: s3://\(bucket)/photos/alpha.png: gave up after 2 attempts: transfer closed with \(alpha - alpha / 2) bytes remaining to read",
        ], "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.file("blurred/sub/color.png")))
        #expect(!proxy.requests().contains { $0.path.hasSuffix("/rocket.jpg") }, "refused from the listing's size, never downloaded")

        // A single object past the limit is refused from its HEAD.
        let head = try S3FaultProxy(server)
        run = try Self.frost(["placeholder", "s3://\(bucket)/photos/rocket.jpg", "--max-file-size", "1000"], server, via: head)
        #expect(run.status == 1 && head.requests().map(\.method) == ["HEAD"], "\(run.stderr)")
    }

    /// A batch killed (SIGKILL) while it downloads its sources leaves no `frost-download-*` in its
    /// TMPDIR: a download has no name from the moment it is made (the proxy holds back each
    /// source's second half, so the kill lands while frost holds the downloads open).
    @Test func aKilledBatchLeavesNoDownloadBehind() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let proxy = try S3FaultProxy(server, rules: ["--stall", "/photos/:-1"])
        let temporary = try TemporaryFolder(), out = try TemporaryFolder()
        defer { temporary.remove(); out.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FrostRun.binary)
        process.arguments = ["cache", "--batch", "s3://\(bucket)/photos/", "-o", out.file("caches"), "--levels", "3", "--quiet"]
        process.environment = ProcessInfo.processInfo.environment.merging(server.environment(endpoint: proxy.endpoint)) { $1 }
            .merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // What the process has open in TMPDIR: its downloads (marked "(deleted)" once unlinked).
        func downloads() -> [String] {
            let fds = "/proc/\(process.processIdentifier)/fd"
            return ((try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []).compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0)
            }.filter { $0.hasPrefix(temporary.path + "/frost-download-") }
        }
        let deadline = Date().addingTimeInterval(60)
        while downloads().isEmpty && process.isRunning && Date() < deadline { usleep(5_000) }
        let held = downloads()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(!held.isEmpty, "the batch was not caught downloading")
        #expect(temporary.contents().filter { $0.hasPrefix("frost-download-") } == [], "held: \(held)")
    }

    /// A bucket cache is staged in TMPDIR; a run killed mid-build leaves its staging folder there.
    /// The next run removes those whose process is gone, that nothing changed for an hour and that
    /// no run holds locked (and an older release's unnamed ones of that age), and keeps the others.
    @Test func abandonedStagingFoldersAreSwept() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        var dead: pid_t = 4_000_000   // a PID no process has here
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        func plant(_ name: String, age seconds: Int?) throws {
            let path = temporary.file(name)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data([1]).write(to: URL(fileURLWithPath: path + "/level-01.png"))
            guard let seconds else { return }
            let then = timeval(tv_sec: time(nil) - seconds, tv_usec: 0)
            #expect(utimes(path, [then, then]) == 0)
        }
        try plant("frost-cache-\(dead).tmp-aaaaaa", age: 7200)         // killed two hours ago: swept
        try plant("frost-cache.tmp-bbbbbb", age: 7200)                  // an older release's: swept
        try plant("frost-cache-\(getpid()).tmp-cccccc", age: 7200)     // its process is alive: kept
        try plant("frost-cache-\(dead).tmp-dddddd", age: nil)          // written to a moment ago: kept
        try plant("frost-cache-\(dead).tmp-eeeeee", age: 7200)         // held locked by a run: kept
        let lock = open(temporary.file("frost-cache-\(dead).tmp-eeeeee"), O_RDONLY | O_DIRECTORY)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX) == 0)
        let run = try Self.frost(["cache", "s3://\(bucket)/photos/rocket.jpg", "-o", "s3://\(bucket)/one.frost", "--levels", "3"], server,
                                 extra: ["TMPDIR": temporary.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(temporary.contents().sorted()
                == ["frost-cache-\(dead).tmp-dddddd", "frost-cache-\(dead).tmp-eeeeee", "frost-cache-\(getpid()).tmp-cccccc"].sorted())
    }

    /// Keys are not paths: one with `..` or a leading `/` never writes outside a local output root.
    @Test func keysThatClimbNeverLeaveTheOutputRoot() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        for key in ["evil/../../escape.jpg", "evil//absolute.jpg", "evil/fine.jpg"] {
            try server.aws(["s3api", "put-object", "--bucket", bucket, "--key", key, "--body", Corpus.path("pillow/jpeg/hopper.jpg")])
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try Self.frost(["blur", "s3://\(bucket)/evil/", "-o", folder.file("out") + "/", "--sigma", "1"], server)
        #expect(run.status == 1)
        #expect(run.errorLines.count == 2 && run.errorLines.allSatisfy { $0.contains("would be written outside") }, "\(run.stderr)")
        #expect(folder.contents() == ["out"])
        #expect((try? FileManager.default.subpathsOfDirectory(atPath: folder.file("out"))) == ["fine.jpg"])
    }

    /// Keys that differ only by `./` or `//` are other objects, but would share one cache name:
    /// each such key fails as that input with one line, the plain key gets its cache, and a rerun
    /// with --prune skips it and prunes nothing (the `//` key's cache was looked for at the plain key).
    @Test func keysWithEmptyOrDotSegmentsHaveNoCacheOfTheirOwn() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        for (key, source) in [("c/evil/./dot.jpg", "pngsuite/basn2c08.png"), ("c/evil/dot.jpg", "photos/rocket.jpg"),
                              ("c/evil//double.jpg", "pngsuite/basn2c08.png")] {
            try server.aws(["s3api", "put-object", "--bucket", bucket, "--key", key, "--body", Corpus.path(source)])
        }
        let batch = ["cache", "--batch", "s3://\(bucket)/c/", "-o", "s3://\(bucket)/out/", "--levels", "1", "--prune"]
        let refused = Set(["./dot.jpg": "a . segment", "/double.jpg": "an empty segment (//)"].map {
            "frost: s3://\(bucket)/c/evil/\($0.key): its key has \($0.value), so it has no cache name of its own (keys are not paths)"
        })
        var run = try Self.frost(batch, server)
        #expect(run.status == 3 && Set(run.errorLines) == refused && run.stderr.contains("built 1, skipped 0, failed 2 of 3"), "\(run.stderr)")
        #expect(try server.keys(bucket, prefix: "out/") == ["out/evil/dot.jpg.frost/level-00.png", "out/evil/dot.jpg.frost/level-01.png",
                                                            "out/evil/dot.jpg.frost/manifest.json"])
        run = try Self.frost(batch, server)
        #expect(run.status == 3 && run.stderr.contains("built 0, skipped 1, failed 2 of 3") && run.stderr.contains("pruned 0 caches"), "\(run.stderr)")
    }

    /// A failure of the store or the machine is not the inputs' own, which a rerun would meet
    /// again: credentials that may read but not write (every level's PUT refused), a TMPDIR that is
    /// not there, a store that answers 503 past its retries: every input fails, and the run exits
    /// 1 (the Job retries it), not 3. The line names the object refused, not only the source.
    @Test func failuresOfTheStoreOrTheMachineExitOne() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let batch = ["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--levels", "1", "--jobs", "2"]
        let reader = try server.user(allowed: ["s3:GetObject", "s3:ListBucket"])
        var run = try FrostRun.run(batch, environment: server.environment(accessKeyID: reader.accessKeyID, secret: reader.secret))
        #expect(run.status == 1 && run.errorLines.count == Self.catalog.count && run.stderr.contains("failed 4 of 4"), "\(run.stderr)")
        for line in run.errorLines {
            let source = line.dropFirst("frost: s3://\(bucket)/photos/".count).prefix { $0 != ":" }
            #expect(line.hasPrefix("frost: s3://\(bucket)/photos/\(source): s3://\(bucket)/caches/\(source).frost/level-0")
                    && line.hasSuffix(": access denied (403 AccessDenied)"), "\(line)")
        }
        run = try Self.frost(batch, server, extra: ["TMPDIR": "/nonexistent/frost-tmp"])
        #expect(run.status == 1 && run.errorLines.count == Self.catalog.count, "\(run.stderr)")
        let outage = try S3FaultProxy(server, rules: ["--slowdown", "/caches/:-1"])
        run = try Self.frost(batch, server, via: outage, extra: ["AWS_MAX_ATTEMPTS": "2"])
        #expect(run.status == 1 && run.errorLines.count == Self.catalog.count && run.stderr.contains("4 failed by the store or the machine"),
                "\(run.stderr)")
        #expect(try server.keys(bucket, prefix: "caches/").isEmpty)
    }

    /// `--prune` that cannot look up a source (503 past its retries) keeps its cache, says so in
    /// one line naming the path and the reason and in a report record, and exits 1 (a store's failure).
    @Test func aSourceThatCannotBeLookedUpIsReportedAndKept() throws {
        let server = try S3TestServer.shared()
        let bucket = try Self.bucket(server)
        let local = try TemporaryFolder()
        defer { local.remove() }
        let batch = ["cache", "--batch", "s3://\(bucket)/photos/", "-o", "s3://\(bucket)/caches/", "--levels", "1", "--prune"]
        #expect(try Self.frost(batch, server).status == 0)
        try server.aws(["s3", "rm", "s3://\(bucket)/photos/rocket.jpg", "--quiet"])
        let proxy = try S3FaultProxy(server, rules: ["--slowdown", "/photos/rocket.jpg:-1"])
        let run = try Self.frost(batch + ["--report", local.file("r.jsonl")], server, via: proxy, extra: ["AWS_MAX_ATTEMPTS": "2"])
        #expect(run.status == 1 && run.errorLines.count == 1 && run.errorLines[0].hasPrefix("frost: s3://\(bucket)/photos/rocket.jpg: ")
                && run.errorLines[0].contains("(503") && run.stderr.contains("pruned 0 caches"), "\(run.stderr)")
        let records = try String(contentsOfFile: local.file("r.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(records.contains { $0["status"] as? String == "failed" && $0["source"] as? String == "s3://\(bucket)/photos/rocket.jpg"
            && $0["output"] as? String == "s3://\(bucket)/caches/rocket.jpg.frost" && ($0["error"] as? String ?? "").contains("(503") },
            "\(records)")
        #expect(try server.keys(bucket, prefix: "caches/rocket.jpg.frost/").contains("caches/rocket.jpg.frost/manifest.json"))
    }
}
