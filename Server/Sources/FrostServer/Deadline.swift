import Foundation
import FrostService
import NIOCore
import NIOPosix
import Synchronization

/// A request's deadline: its task cancelled when the deadline passes, whatever it waits for (a
/// download, a place in the queue, a worker's result), and the request answered 503. The timer
/// is an event loop's: `Task.sleep` on Linux is a Dispatch timer whose firing waits for a thread of
/// Dispatch's global pool, which the kernels' `concurrentPerform` can hold for seconds — a
/// `--timeout 2` answered its 503 after 13 s with both workers busy.
enum Deadline {
    /// `body` in a task cancelled at `deadline`; `timedOut` (a 503) thrown when that is why it ended.
    static func run<T: Sendable>(until deadline: ContinuousClock.Instant, timedOut: ServiceError = ServiceError(503, "timed out"),
                                 _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await body() }
        let fired = Fired()
        let timer = at(deadline) {
            fired.set()
            task.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch {
            if fired.isSet { throw timedOut }
            throw error
        }
    }

    /// `action` on an event loop at `deadline` (at once when it has passed), unless cancelled first.
    static func at(_ deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Scheduled<Void> {
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .nanoseconds(nanoseconds(until: deadline)), action)
    }

    /// Nanoseconds from now to `deadline`, 0 when it has passed.
    static func nanoseconds(until deadline: ContinuousClock.Instant) -> Int64 {
        let remaining = ContinuousClock.now.duration(to: deadline)
        return remaining <= .zero ? 0 : remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
    }

    private final class Fired: Sendable {
        private let flag = Atomic<Bool>(false)
        func set() { flag.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { flag.load(ordering: .sequentiallyConsistent) }
    }
}

/// Work on a thread of its own, waited for until it ends or the request's task is cancelled (its
/// deadline passed, its client went away). Cancelled, the work is told to stop (its
/// `Cancellation`'s stop flag, which the decoders, encoders and kernels check between rows and
/// bands) and the request ends at once; the worker it holds is given back only when the work
/// returns (`finished`), so the pool counts true.
final class WorkerThread<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, continuation: CheckedContinuation<T, any Error>?)>((nil, nil))
    private let cancellation = Cancellation()

    /// Runs `work` on a new thread, or on one of `pool`'s (never on Dispatch's pool or an event
    /// loop), and waits for it, or for cancellation; `finished` is called on that thread when the
    /// work has returned.
    static func run(on pool: NIOThreadPool? = nil, _ work: @escaping @Sendable (Cancellation) throws -> T,
                    finished: @escaping @Sendable () -> Void) async throws -> T {
        let outcome = WorkerThread<T>()
        if Task.isCancelled {
            finished()
            throw CancellationError()
        }
        let job: @Sendable (Bool) -> Void = { active in
            outcome.complete(active ? Result { try work(outcome.cancellation) } : .failure(CancellationError()))
            finished()
        }
        if let pool {
            pool.submit { state in job(state == .active) }   // a pool shutting down runs nothing
        } else {
            let thread = Thread { job(true) }
            thread.name = "frost-worker"
            thread.start()
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = outcome.state.withLock { state -> Result<T, any Error>? in
                    if let result = state.result { return result }
                    state.continuation = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            outcome.complete(.failure(CancellationError()))
        }
    }

    /// The first outcome wins; a cancellation also tells the work to stop.
    private func complete(_ result: Result<T, any Error>) {
        let won = state.withLock { state -> (first: Bool, waiting: CheckedContinuation<T, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        guard won.first else { return }
        if case .failure(let error) = result, error is CancellationError { cancellation.cancel() }
        won.waiting?.resume(with: result)
    }
}
