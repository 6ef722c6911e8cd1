#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex, for state that threads share (the compute budget, a renderer's
/// kept frames and rasters). Not Synchronization's `Mutex`: on Linux it locks with futexes of its own,
/// which ThreadSanitizer does not see, so `make test`'s TSan run reported every access under it as
/// a race; pthread mutexes are what the sanitizer understands.
@_spi(Kernels) public final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// `state` under a new lock.
    public init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held.
    public func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
