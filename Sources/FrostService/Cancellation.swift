import Synchronization

/// A request's work stopping early: set when its client went away or its deadline passed, and
/// checked between the steps of a decode-process-encode (a step itself runs to its end), so an
/// abandoned request gives its worker back at the next step instead of after its last.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func cancel() { flag.store(true, ordering: .relaxed) }

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Throws 499 once cancelled (nginx's "client closed request"; nobody reads the answer).
    public func check() throws(ServiceError) {
        if isCancelled { throw ServiceError(499, "the request was abandoned") }
    }
}
