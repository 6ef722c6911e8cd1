import Foundation
import FrostService
import Testing

/// `frost serve` on the open internet (issue 66, "Must not happen"): no URL ends the process,
/// deadlines hold whatever the workers do, downloads and connections are bounded, a FIFO is no
/// source, and SIGTERM lets every response end with its last byte. Part of ServeTests, so that
/// they run one at a time with its tests (their timings are not shared with another server's load).
extension ServeTests {
    /// Server/Tests/Helpers/clients.py, run with python3: its output's lines.
    static func clients(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", ServeTests.repository + "/Server/Tests/Helpers/clients.py"] + arguments
        process.standardOutput = Pipe()
        try process.run()
        return process
    }

    /// Runs ffmpeg (`make deps` installs it) with `arguments`, quietly, overwriting.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-loglevel", "error", "-y"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ServerError("ffmpeg \(arguments) failed") }
    }

    static func lines(_ process: Process) -> [String] {
        process.waitUntilExit()
        let data = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A port outside 1–65535 trapped in NIO and ended the process (SIGILL); every odd remote URL
    /// is now a 400 before any library sees it.
    @Test func noRemoteURLEndsTheProcess() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeTests.start(folder, ["--allow-source", "127.0.0.1", "--allow-source", "localhost", "--allow-source", "::1"])
        defer { _ = server.stop() }
        for source in ["http://127.0.0.1:99999/a.jpg", "http://127.0.0.1:65536/a.jpg", "http://127.0.0.1:4294967297/a.jpg",
                       "http://localhost:99999/a.jpg", "http://127.0.0.1:0/a.jpg", "http://u:p@127.0.0.1:8080/a.jpg",
                       "http://%5B::1%5D:99999/a.jpg", "http://%5B::1/a.jpg", "http://%5Bfe80::1%2525lo%5D/a.jpg", "http://127.1/a.jpg",
                       "https://0x7f000001/a.jpg", "http://127.0.0.1:-1/a.jpg"] {
            let answer = try await HTTP.get(server.base + ServeTests.signed("/w:50/plain/" + source + "@png"))
            #expect(answer.status == 400, "\(source): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            let encoded = try await HTTP.get(server.base + ServeTests.signed("/w:50/" + Base64URL.encode(Array(source.utf8)) + ".png"))
            #expect(encoded.status == 400, "\(source) in base64: \(encoded.status)")
        }
        #expect(try await HTTP.get(server.base + "/health").status == 200)
        #expect(server.process.isRunning)
    }

    /// With the only worker busy past the deadline, every request is answered on time: the busy
    /// one 503s at its deadline (13 to 46 s late before), the queued one by its own, and the worker is free
    /// again at once for the next request: the work stopped (the decoders, encoders and kernels
    /// check the request's stop flag between rows and bands).
    @Test func deadlinesHoldWhateverTheWorkersDo() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 49 MP: seconds to decode and write as WebP.
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=7000x7000", "-frames:v", "1", "-q:v", "3", folder + "/served/photos/huge.jpg"])
        let server = try ServeTests.start(folder, ["--workers", "1", "--timeout", "1.5"])
        defer { _ = server.stop() }
        let start = ContinuousClock.now
        async let busy = HTTP.get(server.base + ServeTests.signed("/q:90/plain/local:///photos/huge.jpg@webp"))
        try await Task.sleep(for: .milliseconds(200))
        async let queued = HTTP.get(server.base + ServeTests.signed("/rs:fit:40:0/cb:1/plain/local:///photos/rocket.jpg"))
        let (first, second) = try await (busy, queued)
        let elapsed = ContinuousClock.now - start
        // The queued one gets the worker in time (200) when the busy one stops fast enough, else 503.
        #expect(first.status == 503 && [200, 503].contains(second.status), "\(first.status) \(second.status)")
        #expect(elapsed < .seconds(4), "answered after \(elapsed), the deadline being 1.5 s")
        // A small request has its whole 1.5 s to get the worker and finish.
        let next = try await HTTP.get(server.base + ServeTests.signed("/rs:fit:40:0/cb:2/plain/local:///photos/rocket.jpg"))
        #expect(next.status == 200)
    }

    /// A download has one deadline, head and body: an origin that drips its body a byte every half
    /// second is cut at `--download-timeout` (504), not after minutes.
    @Test func downloadsHaveOneDeadline() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let origin = try Self.clients(["drip-origin"])
        defer {
            kill(origin.processIdentifier, SIGKILL)
            origin.waitUntilExit()
        }
        let port = try #require(Int(String(decoding: (origin.standardOutput as! Pipe).fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let server = try ServeTests.start(folder, ["--allow-source", "127.0.0.1", "--download-timeout", "1"])
        defer { _ = server.stop() }
        let start = ContinuousClock.now
        let answer = try await HTTP.get(server.base + ServeTests.signed("/w:50/plain/http://127.0.0.1:\(port)/slow.jpg"))
        #expect(answer.status == 504, "\(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// An idle socket, a half-sent head and an idle keep-alive are closed at their timeouts, and
    /// past `--max-clients` connections new ones wait to be accepted.
    @Test func connectionsAreBounded() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeTests.start(folder, ["--read-request-timeout", "1", "--keep-alive-timeout", "1.5"])
        let port = "\(server.port)"
        let idle = try Self.clients(["idle", port]), half = try Self.clients(["half", port])
        let kept = try Self.clients(["keepalive", port, "/health"])
        for (process, low, high) in [(idle, 0.8, 3.0), (half, 0.8, 3.0)] {
            let seconds = try #require(Double(Self.lines(process).last ?? ""))
            #expect(seconds >= low && seconds < high, "closed after \(seconds) s")
        }
        let keptAlive = Self.lines(kept).first?.split(separator: " ") ?? []
        #expect(keptAlive.first == "200" && (Double(keptAlive.last ?? "") ?? 0) >= 1.3 && (Double(keptAlive.last ?? "") ?? 99) < 4, "\(keptAlive)")
        #expect(server.stop() == 0)

        let capped = try ServeTests.start(folder, ["--max-clients", "2", "--read-request-timeout", "3"])
        defer { _ = capped.stop() }
        let holders = try (0..<2).map { _ in try Self.clients(["idle", "\(capped.port)"]) }
        for holder in holders {
            let pipe = holder.standardOutput as! Pipe
            #expect(String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("connected"))
        }
        try await Task.sleep(for: .milliseconds(200))
        // Answered only once a holder's connection is closed at its read timeout (3 s).
        let start = ContinuousClock.now
        #expect(try await HTTP.get(capped.base + "/health").status == 200)
        #expect(ContinuousClock.now - start > .milliseconds(1500), "a third connection was served while two were open")
        holders.forEach { _ = Self.lines($0) }
    }

    /// A FIFO (or a socket, or a device) under the root is a 404 at once: reading a FIFO waited for
    /// a writer and held the worker, and every later request was a 503.
    @Test func onlyRegularFilesAreSources() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/served/photos/fifo.jpg", 0o644) == 0)
        let server = try ServeTests.start(folder, ["--workers", "1", "--timeout", "5"])
        defer { _ = server.stop() }
        for name in ["fifo.jpg", "fifo.jpg", "fifo.jpg"] {
            #expect(try await HTTP.get(server.base + ServeTests.signed("/w:50/plain/local:///photos/" + name)).status == 404)
        }
        #expect(try await HTTP.get(server.base + "/info" + ServeTests.signed("/plain/local:///photos/fifo.jpg")).status == 404)
        #expect(try await HTTP.get(server.base + ServeTests.signed("/w:50/plain/local:///photos/rocket.jpg")).status == 200)
    }

    /// A blur cache of a 49-Mpixel source and a `fade:` frame of it (1.8 GB before) stay well
    /// inside the pod's 2 GiB (deploy/frost-serve.yaml): at the defaults the cache is made at
    /// --cache-max-side, and the server's peak resident memory stays under 512 MiB.
    @Test func blurCachesOfALargeSourceStayUnder512MiB() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=7000x7000", "-frames:v", "1", folder + "/served/photos/49mp.png"])
        let server = try ServeTests.start(folder, ["--cache", folder + "/cache", "--timeout", "120"])
        defer { _ = server.stop() }
        for path in ["/cache" + ServeTests.signed("/plain/local:///photos/49mp.png"),
                     ServeTests.signed("/fade:0.5/rs:fit:1024:1024/plain/local:///photos/49mp.png@jpg")] {
            let answer = try await HTTP.get(server.base + path)
            #expect(answer.status == 200, "\(path): \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
        }
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let peak = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first.flatMap { Int($0) })
        #expect(peak * 1024 < 512 << 20, "peak resident memory \(peak / 1024) MiB")
    }

    /// SIGTERM with five large responses streaming to slow readers: each ends with its last byte,
    /// and the process exits 0 (before, what the socket had not taken yet was dropped while the log
    /// said 200).
    @Test func sigtermDrainsWholeResponses() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Noise as a JPEG at quality 100: 7 MB a response, more than the socket's send buffer takes
        // (4 MB at most here): the rest waits in the server's queue while the reader is slow.
        try Self.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=2400x1800,geq=lum='random(1)*255':cb=128:cr=128", "-frames:v", "1", "-q:v", "2",
                         folder + "/served/photos/noise.jpg"])
        let server = try ServeTests.start(folder, ["--workers", "2"])
        let readers = try (0..<5).map { i in
            try Self.clients(["slowread", "\(server.port)", ServeTests.signed("/q:100/cb:\(i)/plain/local:///photos/noise.jpg@jpg"), "4000000"])
        }
        // Every head is in: the responses are streaming.
        for reader in readers {
            let pipe = reader.standardOutput as! Pipe
            #expect(String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("head"))
        }
        let status = server.stop()
        for reader in readers {
            let last = Self.lines(reader).last?.split(separator: " ").compactMap { Int($0) } ?? []
            #expect(last.count == 3 && last[0] == 200 && last[1] == last[2] && last[2] > 5_000_000, "\(last)")
        }
        #expect(status == 0, "\(server.log())")
    }
}
