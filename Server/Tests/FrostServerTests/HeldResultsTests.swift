import Foundation
@testable import FrostServer
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// Results held in memory, answered before the HTTP decoder (`HeldResults`, issue 70): the route's
/// bytes and fields, in order behind a pipelined request the route answers, after a head that came
/// in two writes, the keep-alive timeout kept, and never once the source path leads to another file.
extension ServeTests {
    @Test func heldResultsAreTheRoutesAnswers() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photos = folder + "/served/photos"
        try FileManager.default.createSymbolicLink(atPath: photos + "/linked.jpg", withDestinationPath: photos + "/rocket.jpg")
        let server = try ServeTests.start(folder, ["--cache", folder + "/cache", "--keep-alive-timeout", "1.5"])
        defer { _ = server.stop() }
        let url = ServeTests.signed("/rs:fit:200:0/plain/local:///photos/rocket.jpg@webp")
        let made = try await HTTP.get(server.base + url)   // by a worker, then kept
        let held = try await HTTP.get(server.base + url)   // from memory
        #expect(made.status == 200 && held.status == 200 && held.body == made.body)
        for name in ["Content-Type", "ETag", "Cache-Control", "Content-Disposition", "Content-Length", "Server", "Date"] {
            #expect(held.header(name) != nil && (name == "Date" || held.header(name) == made.header(name)), "\(name)")
        }
        let head = try await HTTP.get(server.base + url, method: .HEAD)
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "\(made.body.count)")
        let etag = try #require(made.header("ETag"))
        let notModified = try await HTTP.get(server.base + url, headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304 && notModified.header("ETag") == etag && notModified.header("Content-Length") == nil)
        let metrics = String(decoding: try await HTTP.get(server.base + "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("requests_total 4") && metrics.contains("not_modified_total 1"), "\(metrics)")

        // A result a worker makes, then held ones, pipelined on one connection: answered in turn.
        let port = "\(server.port)"
        let made120 = ServeTests.signed("/rs:fit:120:0/plain/local:///photos/rocket.jpg@png")
        let pipelined = Self.lines(try Self.clients(["pipeline", port, made120, url, made120, url]))
        #expect(pipelined.count == 4 && pipelined[0].hasPrefix("200 image/png ") && pipelined[2] == pipelined[0]
                && pipelined[1] == "200 image/webp \(made.body.count)" && pipelined[3] == pipelined[1], "\(pipelined)")
        #expect(Self.lines(try Self.clients(["split", port, url])) == ["200 \(made.body.count)"])
        let kept = Self.lines(try Self.clients(["keepalive", port, url])).first?.split(separator: " ") ?? []
        #expect(kept.first == "200" && (Double(kept.last ?? "") ?? 0) >= 1.3 && (Double(kept.last ?? "") ?? 99) < 4, "\(kept)")

        // The source's path led elsewhere: through a link retargeted, and to a file replaced.
        let viaLink = ServeTests.signed("/rs:fit:200:0/plain/local:///photos/linked.jpg@webp")
        #expect(try await HTTP.get(server.base + viaLink).body == made.body)
        #expect(try await HTTP.get(server.base + viaLink).body == made.body)
        try FileManager.default.copyItem(atPath: ServeTests.repository + "/SampleImages/UNIS_EV0.jpg", toPath: photos + "/other.jpg")
        try FileManager.default.removeItem(atPath: photos + "/linked.jpg")
        try FileManager.default.createSymbolicLink(atPath: photos + "/linked.jpg", withDestinationPath: photos + "/other.jpg")
        let retargeted = try await HTTP.get(server.base + viaLink)
        #expect(retargeted.status == 200 && retargeted.body != made.body)
        try FileManager.default.removeItem(atPath: photos + "/rocket.jpg")
        try FileManager.default.copyItem(atPath: photos + "/other.jpg", toPath: photos + "/rocket.jpg")
        let replaced = try await HTTP.get(server.base + url)
        #expect(replaced.status == 200 && replaced.body == retargeted.body)
    }
}

