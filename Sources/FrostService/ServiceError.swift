/// A request the service refuses or cannot serve: the HTTP status to answer with and one line
/// saying why (the response's body and the request's log line).
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400, 403, 404, 413, 415, 422, 429, 500, 502, 503, 504.
    public let status: Int
    public let message: String

    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status): \(message)" }

    static func badRequest(_ message: String) -> ServiceError { ServiceError(400, message) }
}
