import CFrostSystem
#if canImport(Glibc)
import Glibc
#endif

/// The threads pixel work may use, shared by every call in the process, so that concurrent
/// requests divide the cores instead of each taking all of them.
///
/// Every kernel asks the budget before it runs on more than one thread: a call made alone gets
/// every core, two concurrent calls on two cores get one each, and a call inside a batch's item or
/// an async job runs on the thread it already holds. Results do not depend on how many threads a
/// call gets (each kernel's bands are cut so that they cannot: docs/design.md, Threads).
///
/// `run(_:)` is the asynchronous door: it waits (suspended, not blocking) until a thread of the
/// budget is free and runs the work on a thread of its own, never on Swift's cooperative pool.
/// Waiting jobs are served first come, first served, except that the jobs of one `request(_:)`
/// (a request's decode, blur and encode) all rank by the request's start: a request that has
/// started finishes before later ones start, which keeps fewer images alive at once and each
/// request's latency short.
public final class ComputeBudget: Sendable {
    /// The process's budget: one thread per online core unless set otherwise.
    public static let shared = ComputeBudget(threads: cores)

    /// Every online core.
    public static let cores: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    private struct State {
        var limit: Int
        var inUse = 0
        /// Jobs waiting for a thread, lowest rank first.
        var waiting: [(rank: UInt64, job: CheckedContinuation<Void, Never>)] = []
        var nextRank: UInt64 = 0

        mutating func newRank() -> UInt64 {
            nextRank += 1
            return nextRank
        }
    }
    private let state: Locked<State>

    /// A budget of `threads` (at least one).
    public init(threads: Int) {
        state = Locked(State(limit: max(1, threads)))
    }

    /// How many threads all calls together may keep busy (at least 1). Raising it lets waiting
    /// calls start.
    public var threads: Int {
        get { state.withLock { $0.limit } }
        set {
            let started = state.withLock { s in
                s.limit = max(1, newValue)
                return Self.admit(&s)
            }
            started.forEach { $0.resume() }
        }
    }

    /// Threads taken right now (by running kernels and jobs).
    public var threadsInUse: Int { state.withLock { $0.inUse } }

    /// Async jobs waiting for a thread.
    public var jobsWaiting: Int { state.withLock { $0.waiting.count } }

    /// Takes up to `count` threads without waiting: how many it got (0 when none is free or a
    /// job is waiting for one).
    package func take(upTo count: Int) -> Int {
        guard count > 0 else { return 0 }
        return state.withLock { s in
            guard s.waiting.isEmpty else { return 0 }
            let granted = min(count, max(0, s.limit - s.inUse))
            s.inUse += granted
            return granted
        }
    }

    /// Gives back threads that `take` granted; waiting jobs start.
    package func give(_ count: Int) {
        guard count > 0 else { return }
        let started = state.withLock { s in
            s.inUse -= count
            return Self.admit(&s)
        }
        started.forEach { $0.resume() }
    }

    /// The waiting jobs that free threads let start (lowest rank first), taken out.
    private static func admit(_ s: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = min(s.waiting.count, max(0, s.limit - s.inUse))
        s.inUse += count
        defer { s.waiting.removeFirst(count) }
        return s.waiting.prefix(count).map(\.job)
    }

    /// The rank of the request the current task works for (`request(_:)`).
    @TaskLocal private static var requestRank: UInt64?

    /// Runs `body` as one request: every job it (and the tasks it starts) runs through `run(_:)`,
    /// or the async calls, ranks by the moment it started, so that its jobs go before those of
    /// requests that started later. A server wraps each request's handling in it.
    public func request<T>(_ body: () async throws -> T) async rethrows -> T {
        let rank = state.withLock { $0.newRank() }
        return try await Self.$requestRank.withValue(rank) { try await body() }
    }

    /// Runs `work` on a thread of the budget when one is free: the calling task is suspended
    /// meanwhile, and Swift's cooperative threads stay free. Kernels inside use more of the
    /// budget's threads when they are free.
    public func run<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let requestRank = Self.requestRank
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s in
                let rank = requestRank ?? s.newRank()
                if s.waiting.isEmpty, s.inUse < s.limit {
                    s.inUse += 1
                    return true
                }
                let place = s.waiting.firstIndex { $0.rank > rank } ?? s.waiting.endIndex
                s.waiting.insert((rank, started), at: place)
                return false
            }
            if now { started.resume() }
        }
        let result: Result<T, E> = await withCheckedContinuation { finished in
            DetachedThread.start {
                frost_set_budget_held(1)
                let result = Result { () throws(E) -> T in try work() }
                self.give(1)
                finished.resume(returning: result)
            }
        }
        return try result.get()
    }
}

/// A thread of its own for one job (pthreads: Foundation's Thread would pull Foundation into
/// FrostCore).
enum DetachedThread {
    private final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            let job = Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue()
            job.body()
            return nil
        }, job)
        // Without a thread (the process is out of them) the job runs on the caller's.
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(job).takeRetainedValue().body()
            return
        }
        pthread_detach(thread)
    }
}
