import Dispatch
import FrostService
import Synchronization

/// The first of three outcomes: work on a thread of its own, the deadline passing (503), or the
/// request's task being cancelled (its client gone). Work that loses is told to stop
/// (`Cancellation`, checked between its steps: a decode cannot be stopped halfway) and its result
/// is dropped; the worker it holds is given back only when it returns, so the pool counts true.
final class FirstOutcome<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, continuation: CheckedContinuation<T, any Error>?)>((nil, nil))
    private let cancellation = Cancellation()

    /// Runs `work` on a Dispatch thread and waits for it, for `deadline` or for cancellation.
    static func run(until deadline: ContinuousClock.Instant, _ work: @escaping @Sendable (Cancellation) throws -> T,
                    then finished: @escaping @Sendable () -> Void) async throws -> T {
        let outcome = FirstOutcome<T>()
        DispatchQueue.global().async {
            outcome.complete(Result { try work(outcome.cancellation) })
            finished()
        }
        let timer = Task {
            try await Task.sleep(until: deadline, clock: .continuous)
            outcome.complete(.failure(ServiceError(503, "timed out")))
        }
        defer { timer.cancel() }
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

    /// The first outcome wins; a timeout or a cancellation also tells the work to stop.
    private func complete(_ result: Result<T, any Error>) {
        let won = state.withLock { state -> (first: Bool, waiting: CheckedContinuation<T, any Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        guard won.first else { return }
        if case .failure = result { cancellation.cancel() }
        won.waiting?.resume(with: result)
    }
}

/// A worker from `pool`, or 503 once `deadline` passes while waiting for one. A worker granted
/// in the instant the deadline won (the wait's cancellation racing the pool's hand-over) is given
/// back, so no worker is ever lost to a timeout.
func admit(_ pool: WorkerPool, until deadline: ContinuousClock.Instant) async throws {
    let first = await withTaskGroup(of: Result<Bool, any Error>.self) { group -> Result<Bool, any Error>? in
        group.addTask {
            do { try await pool.admit(); return .success(true) } catch { return .failure(error) }
        }
        group.addTask {
            do { try await Task.sleep(until: deadline, clock: .continuous); return .success(false) } catch { return .failure(error) }
        }
        var first: Result<Bool, any Error>?
        for await result in group {
            if first == nil {
                first = result
                group.cancelAll()
            } else if case .success(true) = result {
                await pool.release()
            }
        }
        return first
    }
    switch first {
    case .success(true): return
    case .success(false), nil: throw ServiceError(503, "timed out waiting for a worker")
    case .failure(let error): throw error
    }
}
