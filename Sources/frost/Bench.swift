import ArgumentParser
import FrostBench
import FrostCodecs
@_spi(Kernels) import FrostCore
import FrostEffects
import FrostFiles

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time named cases in-process on an image held in memory: median and min in ms, Mpixel/s.",
        discussion: "Cases: copy, box-r<R>, gauss-s<SIGMA>[-linear], resize-<W>[-<nearest|linear|cubic|mitchell|lanczos3|box>][-linear-light], png-write, effect-light, adjust, brightness, cache-10, fade, blend, compose, "
            + "scroll-secret, scroll-twitter, scroll-twitter-blend (per frame of SampleImages/motion's sweeps at 1170x2532; from the repository or with FROST_SAMPLES). Default: "
            + BenchCase.standard.map(\.description).joined(separator: ", ") + ".")

    @Option(help: "Image to run on (resized to --size when both are given).")
    var image: String?

    @Option(help: "Size WxH (default 4096x4096 for the synthetic image).")
    var size: String?

    @Option(name: .customLong("case"), help: "A case to run (repeatable).")
    var cases: [String] = []

    @OptionGroup var threads: ThreadsFlag

    static let runsRange = OptionRange(1, 1000)

    @Option(parsing: .unconditional, help: "Timed runs per case (after one warm-up), \(runsRange).")
    var runs: Int = 7

    @Flag(help: "One JSON object per case.")
    var json = false

    func validate() throws {
        try Self.runsRange.check(runs, "--runs")
        if let size { _ = try parseSize(size) }
        for name in cases where BenchCase(name: name) == nil {
            throw ValidationError("unknown --case '\(name)' (copy, box-r<R>, gauss-s<SIGMA>, effect-light, adjust, brightness, cache-10, fade, blend, compose, scroll-secret, scroll-twitter, scroll-twitter-blend)")
        }
    }

    func run() throws {
        let picture: Image
        if let image {
            var loaded = try attempt(image) { try Image(contentsOfFile: image) }
            if let size {
                let (w, h) = try parseSize(size)
                loaded = loaded.resized(width: w, height: h)
            }
            picture = loaded
        } else {
            let (w, h) = try parseSize(size ?? "4096x4096")
            picture = BenchRunner.syntheticImage(width: w, height: h)
        }
        let selected = cases.isEmpty ? BenchCase.standard : cases.compactMap(BenchCase.init(name:))
        let threadCount = RowBands.threads(threads.threads)
        if !json {
            print("image \(picture.width)x\(picture.height)\(picture.hasAlpha ? " RGBA" : " RGB"), threads \(threadCount), runs \(runs)")
            print("case".padding(22) + "median ms".leftPadding(12) + "min ms".leftPadding(12) + "mean ms".leftPadding(12) + "Mpixel/s".leftPadding(12))
        }
        for benchCase in selected {
            let result = BenchRunner.measure(benchCase, on: picture, threads: threadCount, runs: runs)
            if json {
                print(result.json)
            } else {
                print(result.name.padding(22) + format(result.medianMilliseconds).leftPadding(12)
                      + format(result.minimumMilliseconds).leftPadding(12) + format(result.meanMilliseconds).leftPadding(12)
                      + format(result.megapixelsPerSecond).leftPadding(12))
            }
        }
    }

    private func parseSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w * h <= 1 << 28 else {
            throw ValidationError("--size must be WxH, e.g. 4096x4096")
        }
        return (w, h)
    }

    private func format(_ x: Double) -> String { String((x * 10).rounded() / 10) }
}

private extension String {
    func padding(_ n: Int) -> String { self + String(repeating: " ", count: max(0, n - count)) }
    func leftPadding(_ n: Int) -> String { String(repeating: " ", count: max(0, n - count)) + self }
}
