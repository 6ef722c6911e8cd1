import Dispatch
import FrostService
import Synchronization

/// The first of two outcomes: work on a thread of its own, or the deadline passing (503). Work
/// that outlives its deadline finishes on its thread (a decode cannot be stopped halfway) and its
/// result is dropped; the worker it holds is given back only then, so the pool counts true.
final class FirstOutcome<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, continuation: CheckedContinuation<T, any Error>?)>((nil, nil))

    /// Runs `work` on a Dispatch thread and waits for it or for `deadline`.
    static func run(until deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () throws -> T,
                    then finished: @escaping @Sendable () -> Void) async throws -> T {
        let outcome = FirstOutcome<T>()
        DispatchQueue.global().async {
            outcome.complete(Result { try work() })
            finished()
        }
        let timer = Task {
            try await Task.sleep(until: deadline, clock: .continuous)
            outcome.complete(.failure(ServiceError(503, "timed out")))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready = outcome.state.withLock { state -> Result<T, any Error>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func complete(_ result: Result<T, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(with: result)
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
