import Foundation

/// The filter a resize samples with. Where an axis shrinks by s > 1, the filter is stretched by s
/// (its support grows s times), so every source pixel contributes and nothing aliases; edges
/// repeat the border pixel.
public enum ResampleKernel: String, Sendable, CaseIterable {
    /// The source pixel under each output center, no filtering (Pillow's NEAREST).
    case nearest
    /// A triangle, support 1: bilinear when enlarging (Pillow's BILINEAR, libvips's linear).
    case linear
    /// Catmull-Rom's cubic (Keys, a = −½), support 2 (Pillow's BICUBIC, libvips's cubic).
    case cubic
    /// Mitchell–Netravali's cubic with B = C = ⅓, support 2: softer than Catmull-Rom, less ringing.
    case mitchell
    /// sinc(x)·sinc(x/3), support 3: the sharpest (libvips's, sharp's and ImageMagick's choice for
    /// thumbnails), with slight ringing at hard edges.
    case lanczos3
    /// The area average: each output pixel is the mean of the source area it covers, partial
    /// pixels weighted by how much of them it covers (OpenCV's INTER_AREA); `box` on the command line.
    case area

    /// Frost's default for resizing: lanczos3, what libvips, sharp and ImageMagick use for
    /// thumbnails, so that a picture resized by Frost looks as users of those expect; its ringing
    /// stays below a level or two on photographs, and with fixed-point taps its cost is a fraction
    /// of decoding the image it shrinks (docs/performance.md).
    public static let `default` = ResampleKernel.lanczos3

    /// The filter's half-width at scale 1, in source pixels (0 for the two that are not sampled filters).
    var support: Double {
        switch self {
        case .nearest, .area: 0
        case .linear: 1
        case .cubic, .mitchell: 2
        case .lanczos3: 3
        }
    }

    /// Whether the filter goes negative somewhere (so that it can ring past the samples' range).
    var hasNegativeLobes: Bool { self == .cubic || self == .mitchell || self == .lanczos3 }

    /// The filter at x (source pixels at scale 1) for the sampled filters.
    func value(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .linear:
            return max(0, 1 - x)
        case .cubic:
            // Keys (1981), a = −½.
            let a = -0.5
            if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
            if x < 2 { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a }
            return 0
        case .mitchell:
            // Mitchell & Netravali (1988), B = C = 1/3.
            let b = 1.0 / 3, c = 1.0 / 3
            if x < 1 { return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6 }
            if x < 2 { return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6 }
            return 0
        case .lanczos3:
            return Self.lanczos3Value(x, sineOfY: sin(Double.pi * x / 3))
        case .nearest, .area:
            preconditionFailure("\(self) is not a sampled filter")
        }
    }

    /// sinc(x)·sinc(x/3) at |x| from the sine of y = πx/3: sin(πx) = sin(3y) = 3 sin y − 4 sin³ y,
    /// so one sine per tap (`taps` gets it by angle addition from the tap before).
    static func lanczos3Value(_ x: Double, sineOfY s: Double) -> Double {
        if x == 0 { return 1 }
        if x >= 3 { return 0 }
        let y = Double.pi * x / 3
        return s * s * (3 - 4 * s * s) / (3 * y * y)
    }

    /// The taps of output pixel `center` (its center in source index space, pixel i centered at i)
    /// over n source pixels shrunk by `scale` (source pixels per output pixel): the first source
    /// index and the weights from there, outside indices folded onto the edge, summing to 1,
    /// appended to `taps` (`scratch` is working space: an axis makes a run per output pixel, and
    /// arrays of their own cost as much as the weights).
    func taps(center: Double, scale: Double, count n: Int, appendingTo taps: inout [Double], scratch raw: inout [Double]) -> Int {
        let reach = self == .area ? scale / 2 + 0.5 : self == .nearest ? 0.5 : support * max(1, scale)
        let low = Int((center - reach).rounded(.down)), high = Int((center + reach).rounded(.up))
        // Weights of indices low...high, folded onto 0..<n in place (index i − low → clamped i − first).
        raw.removeAll(keepingCapacity: true)
        raw.append(contentsOf: repeatElement(0, count: high - low + 1))
        switch self {
        case .nearest:
            raw[Int((center + 0.5).rounded(.down)) - low] = 1
        case .area:
            // The output pixel covers [center − scale/2, center + scale/2]; source pixel s covers [s − ½, s + ½].
            let from = center - scale / 2, to = center + scale / 2
            for s in low...high { raw[s - low] = max(0, min(Double(s) + 0.5, to) - max(Double(s) - 0.5, from)) }
        case .lanczos3:
            // The sine of each tap's y = πx/3 by angle addition from the one before (sin(y + δ) =
            // sin y cos δ + cos y sin δ; the taps are δ apart): four sines and cosines per output
            // pixel instead of one sine per tap, which were most of a thumbnail's plans.
            let stretch = max(1, scale), step = Double.pi / (3 * stretch)
            var sine = sin((Double(low) - center) * step), cosine = cos((Double(low) - center) * step)
            let (stepSine, stepCosine) = (sin(step), cos(step))
            for s in low...high {
                raw[s - low] = Self.lanczos3Value(abs(Double(s) - center) / stretch, sineOfY: sine)
                (sine, cosine) = (sine * stepCosine + cosine * stepSine, cosine * stepCosine - sine * stepSine)
            }
        default:
            let stretch = max(1, scale)
            for s in low...high { raw[s - low] = value((Double(s) - center) / stretch) }
        }
        let first = min(max(low, 0), n - 1), last = min(max(high, 0), n - 1)
        for k in 0..<raw.count {
            let i = min(max(low + k, 0), n - 1) - first
            if i != k { raw[i] += raw[k]; raw[k] = 0 }   // i ≤ k always: weights fold only downwards
        }
        let folded = raw[0...(last - first)]
        // Trim zero weights at both ends.
        let start = folded.firstIndex { $0 != 0 } ?? 0, stop = folded.lastIndex { $0 != 0 } ?? 0
        let total = folded[start...stop].reduce(0, +)
        guard total > 0 else {
            taps.append(1)
            return min(max(Int(center.rounded()), 0), n - 1)
        }
        for w in folded[start...stop] { taps.append(w / total) }
        return first + start
    }
}
