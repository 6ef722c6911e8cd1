import ArgumentParser
import FrostCore

/// `--threads N` for every pixel operation (default: all cores).
struct ThreadsFlag: ParsableArguments {
    static let threadsRange = OptionRange(1, 1024)

    @Option(parsing: .unconditional, help: "Threads to use, \(threadsRange) (default: all \(RowBands.availableThreads) cores).")
    var threads: Int?

    func validate() throws {
        try Self.threadsRange.check(threads, "--threads")
    }
}
