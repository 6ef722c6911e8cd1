import AsyncHTTPClient
import FrostService
import NIOCore
import NIOHTTP1

/// `http(s)://` sources, downloaded by AsyncHTTPClient: redirects not followed (a redirect could
/// leave the allowed hosts), one deadline for the whole download, head and body (504 past it: an
/// origin that drips its body a byte at a time holds a request no longer than that), and at most
/// `maxBytes` read (a longer body is refused as it arrives, whatever its Content-Length says). Each download has its own client, its host name
/// mapped to the address `RemoteSources.check` checked (AsyncHTTPClient's `dnsOverride`, which keeps
/// the name for TLS's SNI and certificate): the name is not resolved again, so a DNS answer that
/// changes after the check cannot lead inside the network. (Connections are not pooled across
/// downloads: a remote source is fetched once per result, not per request, with `--cache`.)
struct RemoteFetch: Sendable {
    let maxBytes: Int
    let timeout: Duration

    init(maxBytes: Int, timeout: Duration) {
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    func bytes(_ url: String, host: String, address: String) async throws -> [UInt8] {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.dnsOverride = [host: address]
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let deadline = ContinuousClock.now + timeout
        do {
            let out = try await Deadline.run(until: deadline, timedOut: ServiceError(504, "the source's download took longer than \(timeout)")) {
                try await download(url, client, deadline: .now() + .nanoseconds(Deadline.nanoseconds(until: deadline)))
            }
            try? await client.shutdown()
            return out
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private func download(_ url: String, _ client: HTTPClient, deadline: NIODeadline) async throws -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "frost-serve")
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, deadline: deadline)
        } catch {
            throw ServiceError(502, "cannot download the source: \(error)")
        }
        guard response.status == .ok else {
            throw ServiceError(response.status == .notFound ? 404 : 502, "the source's server answered \(response.status.code)")
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBytes {
            throw ServiceError(413, "the source is larger than \(maxBytes) bytes")
        }
        var out: [UInt8] = []
        do {
            for try await var chunk in response.body {
                guard out.count + chunk.readableBytes <= maxBytes else { throw ServiceError(413, "the source is larger than \(maxBytes) bytes") }
                out += chunk.readBytes(length: chunk.readableBytes) ?? []
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(502, "the source's download broke: \(error)")
        }
        return out
    }
}
