import ArgumentParser
@_spi(Kernels) import FrostCore

/// `--threads N` for every pixel operation (default: all cores).
struct ThreadsFlag: ParsableArguments {
    static let threadsRange = OptionRange(1, 1024)

    @Option(parsing: .unconditional, help: "Threads to use, \(threadsRange) (default: all \(RowBands.availableThreads) cores).")
    var threads: Int?

    func validate() throws {
        try Self.threadsRange.check(threads, "--threads")
        if let threads { ComputeBudget.shared.allow(threads) }
    }
}

extension ComputeBudget {
    /// Lets the process use `threads` at once when the command asks for more than the cores
    /// (`--threads`, `--jobs`): what a user asks for on the command line, they get.
    func allow(_ threads: Int) {
        if threads > self.threads { self.threads = threads }
    }
}
