import FrostCore
import FrostService
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus

/// `frost serve`: the image service on Hummingbird, until SIGTERM or SIGINT — then new
/// connections are refused and requests in flight finish (swift-service-lifecycle's graceful
/// shutdown) before the process exits 0.
public enum FrostServerApp {
    /// Runs the server; `listening` is called with the port once it accepts connections (the
    /// moment `/health` answers).
    public static func run(_ settings: ServerSettings, listening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let logger = {
            var logger = Logger(label: "frost-serve")
            logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
            return logger
        }()
        var service = settings.service
        // Each request gets its share of the cores (the pool runs `workers` at once).
        service.processor.threads = max(1, ComputeBudget.cores / max(1, settings.workers))
        let metrics = ServerMetrics(workers: settings.workers)
        let fetch = RemoteFetch(maxBytes: service.processor.limits.maxFileBytes, timeout: settings.downloadTimeout)
        let responder = ImageResponder(service: ImageService(service), pool: WorkerPool(workers: settings.workers, queue: settings.queue),
                                       metrics: metrics, fetch: fetch, timeout: settings.timeout, logger: logger)
        let app = Application(responder: responder, server: .http1(configuration: .init(additionalChannelHandlers: [responder.clients.handler()])),
                              configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "frost"),
                              onServerRunning: { channel in
                                  let port = channel.localAddress?.port ?? settings.port
                                  logger.info("listening on http://\(settings.host):\(port)")
                                  listening(port)
                              }, logger: logger)
        do {
            try await app.runService()
        } catch {
            await fetch.shutdown()
            throw error
        }
        await fetch.shutdown()
    }
}
