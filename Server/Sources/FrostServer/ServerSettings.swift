import FrostCore
import FrostService

/// How `frost serve` runs (flags, or the same settings from FROST_* variables: docs/serve.md).
public struct ServerSettings: Sendable {
    public var host = "127.0.0.1"
    /// 0: any free port (the one taken is printed).
    public var port = 8080
    public var service = ImageService.Settings()
    /// Images processed at once (default: the cores).
    public var workers = ComputeBudget.cores
    /// Requests waiting for a worker before 429s.
    public var queue = 64
    /// The longest a request may take, queue included, before a 503.
    public var timeout: Duration = .seconds(10)
    /// The longest a source's download may take.
    public var downloadTimeout: Duration = .seconds(5)

    public init() {}
}
