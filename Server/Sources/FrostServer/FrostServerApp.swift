import CSwiftTaskHook
import FrostCore
import FrostService
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import NIOPosix
import Prometheus
import ServiceLifecycle

/// `frost serve`: the image service on Hummingbird, until SIGTERM or SIGINT — then new
/// connections are refused and requests in flight finish (swift-service-lifecycle's graceful
/// shutdown) before the process exits 0.
public enum FrostServerApp {
    /// Makes NIO's event loops Swift concurrency's global executor, so a request's task runs on
    /// the loop that read it rather than on a second pool, a thread switch each way: a cached
    /// answer went from 10.8k to 16.8k a second (docs/performance.md). NIO's own
    /// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor` does this, but
    /// finds the runtime's hook with dlsym, which a statically linked runtime hides; this is its
    /// recipe with the hook found at link time. Images are processed on threads of their own
    /// (`FirstOutcome`), never on a loop. Call first thing in `main`; false when another executor
    /// is installed already.
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        typealias Hook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
        let slot = frost_swift_task_enqueue_global_hook()
        guard slot.pointee == nil else { return false }
        return withUnsafeTemporaryAllocation(of: Hook.self, capacity: 1) { hook in
            // `any()` is sticky: a task enqueued from a loop of the group stays on it.
            hook.baseAddress!.initialize(to: { job, _ in MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job)) })
            return hook.baseAddress!.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) { function in
                slot.pointee = function.pointee
                return true
            }
        }
    }

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
                                       metrics: metrics, fetch: fetch, storage: StorageThreads(count: settings.storageThreads),
                                       timeout: settings.timeout, logger: logger)
        let (readRequest, keepAlive) = (TimeAmount(settings.readRequestTimeout), TimeAmount(settings.keepAliveTimeout))
        let serverName = "frost"
        let app = Application(responder: responder,
                              server: HTTPServerBuilder { route in
                                  HTTP1WithHeldResults(route: route, responder: responder, readRequest: readRequest, keepAlive: keepAlive, serverName: serverName)
                              },
                              configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: serverName,
                                                   availableConnectionsDelegate: .maximum(settings.maxClients, logger: logger)),
                              onServerRunning: { channel in
                                  let port = channel.localAddress?.port ?? settings.port
                                  logger.info("listening on \(settings.url(port: port))")
                                  listening(port)
                              }, logger: logger)
        // SIGTERM or SIGINT: the listener closes, responses in flight end whole, and past the
        // shutdown timeout what is left is cancelled.
        var group = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = settings.shutdownTimeout
        try await ServiceGroup(configuration: group).run()
    }
}
