/// Where a file written in parts (an animation frame by frame) goes: a file on disk (FrostFiles' `AtomicFile`)
/// or bytes in memory (`MemoryFile`).
public protocol FileSink: AnyObject {
    /// Adds `bytes` at the end.
    func append(_ bytes: [UInt8]) throws
    /// The file is complete: renamed into place, or held whole.
    func commit() throws
}

/// A file built in memory; `bytes` is all of it once committed.
public final class MemoryFile: FileSink {
    /// What was appended.
    public private(set) var bytes: [UInt8] = []
    /// True once committed.
    public private(set) var isComplete = false

    /// An empty file.
    public init() {}

    /// Adds `bytes` at the end.
    public func append(_ bytes: [UInt8]) throws { self.bytes += bytes }

    /// Marks the file complete.
    public func commit() throws { isComplete = true }
}
