import Foundation
import CFrostCurl
@_spi(Kernels) import FrostCore

/// One HTTP exchange's outcome: the status, the response headers (names lowercased) and the body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
}

/// Why an exchange gave no response: the connection failed, dropped or timed out (`transport`,
/// which a retry may cure), it failed in a way no retry cures (`permanent`: the endpoint's TLS
/// certificate is not trusted or names another host, the URL is malformed), the body passed its
/// limit, the receiver of a streamed body stopped it (it could not write: the receiver knows why),
/// or the thread's stop flag was raised (`stopped`: nobody wants the answer any more).
enum HTTPFailure: Error {
    case transport(String)
    case permanent(String)
    case bodyTooLarge(Int?)
    case receiverStopped
    case stopped
}

/// libcurl connections kept for reuse (each keeps its connection and TLS session to the host open
/// between requests), one per thread that asks at once.
final class HTTPConnections: Sendable {
    private let idle = Locked<[OpaquePointer]>([])

    deinit {
        idle.withLock { $0.forEach(frost_http_connection_free) }
    }

    /// Sends one request and gathers the response, the body refused past `maxBody` bytes (from
    /// its Content-Length when it has one, before any of it arrives). With `receive`, a successful
    /// (2xx) response's body is handed to it piece by piece as it arrives instead of gathered (a
    /// download into a file: never whole in memory); `receive` returns false to stop. A raised
    /// stop flag on this thread ends it within a second, whatever it waits for. `timeouts` in
    /// seconds, 0 for none: `request` bounds the whole exchange, `connect` opening the connection,
    /// `read` the time nothing moves either way once connected (a transfer that keeps moving is
    /// never cut by it).
    func perform(method: String, url: String, headers: [(name: String, value: String)], body: UnsafeRawBufferPointer?,
                 timeouts: (request: Double, connect: Double, read: Double), caFile: String?, maxBody: Int,
                 receive: ((UnsafeRawBufferPointer) -> Bool)? = nil) throws(HTTPFailure) -> HTTPResponse {
        guard let connection = idle.withLock({ $0.popLast() }) ?? frost_http_connection_new() else {
            throw .transport("cannot start libcurl")
        }
        final class Gathered {
            var headers: [String: String] = [:]
            var status = 0
            var body: [UInt8] = []
            var received = 0
            var tooLarge: Int?? = nil
            var receiverStopped = false
            let maxBody: Int
            let receive: ((UnsafeRawBufferPointer) -> Bool)?
            init(maxBody: Int, receive: ((UnsafeRawBufferPointer) -> Bool)?) { (self.maxBody, self.receive) = (maxBody, receive) }
        }
        let gathered = Gathered(maxBody: maxBody, receive: receive)
        let lines = headers.map { "\($0.name): \($0.value)" }
        var result = frost_http_result()
        withCStrings(lines) { pointers in
            pointers.withUnsafeBufferPointer { list in
                let context = Unmanaged.passUnretained(gathered).toOpaque()
                var request = frost_http_request()
                method.withCString { m in
                    url.withCString { u in
                        withOptionalCString(caFile) { ca in
                            request.method = m
                            request.url = u
                            request.headers = list.baseAddress
                            request.header_count = list.count
                            request.body = body.map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) } ?? nil
                            request.body_length = body?.count ?? 0
                            request.timeout_ms = Int(timeouts.request * 1000)
                            request.connect_timeout_ms = Int(timeouts.connect * 1000)
                            request.read_timeout_ms = Int(timeouts.read * 1000)
                            request.ca_file = ca
                            request.context = context
                            request.on_header = { context, line, length in
                                let gathered = Unmanaged<Gathered>.fromOpaque(context!).takeUnretainedValue()
                                let text = String(decoding: UnsafeRawBufferPointer(start: line, count: length), as: UTF8.self)
                                if text.hasPrefix("HTTP/") {   // a new response (after a redirect or 100)
                                    gathered.headers = [:]
                                    gathered.status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
                                    return 0
                                }
                                guard let colon = text.firstIndex(of: ":") else { return 0 }
                                let name = text[..<colon].lowercased()
                                let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                                gathered.headers[name] = value
                                if name == "content-length", let size = Int(value) {
                                    if size > gathered.maxBody { gathered.tooLarge = .some(size); return 1 }
                                    if gathered.receive == nil { gathered.body.reserveCapacity(size) }
                                }
                                return 0
                            }
                            request.on_body = { context, bytes, length in
                                let gathered = Unmanaged<Gathered>.fromOpaque(context!).takeUnretainedValue()
                                if gathered.received + length > gathered.maxBody { gathered.tooLarge = .some(nil); return 1 }
                                gathered.received += length
                                if let receive = gathered.receive, (200..<300).contains(gathered.status) {
                                    guard receive(UnsafeRawBufferPointer(start: bytes, count: length)) else { gathered.receiverStopped = true; return 1 }
                                    return 0
                                }
                                gathered.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
                                return 0
                            }
                            // The stop flag of the thread the transfer runs on (`StopFlag.during`).
                            request.on_progress = { _ in StopFlag.current ? 1 : 0 }
                            result = frost_http_perform(connection, &request)
                        }
                    }
                }
            }
        }
        idle.withLock { $0.append(connection) }
        if let size = gathered.tooLarge { throw .bodyTooLarge(size) }
        if result.stopped != 0 { throw .stopped }
        if result.stalled != 0 {
            throw .transport("read timeout: nothing received or sent for \(String(format: "%g", timeouts.read)) s (FROST_S3_READ_TIMEOUT)")
        }
        if gathered.receiverStopped { throw .receiverStopped }
        guard result.curl_code == 0 else {
            let text = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw frost_http_is_transport_failure(result.curl_code) != 0 ? .transport(text) : .permanent(text)
        }
        return HTTPResponse(status: result.status, headers: gathered.headers, body: gathered.body)
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString(body)
}

/// The strings as C strings, alive while `body` runs.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    return body(copies.map { UnsafePointer($0) })
}
