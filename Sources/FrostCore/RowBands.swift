import CFrostSystem
import Dispatch
import Synchronization

/// The one thread schedule every pixel operation shares (Halide's "schedule apart from the
/// algorithm", docs/design.md, House style): a range of rows (or columns) is cut into contiguous bands, one per
/// thread, and each band runs on its own core. Kernels allocate their scratch once per band,
/// never per row. Bands are contiguous and each row's result depends only on the source, so
/// results are identical for any thread count. The threads come from the process's
/// `ComputeBudget`: `threads` is what a call asks for, at most; it gets what is free.
@_spi(Kernels) public enum RowBands {
    /// Every online core.
    public static var availableThreads: Int { ComputeBudget.cores }

    /// The shortest piece `run` cuts a band into under a stop flag.
    static let stoppablePiece = 1024

    /// The thread count to ask for: `requested` if given (at least 1), else every available core.
    public static func threads(_ requested: Int?) -> Int { max(1, requested ?? availableThreads) }

    /// Runs `body(worker, workers)` on as many threads as the budget grants, up to `wanted`
    /// (at least one: the caller's), concurrently; returns when all are done. Each worker is marked
    /// as holding a thread of the budget, so that kernels called inside ask only for helpers.
    public static func concurrently(_ wanted: Int, _ body: (_ worker: Int, _ workers: Int) -> Void) {
        withThreads(wanted) { workers in
            guard workers > 1 else { return body(0, 1) }
            withoutActuallyEscaping(body) { body in
                let box = UncheckedBox(body), stop = UncheckedBox(frost_stop_flag_get())
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    let (held, flag) = (frost_budget_held(), frost_stop_flag_get())
                    frost_set_budget_held(1)
                    frost_stop_flag_set(stop.value)
                    box.value(worker, workers)
                    frost_set_budget_held(held)
                    frost_stop_flag_set(flag)
                }
            }
        }
    }

    /// Runs `body` with the number of threads the budget grants, up to `wanted` (at least 1: the
    /// caller's), held while it runs. The caller's thread counts against the budget unless it
    /// already holds a thread of it, and is marked as holding one while `body` runs when it does.
    /// Code that makes threads of its own (the PNG writer's deflate segments) calls it directly.
    public static func withThreads<R>(_ wanted: Int, _ body: (Int) throws -> R) rethrows -> R {
        let holds = frost_budget_held() != 0
        let budget = ComputeBudget.shared
        let taken = wanted > 1 || !holds ? budget.take(upTo: holds ? wanted - 1 : wanted) : 0
        defer { budget.give(taken) }
        frost_set_budget_held(holds || taken > 0 ? 1 : 0)
        defer { frost_set_budget_held(holds ? 1 : 0) }
        return try body(max(1, holds ? taken + 1 : taken))
    }

    /// Runs `body` over `0..<count` split into at most `threads` contiguous bands, each at least
    /// `minimumBand` long, concurrently. Returns when every band is done.
    ///
    /// Under a stop flag (`StopFlag.during`: a server's request), bands longer than
    /// `stoppablePiece` (rows, or `minimumBand` when that is longer) are cut into pieces of about
    /// that length, at most eight a band, taken in order, and the pieces left once the flag is
    /// raised are skipped: the result is then partial, and the caller, who raised it, drops it.
    /// The results do not depend on where bands are cut, so the pieces give the same pixels; a
    /// piece of a blur pays its window's rows again, which is why pieces are long (about a
    /// second of the slowest kernel on a 50 MP image, and no cut at all below 2048 rows on two
    /// threads: A/B on gauss-s20 at 2048², eight pieces a band cost it 50%).
    public static func run(_ count: Int, threads: Int, minimumBand: Int = 8, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let wanted = max(1, min(threads, count / max(1, minimumBand)))
        if frost_stop_flag_get() != nil {
            let pieces = max(wanted, min(wanted * 8, count / max(minimumBand, stoppablePiece)))
            return runEach(pieces, threads: wanted) { piece in
                if frost_stopped() == 0 { body(count * piece / pieces..<count * (piece + 1) / pieces) }
            }
        }
        guard wanted > 1 else {
            body(0..<count)
            return
        }
        concurrently(wanted) { band, bands in
            body(count * band / bands..<count * (band + 1) / bands)
        }
    }
}

extension RowBands {
    /// Runs `body` for each of `0..<count` on up to `threads` threads, each taking the next index
    /// when it finishes one: for items of uneven cost (a cache's level files, a batch's inputs),
    /// where fixed bands would leave a thread idle. Returns when every item is done (each item is
    /// run, stop flag or not: callers collect every item's result).
    public static func runEach(_ count: Int, threads: Int, _ body: (Int) -> Void) {
        let wanted = max(1, min(threads, count))
        guard wanted > 1 else {
            for i in 0..<count { body(i) }
            return
        }
        let next = NextIndex()
        concurrently(wanted) { _, _ in
            while case let i = next.take(), i < count { body(i) }
        }
    }
}

/// The shared counter `runEach`'s threads take their items from.
private final class NextIndex: Sendable {
    private let counter = Atomic<Int>(0)
    func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}

/// Carries a non-Sendable value into concurrentPerform, whose iterations only touch disjoint
/// bands of the buffers they capture.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
