import CFrostSystem

/// A flag that tells work to end early: raised by whoever no longer wants the result (a server
/// whose request passed its deadline, or whose client went away), read by the work between its
/// rows, scans and bands — the decoders (libjpeg's progress monitor, PNG rows), the encoders and
/// the row-band scheduler (`RowBands`), which hands it to its helper threads. Work that sees it
/// raised stops where it is and returns what it has (a partial image) or a `stopped` error: the
/// caller, who raised it, drops the result. The command line never raises one.
public final class StopFlag: @unchecked Sendable {
    // Read and written only with the C atomics (frost_stop_raise, frost_stopped).
    private let cell: UnsafeMutablePointer<Int32>

    public init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: 0)
    }

    deinit { cell.deallocate() }

    /// Tells the work to stop.
    public func raise() { frost_stop_raise(cell) }

    /// Whether `raise` was called.
    public var isRaised: Bool { frost_stop_raised(cell) != 0 }

    /// Runs `body` on this thread with this flag as the one its work checks (restoring the one
    /// before after it). The flag must outlive `body`: it does, `self` being held here.
    public func during<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let before = frost_stop_flag_get()
        frost_stop_flag_set(cell)
        defer {
            frost_stop_flag_set(before)
            withExtendedLifetime(self) {}
        }
        return try body()
    }

    /// Whether the work on this thread was told to stop (false outside `during`).
    public static var current: Bool { frost_stopped() != 0 }
}
