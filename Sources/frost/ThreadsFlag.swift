import ArgumentParser
import FrostCore

/// `--threads N` for every pixel operation (default: all cores).
struct ThreadsFlag: ParsableArguments {
    @Option(help: "Threads to use (default: all \(RowBands.availableThreads) cores).")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }
}
