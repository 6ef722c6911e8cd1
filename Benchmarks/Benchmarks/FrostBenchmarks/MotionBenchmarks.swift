import Benchmark
import FrostBenchCases
import Frost
import Foundation

/// The seed apps' scroll sweeps (`frost bench --case scroll-secret|scroll-twitter`): one thread,
/// every frame of SampleImages/motion's scene, 1170×2532; one iteration renders one frame.
func motionBenchmarks() {
    let samples = URL(fileURLWithPath: samplePath).deletingLastPathComponent().path
    setenv("FROST_SAMPLES", samples, 1)
    let configuration = Benchmark.Configuration(metrics: [.wallClock], maxDuration: .seconds(3), maxIterations: 400)
    let image = Image(width: 1, height: 1, filledWith: (0, 0, 0, 255))
    for benchCase in [BenchCase.scroll(.secret), .scroll(.twitter)] {
        guard case .motion(let renderer, let states)? = benchCase.prepare(image, threads: 1) else { continue }
        Benchmark("\(benchCase)-1170x2532-t1", configuration: configuration) { benchmark in
            for i in benchmark.scaledIterations { blackHole(try renderer.frame(at: states[i % states.count])) }
        }
    }
}
