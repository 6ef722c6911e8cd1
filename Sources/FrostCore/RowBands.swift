import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one thread schedule every pixel operation shares (Halide's "schedule apart from the
/// algorithm", docs/design.md, House style): a range of rows (or columns) is cut into contiguous bands, one per
/// thread, and each band runs on its own core. Kernels allocate their scratch once per band,
/// never per row. Bands are contiguous and the cut only depends on `count` and `threads`, so
/// results are identical for any thread count.
public enum RowBands {
    /// Every online core.
    public static let availableThreads: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// The thread count to use: `requested` if given (at least 1), else every available core.
    public static func threads(_ requested: Int?) -> Int { max(1, requested ?? availableThreads) }

    /// Runs `body` over `0..<count` split into at most `threads` contiguous bands, each at least
    /// `minimumBand` long, concurrently. Returns when every band is done.
    public static func run(_ count: Int, threads: Int, minimumBand: Int = 8, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let bands = max(1, min(threads, count / max(1, minimumBand)))
        if bands == 1 {
            body(0..<count)
            return
        }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                box.value(count * band / bands..<count * (band + 1) / bands)
            }
        }
    }
}

extension RowBands {
    /// Runs `body` for each of `0..<count` on up to `threads` threads, each taking the next index
    /// when it finishes one: for items of uneven cost (a cache's level files, a batch's inputs),
    /// where fixed bands would leave a thread idle. Returns when every item is done.
    public static func runEach(_ count: Int, threads: Int, _ body: (Int) -> Void) {
        let workers = max(1, min(threads, count))
        guard workers > 1 else {
            for i in 0..<count { body(i) }
            return
        }
        let next = NextIndex()
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while case let i = next.take(), i < count { box.value(i) }
            }
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
