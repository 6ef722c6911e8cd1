import ArgumentParser
import FrostCodecs
import FrostCore
import FrostFiles

/// `--inputs-from` of the commands that read names (`info`, `placeholder`).
struct InputLists: ParsableArguments {
    @Option(name: .customLong("inputs-from"), help: ArgumentHelp(
        "Also read the names a text file lists, one per line (relative to the list's folder; - reads standard input). Repeatable.",
        valueName: "LIST"))
    var inputsFrom: [String] = []
}

/// `--jobs` and `--shard` of every many-file command.
struct BatchFlags: ParsableArguments {
    static let jobsRange = OptionRange(1, 1024)

    @Option(name: .customLong("jobs"), parsing: .unconditional,
            help: "Images processed at once, \(jobsRange) (each gets its share of --threads; default 1, for cache --batch the cores).")
    var chosenJobs: Int?

    /// --jobs, 1 when not given.
    var jobs: Int { chosenJobs ?? 1 }

    @Option(parsing: .unconditional, help: "K/N: process only shard K (0…N-1) of N, split by a hash of each output's path (of each input's relative path where the outputs are caches or lines).")
    var shard: String?

    var isDefault: Bool { chosenJobs == nil && shard == nil }

    func validate() throws {
        try Self.jobsRange.check(chosenJobs, "--jobs")
        ComputeBudget.shared.allow(jobs)
        if let shard { _ = try parseSlice(shard, option: "--shard") }
    }

    /// Whether an input whose relative path is `relative` is this worker's (every one without
    /// --shard): a cache's leftovers and orphans are its input's shard's.
    func owns(_ relative: String) -> Bool {
        guard let shard, let slice = try? parseSlice(shard, option: "--shard") else { return true }
        return FileBatch.shard(of: relative, count: slice.1) == slice.0
    }

    /// The inputs of this worker's shard (all of them without --shard), split by `key`.
    func shard(_ inputs: [FileBatch.Input], key: (FileBatch.Input) -> String = \.relative) throws -> [FileBatch.Input] {
        guard let shard else { return inputs }
        let (k, n) = try parseSlice(shard, option: "--shard")
        return FileBatch.shard(inputs, index: k, of: n, key: key)
    }
}

/// What a many-file run shows (`cache --batch`, the filters), all on standard error (standard
/// output is for data: an image written to `-`): a progress bar with an ETA on a terminal, else a
/// line per input, written as it happens (neither with `quiet`); each failure as
/// `frost: <file>: <reason>`; a summary line at the end. `record` is called serially
/// (FileBatch.run's progress).
struct BatchReport: Sendable {
    let total: Int
    let bar: ProgressBar
    let quiet: Bool

    /// A run of `total` inputs; `label` names it on the bar (`shard 3/8`).
    init(total: Int, label: String = "", quiet: Bool = false) {
        self.total = total
        self.quiet = quiet
        bar = ProgressBar(total: total, label: label, shown: !quiet)
    }

    func record(_ input: FileBatch.Input, _ failure: (file: String, reason: String)?, done: Int, word: String) {
        if let failure {
            bar.clear()
            report(failure.file, failure.reason)
        }
        if bar.isShown {
            bar.show(done, input.relative)
        } else if !quiet {
            writeError("[\(done)/\(total)] \(failure == nil ? word : "failed") \(input.relative)\n")
        }
    }

    /// Prints the summary; exit status 1 if an input failed.
    func finish(_ summary: String, failed: Int) throws {
        close(summary)
        if failed > 0 { throw ExitCode.failure }
    }

    /// Prints the summary (the caller chooses the exit status).
    func close(_ summary: String) {
        bar.clear()
        writeError(summary + "\n")
    }
}
