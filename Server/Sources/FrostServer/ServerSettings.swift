import FrostCore
import FrostService

/// How `frost serve` runs (flags, or the same settings from FROST_* variables: docs/serve.md).
public struct ServerSettings: Sendable {
    public var host = "127.0.0.1"
    /// 0: any free port (the one taken is printed).
    public var port = 8080
    public var service = ImageService.Settings()
    /// Images processed at once (default: the cores).
    public var workers = ComputeBudget.cores
    /// Requests waiting for a worker before 429s.
    public var queue = 64
    /// The longest a request may take, queue included, before a 503.
    public var timeout: Duration = .seconds(10)
    /// The longest a source's download may take, head and body (504 past it).
    public var downloadTimeout: Duration = .seconds(5)
    /// Calls to object storage at once (`s3://` sources, caches in a bucket): threads that wait on
    /// the network, not workers.
    public var storageThreads = 32
    /// The longest a new connection may take to deliver a whole request (imgproxy's
    /// `IMGPROXY_READ_REQUEST_TIMEOUT`).
    public var readRequestTimeout: Duration = .seconds(10)
    /// The longest a kept-alive connection may wait for its next request (`IMGPROXY_KEEP_ALIVE_TIMEOUT`).
    public var keepAliveTimeout: Duration = .seconds(10)
    /// Connections open at once; past it new ones wait in the listen queue (`IMGPROXY_MAX_CLIENTS`).
    public var maxClients = 2048
    /// After SIGTERM, the longest requests in flight may take to finish before the process ends
    /// (`IMGPROXY_GRACEFUL_STOP_TIMEOUT`: twice the request timeout).
    public var shutdownTimeout: Duration = .seconds(20)

    public init() {}

    /// Where the server listens on `port`, as a URL: an IPv6 address in brackets (RFC 3986 §3.2.2).
    public func url(port: Int) -> String {
        "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":\(port)"
    }
}
