import FrostCodecs
import FrostCore
import FrostFiles

/// An animation written as something other than one image file: an H.264 video (`anim.mp4`,
/// through ffmpeg) or one file per frame (`frames/%04d.png`: printf's `%d` or `%0Nd`, frames
/// counted from 0 as `--frame` counts them).
enum FrameOutput: Equatable {
    case video(String)
    case frames(String)

    /// The output `path` names, or nil for an ordinary image file.
    init?(path: String) {
        if Self.isVideo(path) { self = .video(path) }
        else if Self.numberField(in: path) != nil { self = .frames(path) }
        else { return nil }
    }

    /// The video's path, or the frames' pattern.
    var path: String {
        switch self {
        case .video(let path), .frames(let path): path
        }
    }

    static func isVideo(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".mp4")
    }

    /// Where a frame number goes in `path` (the last `%d` or `%0Nd`, N 1–9: an input's name filled
    /// into `out/%s-%03d.png` comes before it), and its width (0: as many digits as it takes).
    static func numberField(in path: String) -> (range: Range<String.Index>, digits: Int)? {
        var found: (Range<String.Index>, Int)?
        var start = path.startIndex
        while let percent = path[start...].firstIndex(of: "%") {
            start = path.index(after: percent)
            var end = start, digits = 0
            if end < path.endIndex, path[end] == "0" {
                end = path.index(after: end)
                guard end < path.endIndex, let width = path[end].wholeNumberValue, width > 0 else { continue }
                digits = width
                end = path.index(after: end)
            }
            if end < path.endIndex, path[end] == "d" { found = (percent..<path.index(after: end), digits) }
        }
        return found
    }

    /// `pattern` with frame `index` in its number field.
    static func framePath(_ pattern: String, _ index: Int) -> String {
        let (range, digits) = numberField(in: pattern)!
        let number = String(index)
        return pattern.replacingCharacters(in: range, with: String(repeating: "0", count: max(0, digits - number.count)) + number)
    }

    /// Writes `animation`: the video as a whole (a temporary file renamed when ffmpeg succeeds), or
    /// each frame as a file of `format` (each written whole, then renamed).
    func write(_ animation: Animation, format: ImageFormat, options: EncodeOptions, threads: Int?) throws {
        switch self {
        case .video(let path):
            let timing = VideoTiming(delays: animation.delays)
            let video = try VideoPipe(path: path, width: animation.frames[0].width, height: animation.frames[0].height, rate: timing.rate)
            for (frame, repeats) in zip(animation.frames, timing.repeats) {
                for _ in 0..<repeats { try video.write(frame) }
            }
            try video.finish()
        case .frames(let pattern):
            if let slash = pattern.lastIndex(of: "/"), slash != pattern.startIndex {
                try FileIO.makeFolder(String(pattern[..<slash]))
            }
            for (index, frame) in animation.frames.enumerated() {
                try FileIO.writeAtomically(try frame.encoded(as: format, options: options, threads: threads), to: Self.framePath(pattern, index))
            }
        }
    }
}

/// A constant frame rate for frames of varying delays, as MP4 players expect: each frame repeated
/// for as many ticks as it shows. The rate is 1000/g frames a second for g the greatest common
/// divisor of the delays in milliseconds (exact: a GIF of 0.1 s and 0.3 s delays is 10 frames a
/// second), or 60 when that would be faster; then each frame starts at the tick nearest its time
/// and a frame that rounds to no tick is left out.
struct VideoTiming: Equatable {
    /// Frames a second, as ffmpeg's `-r` takes it ("10", "100/3").
    let rate: String
    /// How many ticks each frame shows (0: skipped).
    let repeats: [Int]

    static let fastest = 60

    init(delays: [Double]) {
        let milliseconds = delays.map { max(1, Int(($0 * 1000).rounded())) }
        let g = milliseconds.reduce(0) { Self.gcd($0, $1) }
        // Ticks per second = numerator / denominator.
        let common = Self.gcd(1000, g)
        let (numerator, denominator) = Self.fastest * g >= 1000 ? (1000 / common, g / common) : (Self.fastest, 1)
        rate = denominator == 1 ? String(numerator) : "\(numerator)/\(denominator)"
        var start = 0, startTick = 0
        var repeats = milliseconds.map { delay in
            start += delay
            let end = (start * numerator + denominator * 500) / (denominator * 1000)
            defer { startTick = end }
            return end - startTick
        }
        if startTick == 0, !repeats.isEmpty { repeats[repeats.count - 1] = 1 }   // all shorter than half a tick
        self.repeats = repeats
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
