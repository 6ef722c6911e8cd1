import Dispatch
import FrostCore

/// Times a case over several runs on an image held in memory (no file I/O in the timing).
public struct BenchResult: Sendable {
    public let name: String
    public let width: Int
    public let height: Int
    public let threads: Int
    public let runs: Int
    public let medianMilliseconds: Double
    public let minimumMilliseconds: Double

    public var megapixelsPerSecond: Double {
        Double(width * height) / 1e6 / (medianMilliseconds / 1000)
    }

    /// One JSON object: case, width, height, threads, runs, median_ms, min_ms, mpix_per_s.
    public var json: String {
        func number(_ x: Double) -> String { String((x * 1000).rounded() / 1000) }
        return "{\"case\": \"\(name)\", \"width\": \(width), \"height\": \(height), \"threads\": \(threads), "
            + "\"runs\": \(runs), \"median_ms\": \(number(medianMilliseconds)), \"min_ms\": \(number(minimumMilliseconds)), "
            + "\"mpix_per_s\": \(number(megapixelsPerSecond))}"
    }
}

public enum BenchRunner {
    /// One warm-up run, then `runs` timed runs; median and minimum wall-clock time.
    public static func measure(_ benchCase: BenchCase, on image: Image, threads: Int, runs: Int) -> BenchResult {
        let prepared = benchCase.prepare(image, threads: threads)
        var sink = benchCase.run(image, threads: threads, prepared: prepared).pixels.count
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = benchCase.run(image, threads: threads, prepared: prepared)
            let end = DispatchTime.now().uptimeNanoseconds
            sink &+= Int(result.pixels[result.pixels.count / 2])
            times.append(Double(end - start) / 1e6)
        }
        times.sort()
        let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
        precondition(sink != Int.min)  // keeps `sink` alive
        return BenchResult(name: benchCase.description, width: image.width, height: image.height, threads: threads,
                           runs: runs, medianMilliseconds: median, minimumMilliseconds: times[0])
    }

    /// A deterministic photo-like test image: smooth color fields, hard edges and fine noise.
    public static func syntheticImage(width: Int, height: Int) -> Image {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var state: UInt32 = 0x1234_5678
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 28) - 8
                let i = (y * width + x) * 4
                let cell = ((x / 97) + (y / 61)) % 3
                pixels[i] = UInt8(clamping: x * 255 / max(1, width - 1) / 2 + cell * 40 + noise)
                pixels[i + 1] = UInt8(clamping: y * 255 / max(1, height - 1) / 2 + (cell == 1 ? 90 : 20) + noise)
                pixels[i + 2] = UInt8(clamping: (x + y) * 255 / max(1, width + height - 2) / 2 + (cell == 2 ? 100 : 30) + noise)
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }
}
