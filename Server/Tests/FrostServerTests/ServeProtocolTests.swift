import AsyncHTTPClient
import Foundation
import Testing

/// What `frost serve` says besides images: HEAD's length, the log, the address it prints.
@Suite(.serialized) struct ServeProtocolTests {
    /// HEAD answers GET's headers (RFC 9110 §9.3.2), Content-Length included, on /metrics too.
    @Test func headOfMetricsHasTheLengthOfItsGet() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeTests.start(folder)
        defer { _ = server.stop() }
        let head = try await HTTP.get(server.base + "/metrics", method: .HEAD)
        let get = try await HTTP.get(server.base + "/metrics")
        let length = try #require(head.header("Content-Length").flatMap(Int.init))
        #expect(head.status == 200 && head.body.isEmpty && get.body.count > 100)
        // The figures move between the two requests (durations, counts): the same text within a few bytes.
        #expect(abs(length - get.body.count) < 64, "HEAD \(length), GET \(get.body.count)")
    }

    /// A URL's control characters (percent-encoded, decoded into a message) are escaped in the
    /// log: no forged line, no raw ESC.
    @Test func clientTextIsEscapedInTheLog() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServerProcess(["--root", folder + "/served", "--allow-unsigned", "--workers", "1"], environment: ["LOG_LEVEL": "debug"])
        let forged = "/_/plain/local:///a%0a2026-12-05T00:00:00+0000%20info%20frost-serve:%20FORGED%1b%5b31m%e2%80%ae.jpg"
        #expect(try await HTTP.get(server.base + forged).status == 404)
        #expect(server.stop() == 0)
        let log = server.log()
        let lines = log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("2026-12-05T00:00:00") }, "a forged line: \(log)")
        #expect(lines.contains { $0.contains("a\\x0A2026-12-05T00:00:00+0000 info frost-serve: FORGED\\x1B[31m\\u{202E}.jpg") }, "\(log)")
        #expect(!log.utf8.contains(0x1B) && !log.contains("\u{202E}"))
    }

    /// `--bind [::1]:0` prints a URL a client can use: the IPv6 address in brackets.
    @Test func anIPv6BindPrintsAURL() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        process.arguments = ["--root", folder + "/served", "--allow-unsigned", "--bind", "[::1]:0"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "frost serve: listening on "
        #expect(text.hasPrefix(prefix + "http://[::1]:"), "\(text)")
        let url = try #require(URL(string: String(text.dropFirst(prefix.count))), "\(text)")
        #expect(url.host == "::1" || url.host == "[::1]")
        #expect(try await HTTP.get(url.absoluteString + "/health").status == 200)
    }
}
