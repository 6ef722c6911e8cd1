import Benchmark
import Frost
import Foundation

/// The sample photo every benchmark starts from (SampleImages/ beside this package).
let samplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleImages/UNIS_EV0.jpg").path

func codecBenchmarks() {
    let jpegBytes = try! FileIO.read(samplePath)
    let photo = try! Image(decoding: jpegBytes)
    let pngBytes = try! photo.encoded(as: .png)
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(3))

    Benchmark("decode-jpeg-2048x1536", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Image(decoding: jpegBytes)) }
    }
    Benchmark("decode-png-2048x1536", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Image(decoding: pngBytes)) }
    }
    // The default: level 1 over Paeth (what cache levels and APNG frames are written with), one
    // thread, and its deflate's segments on all cores; level 2 over Up (libdeflate), the default before.
    Benchmark("encode-png-default-2048x1536", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try photo.encoded(as: .png, threads: 1)) }
    }
    Benchmark("encode-png-level1-2048x1536", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try photo.encoded(as: .png)) }
    }
    let libdeflate = EncodeOptions(compressionLevel: 2, pngFilter: 2)
    Benchmark("encode-png-level2-2048x1536", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try photo.encoded(as: .png, options: libdeflate, threads: 1)) }
    }
    Benchmark("encode-jpeg-q90-2048x1536", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try photo.encoded(as: .jpeg)) }
    }
}
