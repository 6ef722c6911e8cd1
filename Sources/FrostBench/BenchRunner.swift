import Dispatch
import Frost

/// Times a case over several runs on an image held in memory (no file I/O in the timing).
public struct BenchResult: Sendable {
    public let name: String
    public let width: Int
    public let height: Int
    public let threads: Int
    public let runs: Int
    public let medianMilliseconds: Double
    public let minimumMilliseconds: Double
    /// The mean: for a scroll sweep, the whole sweep's time per frame (its few dear frames included).
    public let meanMilliseconds: Double

    public var megapixelsPerSecond: Double {
        Double(width * height) / 1e6 / (medianMilliseconds / 1000)
    }

    /// One JSON object: case, width, height, threads, runs, median_ms, min_ms, mean_ms, mpix_per_s.
    public var json: String {
        func number(_ x: Double) -> String { String((x * 1000).rounded() / 1000) }
        return "{\"case\": \"\(name)\", \"width\": \(width), \"height\": \(height), \"threads\": \(threads), "
            + "\"runs\": \(runs), \"median_ms\": \(number(medianMilliseconds)), \"min_ms\": \(number(minimumMilliseconds)), \"mean_ms\": \(number(meanMilliseconds)), "
            + "\"mpix_per_s\": \(number(megapixelsPerSecond))}"
    }
}

public enum BenchRunner {
    /// One warm-up run, then `runs` timed runs; median and minimum wall-clock time. A motion case
    /// times each frame of its sweep: median and minimum over every frame of every run.
    public static func measure(_ benchCase: BenchCase, on image: Image, threads: Int, runs: Int) -> BenchResult {
        let prepared = benchCase.prepare(image, threads: threads)
        if case .motion(let renderer, let states)? = prepared {
            return measureFrames(benchCase.description, renderer, states, threads: threads, runs: runs)
        }
        var sink = benchCase.run(image, threads: threads, prepared: prepared).pixels.count
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = benchCase.run(image, threads: threads, prepared: prepared)
            let end = DispatchTime.now().uptimeNanoseconds
            sink &+= Int(result.pixels[result.pixels.count / 2])
            times.append(Double(end - start) / 1e6)
        }
        precondition(sink != Int.min)  // keeps `sink` alive
        return result(benchCase.description, times, width: image.width, height: image.height, threads: threads, runs: runs)
    }

    private static func measureFrames(_ name: String, _ renderer: MotionRenderer, _ states: [DriverState], threads: Int, runs: Int) -> BenchResult {
        var sink = 0, times: [Double] = []
        for state in states { sink &+= Int(try! renderer.frame(at: state).pixels[0]) }
        for _ in 0..<runs {
            for state in states {
                let start = DispatchTime.now().uptimeNanoseconds
                let frame = try! renderer.frame(at: state)
                let end = DispatchTime.now().uptimeNanoseconds
                sink &+= Int(frame.pixels[frame.pixels.count / 2])
                times.append(Double(end - start) / 1e6)
            }
        }
        precondition(sink != Int.min)
        let scene = renderer.motion.scene
        return result(name, times, width: scene.pixelWidth, height: scene.pixelHeight, threads: threads, runs: runs)
    }

    private static func result(_ name: String, _ times: [Double], width: Int, height: Int, threads: Int, runs: Int) -> BenchResult {
        let times = times.sorted()
        let median = times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
        return BenchResult(name: name, width: width, height: height, threads: threads, runs: runs,
                           medianMilliseconds: median, minimumMilliseconds: times[0],
                           meanMilliseconds: times.reduce(0, +) / Double(times.count))
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
