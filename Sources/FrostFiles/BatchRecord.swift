@_spi(Kernels) import FrostCore

/// One input's line of a batch report (`frost cache --report FILE`, `--json`): JSON with the keys
/// `source`, `output`, `status`, `error`, `bytes`, `time` (and `note` when there is one), in that
/// order, one object per line (JSON Lines). The keys are a contract: job runners and dashboards
/// read them (docs/effects.md, "Operating a large catalog").
public struct BatchRecord: Sendable, Equatable {
    /// The input as named (its path, or an object's address).
    public var source: String
    /// Where its result is (a cache folder), nil when it has none.
    public var output: String?
    /// `built`, `skipped`, `failed`, `not-tried` (past `--max-failures`), `pruned` or `removed`
    /// (a leftover of a killed run).
    public var status: String
    /// Why it failed (the line `frost: <file>: <reason>` says), nil otherwise.
    public var error: String?
    /// The source's size in bytes (0 when unknown).
    public var bytes: Int
    /// Seconds spent on it.
    public var time: Double
    /// What else the user should know (a JPEG's transparency flattened), nil for nothing.
    public var note: String?

    public init(source: String, output: String?, status: String, error: String? = nil, bytes: Int = 0, time: Double = 0, note: String? = nil) {
        (self.source, self.output, self.status, self.error, self.bytes, self.time, self.note) = (source, output, status, error, bytes, time, note)
    }

    /// The record as one line of JSON (no newline).
    public var json: String {
        var fields: [(String, String)] = [
            ("source", jsonString(source)), ("output", output.map(jsonString) ?? "null"), ("status", jsonString(status)),
            ("error", error.map(jsonString) ?? "null"), ("bytes", "\(bytes)"), ("time", "\((time * 1000).rounded() / 1000)"),
        ]
        if let note { fields.append(("note", jsonString(note))) }
        return jsonObject(fields)
    }
}

/// A batch report written as records come (`BatchRecord`, one JSON line each), through `sink`:
/// pieces of the file in order, then `commit()` once they are all there. A local file is an
/// `AtomicFile` (the report appears whole at the end, or not at all); an object store's writer
/// can be any other sink, given the same lines.
public final class BatchRecordWriter: @unchecked Sendable {
    /// Where the report's bytes go.
    /// (Called under the writer's lock, one call at a time.)
    public struct Sink {
        public let append: ([UInt8]) throws -> Void
        public let commit: () throws -> Void

        public init(append: @escaping ([UInt8]) throws -> Void, commit: @escaping () throws -> Void) {
            (self.append, self.commit) = (append, commit)
        }

        /// A local file, written beside its path and renamed into place by `commit`.
        public static func file(_ path: String) throws -> Sink {
            let file = try AtomicFile(path)
            return Sink(append: { try file.append($0) }, commit: { try file.commit() })
        }
    }

    private let sink: Sink
    private let failure = Locked<(any Error)?>(nil)

    public init(_ sink: Sink) { self.sink = sink }

    /// Appends one record (serially: a batch's progress callback). A write error is kept for
    /// `commit`, which throws it; the batch goes on.
    public func write(_ record: BatchRecord) {
        failure.withLock { failure in
            guard failure == nil else { return }
            do { try sink.append(Array((record.json + "\n").utf8)) } catch { failure = error }
        }
    }

    /// After the last record: the report in place, or the first write error.
    public func commit() throws {
        if let error = failure.withLock({ $0 }) { throw error }
        try sink.commit()
    }
}
