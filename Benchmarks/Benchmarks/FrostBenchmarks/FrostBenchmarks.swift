import Benchmark

let benchmarks: @Sendable () -> Void = {
    codecBenchmarks()
    effectBenchmarks()
    motionBenchmarks()
}
