import FrostService
import FrostStorage
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// Every request `frost serve` answers (docs/serve.md): `/health`, `/metrics`, `/info/…`,
/// `/cache/…` and processing URLs, GET or HEAD. URLs are checked on the event loop (grammar, signature, options,
/// source host: 4xx without touching the pool); a download runs before a worker is taken; the
/// decode-process-encode runs on a worker's thread under the request's deadline. What waits on
/// object storage (an `s3://` source, caches in a bucket) runs on a storage thread.
struct ImageResponder: HTTPResponder {
    typealias Context = FrostRequestContext

    let service: ImageService
    let pool: WorkerPool
    let metrics: ServerMetrics
    let fetch: RemoteFetch
    let storage: StorageThreads
    let timeout: Duration
    let logger: Logger
    /// Whether each connection's client is still there.
    let clients = ClientWatches()
    private let counter = RequestCounter()

    init(service: ImageService, pool: WorkerPool, metrics: ServerMetrics, fetch: RemoteFetch, storage: StorageThreads, timeout: Duration, logger: Logger) {
        self.service = service
        self.pool = pool
        self.metrics = metrics
        self.fetch = fetch
        self.storage = storage
        self.timeout = timeout
        self.logger = logger
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let raw = request.head.path ?? "/"
        let path = String(raw.prefix { $0 != "?" })
        let head = request.method == .head
        guard request.method == .get || head else {
            return Self.text(405, "only GET and HEAD\n", head: false, extra: [(.allow, "GET, HEAD")])
        }
        switch path {
        case "/health": return Self.text(200, "ok\n", head: head)
        case "/metrics":
            metrics.update(service.settings.resultCache, service.settings.blurCaches, service.settings.sourceCache)
            let text = metrics.text()
            // HEAD: the length GET's body would have (RFC 9110 §9.3.2), not the empty body's.
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .contentLength: "\(text.count)"],
                            body: head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        default: break
        }
        let id = counter.next()
        metrics.requests.increment()
        metrics.inProgress.increment()
        defer { metrics.inProgress.decrement() }
        let response: Response, status: Int, size: Int
        do {
            let answer = try await answer(path, request, deadline: start + timeout, client: clients.watch(for: context.channel))
            (status, size) = (answer.status, answer.body.count)
            if status == 304 { metrics.notModified.increment() }
            var headers: HTTPFields = [:]
            Self.fields(of: answer) { name, value in if let field = HTTPField.Name(name) { headers[field] = value } }
            if head || status == 304 {
                if status != 304 { headers[.contentLength] = "\(answer.body.count)" }
                response = Response(status: .init(code: status), headers: headers, body: ResponseBody())
            } else {
                response = Response(status: .init(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        } catch {
            let failure = (error as? ServiceError) ?? (error is CancellationError ? ServiceError(499, "the client went away") : ServiceError(500, "\(error)"))
            if failure.status == 499 { metrics.cancelled.increment() }
            (status, size) = (failure.status, 0)
            metrics.error(failure.status)
            // Why, for the operator: a source or its store failing as a warning, a refusal at
            // LOG_LEVEL=debug (S3's messages name no secret).
            // A message may name the source as the client wrote it: escaped (`LogText`).
            let why: Logger.Message = "\(id) \(LogText.escaped(failure.message))"
            if failure.status >= 500 { logger.warning(why) } else { logger.debug(why) }
            response = Self.text(failure.status, failure.message + "\n", head: head,
                                 extra: failure.status == 429 ? [(.retryAfter, "1")] : [])
        }
        served(id, request.method, path, status, size, since: start)
        return response
    }

    /// A request answered: its duration measured and its line logged.
    private func served(_ id: UInt64, _ method: HTTPRequest.Method, _ path: String, _ status: Int, _ size: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        metrics.duration.record(elapsed)
        logger.info("\(id) \(method) \(LogText.escaped(path)) \(status) \(size) bytes \(Self.milliseconds(elapsed)) ms")
    }

    /// A service answer's own fields, in order, for the route's head and for `HeldResults`'
    /// alike: Content-Type (when it has one), ETag, then its headers (the length is each one's).
    static func fields(of answer: ImageService.Response, _ field: (String, String) -> Void) {
        if !answer.contentType.isEmpty { field("Content-Type", answer.contentType) }
        if let etag = answer.etag { field("ETag", etag) }
        for (name, value) in answer.headers { field(name, value) }
    }

    /// The answer to a processing URL's GET or HEAD whose result is held in memory, for
    /// `HeldResults` to write on the event loop that read it, counted and logged as the route's
    /// answers are; nil for any other request (which then takes the route).
    func heldAnswer(method: String, target: String, accept: String?, ifNoneMatch: String?) -> ImageService.Response? {
        let start = ContinuousClock.now
        guard method == "GET" || method == "HEAD", target.utf8.first == UInt8(ascii: "/") else { return nil }
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
        guard !path.hasPrefix("/info/"), !path.hasPrefix("/cache/"),
              let answer = service.heldAnswer(path, accept: accept, ifNoneMatch: ifNoneMatch)
        else { return nil }
        metrics.requests.increment()
        if answer.status == 304 { metrics.notModified.increment() }
        served(counter.next(), method == "GET" ? .get : .head, path, answer.status, answer.body.count, since: start)
        return answer
    }

    /// A processing, info or cache URL's answer. What waits (a download, the queue, the work) is
    /// cancelled when the client goes; a kept result or cache file is answered at once.
    private func answer(_ path: String, _ request: Request, deadline: ContinuousClock.Instant, client: ClientWatch?) async throws -> ImageService.Response {
        let service = self.service
        if path.hasPrefix("/info/") {
            let info = try service.infoRequest(String(path.dropFirst("/info".count)))
            return try await fetchAndWork(info.location, deadline, client) { source, _ in try service.info(info, source: source?.bytes) }
        }
        if path.hasPrefix("/cache/") {
            let rest = String(path.dropFirst("/cache".count))
            // A kept cache's file is read at once: no worker, no signature (its name is its content's hash).
            let ifNoneMatch = request.headers[.ifNoneMatch]
            if let file = try await waiting(service.settings.blurCaches?.isInBucket == true, deadline, client, {
                try service.cacheFile(rest, ifNoneMatch: ifNoneMatch)
            }) { return file }
            let cache = try service.cacheRequest(rest)
            return try await fetchAndWork(cache.location, deadline, client) { try service.cache(cache, source: $0?.bytes, cancellation: $1) }
        }
        let parsed = try service.request(path)
        let accept = request.headers[.accept], ifNoneMatch = request.headers[.ifNoneMatch]
        if let hit = try await cached(parsed, accept, ifNoneMatch, deadline, client) { return hit }
        return try await fetchAndWork(parsed.location, deadline, client) {
            try service.respond(to: parsed, source: $0?.bytes, object: $0?.object, accept: accept, ifNoneMatch: ifNoneMatch, lookedUp: true, cancellation: $1)
        }
    }

    /// The result cache's answer (or a 304 an object's identity gives): here, or — when that waits
    /// on object storage — from memory here, else on a storage thread.
    private func cached(_ parsed: ImageService.Request, _ accept: String?, _ ifNoneMatch: String?, _ deadline: ContinuousClock.Instant,
                        _ client: ClientWatch?) async throws -> ImageService.Response? {
        let service = self.service
        guard service.cachedWaits(parsed, ifNoneMatch: ifNoneMatch) else { return service.cached(parsed, accept: accept, ifNoneMatch: ifNoneMatch) }
        if let hit = service.cached(parsed, accept: accept, ifNoneMatch: ifNoneMatch, inMemoryOnly: true) { return hit }
        return try await waiting(true, deadline, client) { service.cached(parsed, accept: accept, ifNoneMatch: ifNoneMatch) }
    }

    /// `body`'s answer: at once, or — when it `waits` on object storage — on a storage thread,
    /// cancelled when the client goes or the deadline passes (503).
    private func waiting<T: Sendable>(_ waits: Bool, _ deadline: ContinuousClock.Instant, _ client: ClientWatch?,
                                      _ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard waits else { return try body() }
        let storage = self.storage
        return try await Deadline.run(until: deadline) {
            try await ClientWatches.cancelling(when: client) { try await storage.run(body) }
        }
    }

    /// A source the server fetched: its bytes, and for an object what its GET said of it.
    typealias Fetched = (bytes: [UInt8], object: ObjectInfo?)

    /// The source downloaded (a remote one, an object), then `body` on a worker with it; cancelled
    /// when the client goes or the deadline passes (503), whatever it is waiting for.
    private func fetchAndWork(_ location: ImageService.SourceLocation, _ deadline: ContinuousClock.Instant, _ client: ClientWatch?,
                              _ body: @escaping @Sendable (Fetched?, Cancellation) throws -> ImageService.Response) async throws -> ImageService.Response {
        try await Deadline.run(until: deadline) { [self] in
            try await ClientWatches.cancelling(when: client) { [self] in
                let source = try await download(location)
                return try await work { try body(source, $0) }
            }
        }
    }

    /// A remote source's bytes, or an object's on a storage thread, within `--download-timeout`
    /// (504 past it, as a remote download); nil for a local one, read by the worker.
    private func download(_ location: ImageService.SourceLocation) async throws -> Fetched? {
        let start = ContinuousClock.now
        switch location {
        case .local: return nil
        case .remote(let url, let host, let address):
            defer { metrics.downloadSpan.record(ContinuousClock.now - start) }
            return (try await fetch.bytes(url, host: host, address: address), nil)
        case .object(let object):
            defer { metrics.downloadSpan.record(ContinuousClock.now - start) }
            let (objects, storage, maxBytes) = (service.settings.objects, self.storage, fetch.maxBytes)
            let read = try await Deadline.run(until: start + fetch.timeout, timedOut: ServiceError(504, "the source's download took longer than \(fetch.timeout)")) {
                try await storage.run { try objects.get(object, maxBytes: maxBytes) }
            }
            return (read.bytes, read.info)
        }
    }

    /// `body` on a worker's thread, waiting in the queue for one. `body` is told when its answer
    /// is no longer wanted (timed out, client gone), to stop where it is.
    private func work(_ body: @escaping @Sendable (Cancellation) throws -> ImageService.Response) async throws -> ImageService.Response {
        let queued = ContinuousClock.now
        let pool = self.pool
        try await pool.admit()
        metrics.queueSpan.record(ContinuousClock.now - queued)
        metrics.workersBusy.increment()
        let started = ContinuousClock.now, metrics = self.metrics
        return try await WorkerThread.run(body) {
            metrics.processingSpan.record(ContinuousClock.now - started)
            metrics.workersBusy.decrement()
            Task { await pool.release() }
        }
    }

    private static func text(_ status: Int, _ text: String, head: Bool, extra: [(HTTPField.Name, String)] = []) -> Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
        for (name, value) in extra { headers[name] = value }
        if head { headers[.contentLength] = "\(text.utf8.count)" }
        return Response(status: .init(code: status), headers: headers,
                        body: head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private static func milliseconds(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return String((ms * 10).rounded() / 10)
    }
}

/// Request ids for the log, one after another.
final class RequestCounter: Sendable {
    private let value = Atomic<UInt64>(0)
    func next() -> UInt64 { value.wrappingAdd(1, ordering: .relaxed).newValue }
}
