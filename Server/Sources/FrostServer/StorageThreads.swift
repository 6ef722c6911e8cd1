import FrostService
import NIOPosix

/// Threads for the calls that wait on object storage (an `s3://` source's HEAD and GET, a result
/// cache or blur caches in a bucket: libcurl, which blocks its thread): never an event loop, and
/// not a worker, which is a share of the cores (these calls wait on the network). A request that
/// ends first (its deadline, its client gone) is answered at once; its call is told to stop
/// through its stop flag, which the S3 client checks between attempts and libcurl's progress
/// callback at least once a second, so a thread is not held past the deadline by more than that.
final class StorageThreads: Sendable {
    private let pool: NIOThreadPool

    /// `count` threads: as many storage calls at once (later ones wait for a thread, within
    /// their requests' deadlines).
    init(count: Int) {
        pool = NIOThreadPool(numberOfThreads: count)
        pool.start()
    }

    /// `body` on one of the threads, under the request's stop flag.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await WorkerThread.run(on: pool, { cancellation in try cancellation.flag.during(body) }, finished: {})
    }
}