extension ServeTests {
    /// A client that pipelines requests for a held result and reads nothing is answered only as
    /// far as the socket's buffer: 300 answers of 0.35 MB queued in the server had grown it by
    /// 99 MB; now the connection is not read until the answers before go out.
    @Test func aClientThatDoesNotReadIsNotAnsweredPastTheSocket() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeTests.start(folder, ["--cache", folder + "/cache"])
        defer { _ = server.stop() }
        let url = ServeTests.signed("/rs:fit:640:0/plain/local:///photos/rocket.jpg@png")
        let made = try await HTTP.get(server.base + url)
        #expect(made.status == 200 && made.body.count > 250_000)
        #expect(try await HTTP.get(server.base + url).body == made.body)
        let flood = Self.lines(try Self.clients(["flood", "\(server.port)", "\(server.process.processIdentifier)", url, "300"]))
        let fields = flood.first?.split(separator: " ") ?? []
        #expect(fields.first == "300" && (Double(fields.last ?? "") ?? 999) < 30, "\(flood)")
    }
}

extension ServeTests {
    /// Requests whose bytes come cut anywhere (a head in pieces, several heads in one write),
    /// mixing held results, results the route makes and then holds, and the route's own answers:
    /// every answer is its request's, in order.
    @Test func requestsCutAnywhereAreAnsweredInTurn() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeTests.start(folder, ["--cache", folder + "/cache"])
        defer { _ = server.stop() }
        let held = ServeTests.signed("/rs:fit:100:0/plain/local:///photos/rocket.jpg@webp")
        let later = ServeTests.signed("/rs:fit:90:0/plain/local:///photos/rocket.jpg@png")
        let missing = ServeTests.signed("/rs:fit:90:0/plain/local:///photos/none.jpg@png")
        _ = try await HTTP.get(server.base + held)
        let lines = Self.lines(try Self.clients(["scatter", "\(server.port)", "7", "60", held, later, "/health", missing]))
        #expect(lines.count == 60)
        var expected: [String: String] = [:]
        for path in [held, later, "/health", missing] {
            let answer = try await HTTP.get(server.base + path)
            expected[path] = "\(answer.status) \((answer.header("Content-Type") ?? "-").replacingOccurrences(of: " ", with: "")) \(answer.body.count)"
        }
        for line in lines {
            let path = String(line.prefix { $0 != " " })
            #expect(expected[path].map { path + " " + $0 } == line, "\(line)")
        }
    }
}

extension ServeTests {
    /// After a request the decoder may not answer in turn (a method it refuses, here), nothing is
    /// answered ahead of it: the held result asked next had gone out first, then the 400.
    @Test func nothingIsAnsweredAheadOfARequestTheDecoderRefuses() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeTests.start(folder, ["--cache", folder + "/cache"])
        defer { _ = server.stop() }
        let url = ServeTests.signed("/rs:fit:100:0/plain/local:///photos/rocket.jpg@webp")
        _ = try await HTTP.get(server.base + url)
        #expect(try await HTTP.get(server.base + url).status == 200)
        let text = "get \(url) HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET \(url) HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
        let answers = Self.lines(try Self.clients(["raw", "\(server.port)", text]))
        #expect(answers.first?.hasPrefix("400 ") == true && !answers.contains { $0.hasPrefix("200 ") }, "\(answers)")
    }
}

/// What `HeldResults` reads itself, and what it leaves to NIO's decoder.
struct RequestHeadTests {
    static func read(_ text: String) -> RequestHead.Reading {
        let buffer = ByteBuffer(string: text)
        return RequestHead.read(buffer.readableBytesView)
    }

    @Test func aPlainGetIsRead() throws {
        let text = "GET /a/b?c HTTP/1.1\r\nHost: x\r\naccept:  image/webp \r\nIF-NONE-MATCH: \"e\"\r\n\r\nGET /next"
        guard case .head(let head) = Self.read(text) else { Issue.record("not read"); return }
        #expect(head.method == "GET" && head.target == "/a/b?c" && head.accept == "image/webp" && head.ifNoneMatch == "\"e\"")
        #expect(head.plain && head.length == text.utf8.count - "GET /next".utf8.count)
    }

    @Test func whatLeavesADoubtIsRefused() {
        for text in ["GET / HTTP/1.1\nHost: x\n\n", "GET / HTTP/1.0\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
                     "GET / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n", "GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n",
                     "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nA\u{1}: b\r\n\r\n", "GET /é HTTP/1.1\r\n\r\n",
                     "GET / HTTP/1.1\rX\r\n\r\n", "GET / HTTP/1.1\r\n: b\r\n\r\n", "\r\n", "GET http://h/x HTTP/1.1\r\n\r\n",
                     "GET * HTTP/1.1\r\n\r\n", "GET /a\"b HTTP/1.1\r\n\r\n", "GET /a{b} HTTP/1.1\r\n\r\n", "GET /a|b HTTP/1.1\r\n\r\n"] {
            guard case .refused = Self.read(text) else { Issue.record("read: \(text.debugDescription)"); continue }
        }
        guard case .refused = Self.read("GET /" + String(repeating: "a", count: RequestHead.limit)) else { Issue.record("a head past the limit"); return }
    }

