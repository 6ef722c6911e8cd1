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

}
