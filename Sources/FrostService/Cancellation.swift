import FrostCore

/// A request's work stopping early: set when its client went away or its deadline passed. The
/// work runs under its stop flag (`during`), which the decoders, encoders and kernels check
/// between rows, scans and bands, and `check` is called between steps, so an abandoned request
/// gives its worker back within a fraction of a second instead of after its last step.
public final class Cancellation: Sendable {
    /// The flag the work checks.
    public let flag = StopFlag()

    public init() {}

    public func cancel() { flag.raise() }

    public var isCancelled: Bool { flag.isRaised }

    /// Throws 499 once cancelled (nginx's "client closed request"; nobody reads the answer).
    public func check() throws(ServiceError) {
        if isCancelled { throw ServiceError(499, "the request was abandoned") }
    }

    /// `body` under this request's stop flag, then `check`: a result finished after the flag was
    /// raised may be partial, and is never returned (nor kept in a cache).
    public func during<T>(_ body: () throws -> T) throws -> T {
        let result = try flag.during(body)
        try check()
        return result
    }
}