    @Test func aHalfHeadWaitsAndAskingOfTheConnectionIsNotPlain() {
        for text in ["GET / HTTP/1.1\r\nHost: x\r\n", "GET / HTTP/1.1\r", "G"] {
            guard case .incomplete = Self.read(text) else { Issue.record("not waited for: \(text.debugDescription)"); continue }
        }
        guard case .head(let kept) = Self.read("GET / HTTP/1.1\r\nConnection:  Keep-Alive \r\n\r\n"), kept.plain else {
            Issue.record("keep-alive is not plain")
            return
        }
        for text in ["GET / HTTP/1.1\r\nConnection: close\r\n\r\n", "GET / HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\n\r\n",
                     "GET / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
                     "GET / HTTP/1.1\r\nAccept: a\r\nAccept: b\r\n\r\n"] {
            guard case .head(let head) = Self.read(text), !head.plain else { Issue.record("plain: \(text.debugDescription)"); continue }
        }
    }
}

extension RequestHeadTests {
    /// Wherever `RequestHead` reads a head, NIO's decoder (which answers everything else) reads the
    /// same request there: its method and target, no body, and the next request right after it.
    /// Heads made from a seeded generator of near-misses: odd methods, versions, line ends, field
    /// names and values, folded lines, bodies, bytes past ASCII.
    @Test func whereAHeadIsReadNIOReadsTheSameRequest() throws {
        var random = SeededRandom(seed: 70)
        let pieces = ["GET", "HEAD", "POST", "G\tT", "get", " ", "  ", "\t", "/", "/a?b=c", "/%2e%2e/x", "*", "http://h/x", "HTTP/1.1", "HTTP/1.0",
                      "HTTP/1.10", "http/1.1", "\r\n", "\n", "\r", "Host: x", "Host:x", "Host :x", " Host: x", "Accept: image/webp",
                      "If-None-Match: \"e\"", "Content-Length: 5", "Content-Length: 0", "Transfer-Encoding: chunked", "Connection: close", "connection: Keep-Alive",
                      "X: a\u{7f}", "X: é", "X:", ":", "X: a\tb", "X-Y_Z: 1", "Expect: 100-continue", "\u{0}", "hello",
                      "/a{b}", "/\"q\"", "/a|b", "/a\\b", "/a^b", "/a`b", "/<x>", "/a;b=c,d@e:f!$&'()*+", "Upgrade: websocket", "CONNECT"]
        var read = 0
        for _ in 0..<4000 {
            var text = random.next(100) < 60 ? "GET /p\(random.next(9)) HTTP/1.1\r\n" : ""
            for _ in 0..<random.next(7) { text += pieces[random.next(pieces.count)] + (random.next(100) < 70 ? "\r\n" : "") }
            if random.next(100) < 80 { text += "\r\n" }
            guard case .head(let head) = Self.read(text) else { continue }
            read += 1
            // The head as read, then another request (unless it asks to close): NIO must end the
            // first where it was read.
            text = String(decoding: Array(text.utf8)[..<head.length], as: UTF8.self)
            let bytes = Array((text + (head.plain ? "GET /next HTTP/1.1\r\nHost: x\r\n\r\n" : "")).utf8)
            let channel = EmbeddedChannel(handler: ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
            defer { _ = try? channel.finish() }
            do {
                try channel.writeInbound(ByteBuffer(bytes: bytes))
            } catch {
                Issue.record("NIO refuses what was read: \(text.debugDescription): \(error)")
                continue
            }
            var parts: [HTTPServerRequestPart] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
            guard parts.count == (head.plain ? 4 : 2), case .head(let first) = parts[0], case .end = parts[1] else {
                Issue.record("NIO reads otherwise: \(text.debugDescription): \(parts)")
                continue
            }
            if head.plain, case .head(let second) = parts[2], case .end = parts[3] { #expect(second.uri == "/next") } else if head.plain {
                Issue.record("NIO reads no next request: \(text.debugDescription): \(parts)")
            }
            #expect(first.method.rawValue == head.method && first.uri == head.target, "\(text.debugDescription)")
            #expect(first.headers["Accept"].first == head.accept && first.headers["If-None-Match"].first == head.ifNoneMatch, "\(text.debugDescription)")
        }
        #expect(read > 200, "only \(read) heads read")
    }
}

/// splitmix64: the same near-misses on every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
