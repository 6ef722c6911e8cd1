import Benchmark
import Frost
import FrostBenchCases

/// The `frost bench` standard cases on a 2048×2048 synthetic image, one thread and all cores,
/// so a regression in any kernel shows here under the same name as in `frost bench`.
func effectBenchmarks() {
    MemoryPolicy.keepFreedBuffers(upTo: 1 << 30)
    let image = BenchRunner.syntheticImage(width: 2048, height: 2048)
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(2), maxIterations: 50)
    for benchCase in BenchCase.standard {
        for threads in [1, ComputeBudget.cores] {
            let prepared = benchCase.prepare(image, threads: threads)
            Benchmark("\(benchCase)-2048-t\(threads)", configuration: configuration) { benchmark in
                for _ in benchmark.scaledIterations { blackHole(benchCase.run(image, threads: threads, prepared: prepared)) }
            }
        }
    }
}
