import Foundation
import FrostCompose

/// A recorded device attitude: rows of time (seconds), pitch and roll (radians), as an app logs
/// Core Motion's `CMAttitude` (the App Store seed read it every 0.02 s), at any rate. Played by a
/// tilt timeline, which samples it with linear interpolation between the rows around each frame.
public struct TiltTrace: Sendable, Equatable {
    /// One row: a time and the attitude then.
    public struct Sample: Sendable, Equatable {
        /// Seconds, ascending.
        public let time: Double
        /// Radians (CMAttitude.pitch).
        public let pitch: Double
        /// Radians (CMAttitude.roll).
        public let roll: Double
        /// A row as recorded.
        public init(time: Double, pitch: Double, roll: Double) {
            (self.time, self.pitch, self.roll) = (time, pitch, roll)
        }
    }

    /// At least one, times strictly ascending.
    public let samples: [Sample]

    /// The most rows a trace may have (an hour at 50 Hz is 180000).
    public static let maximumRows = 200_000

    /// Times strictly ascending, finite values; at least one sample.
    public init(_ samples: [Sample]) throws(ComposeError) {
        for (i, sample) in samples.enumerated() {
            if let problem = Self.problem(sample, after: i > 0 ? samples[i - 1] : nil) { throw ComposeError("row \(i + 1)", problem) }
        }
        try self.init(checked: samples)
    }

    /// Samples each already checked against the one before (`problem`): at least one, and not
    /// more than `maximumRows`. The readers check as they go, naming a line or a JSON path.
    init(checked samples: [Sample]) throws(ComposeError) {
        guard !samples.isEmpty else { throw ComposeError("", "a trace needs at least one row of t,pitch,roll") }
        guard samples.count <= Self.maximumRows else { throw ComposeError("", "more than \(Self.maximumRows) rows") }
        self.samples = samples
    }

    /// Why `sample` cannot follow `previous` in a trace, or nil.
    static func problem(_ sample: Sample, after previous: Sample?) -> String? {
        guard sample.time.isFinite, sample.pitch.isFinite, sample.roll.isFinite else { return "t, pitch and roll must be finite numbers" }
        if let previous, sample.time <= previous.time { return "times must ascend (\(sample.time) comes after \(previous.time))" }
        return nil
    }

    /// Parses CSV text: `t,pitch,roll` per line, an optional header line of those names, blank
    /// lines and `#` comments skipped. Errors name the line: "line 7: 'abc' is not a number".
    public init(csv bytes: [UInt8]) throws(ComposeError) {
        var samples: [Sample] = []
        let text = String(decoding: bytes, as: UTF8.self)
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
            if samples.isEmpty, cells.map({ $0.lowercased() }) == ["t", "pitch", "roll"] { continue }
            guard cells.count == 3 else {
                throw ComposeError("line \(n + 1)", "expected 3 cells t,pitch,roll, found \(cells.count)")
            }
            var numbers: [Double] = []
            for cell in cells {
                guard let x = Double(cell), x.isFinite else { throw ComposeError("line \(n + 1)", "'\(cell)' is not a number") }
                numbers.append(x)
            }
            let sample = Sample(time: numbers[0], pitch: numbers[1], roll: numbers[2])
            if let problem = Self.problem(sample, after: samples.last) { throw ComposeError("line \(n + 1)", problem) }
            guard samples.count < Self.maximumRows else { throw ComposeError("line \(n + 1)", "more than \(Self.maximumRows) rows") }
            samples.append(sample)
        }
        try self.init(checked: samples)
    }

    /// Seconds from the first row to the last.
    public var duration: Double { samples[samples.count - 1].time - samples[0].time }

    /// Pitch and roll at `elapsed` seconds from the first row: linear between the rows around it,
    /// held before the first and after the last.
    public func attitude(at elapsed: Double) -> (pitch: Double, roll: Double) {
        let t = samples[0].time + elapsed
        guard t > samples[0].time else { return (samples[0].pitch, samples[0].roll) }
        guard t < samples[samples.count - 1].time else { return (samples[samples.count - 1].pitch, samples[samples.count - 1].roll) }
        // The last row at or before t (binary search: traces have thousands of rows).
        var low = 0, high = samples.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if samples[mid].time <= t { low = mid } else { high = mid }
        }
        let a = samples[low], b = samples[high], f = (t - a.time) / (b.time - a.time)
        return (a.pitch + (b.pitch - a.pitch) * f, a.roll + (b.roll - a.roll) * f)
    }
}
