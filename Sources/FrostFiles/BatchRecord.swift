import FrostCodecs
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

/// A batch report written as records come (`BatchRecord`, one JSON line each) into a `FileSink`
/// that makes it appear whole at `commit()`: `Storage.writer`'s, so a local file (an `AtomicFile`,
/// renamed into place at the end) or an object in a bucket (`--report s3://…`, sent in parts as it
/// grows past 16 MiB, appearing when the upload completes).
public final class BatchRecordWriter: @unchecked Sendable {
    private let sink: any FileSink
    /// The first write error, kept for `commit` (guarding `sink` as well: one call at a time).
    private let failure = Locked<(any Error)?>(nil)

    public init(_ sink: any FileSink) { self.sink = sink }

    /// A report at `path`, a file (its folder made) or an object.
    public convenience init(path: String) throws {
        let folder = Storage.parent(of: path)
        if !folder.isEmpty { try FileIO.makeFolder(folder) }
        self.init(try Storage.writer(path))
    }

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
        try failure.withLock { failure in
            if let failure { throw failure }
            try sink.commit()
        }
    }
}
