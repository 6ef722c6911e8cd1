import FrostCore
import FrostEffects

/// A named, parametric benchmark case (`frost bench --case NAME`): `copy`, `box-r<R>`,
/// `gauss-s<σ>`, `effect-light`, `adjust`. The same cases run in Benchmarks/ and in
/// `make compare`, so numbers line up.
public enum BenchCase: Sendable, Equatable, CustomStringConvertible {
    /// A plain copy of the same bytes: the memory floor, measured in the same run.
    case copy
    case box(radius: Int)
    case gaussian(sigma: Double)
    /// UIImage+ImageEffects `applyLightEffect` (radius 30, scale 1).
    case effectLight
    /// Color controls: brightness 0.1, contrast 1.2, saturation 1.3.
    case adjust

    /// The cases `frost bench` runs when none is named.
    public static let standard: [BenchCase] = [.copy, .box(radius: 40), .gaussian(sigma: 2), .gaussian(sigma: 4),
                                               .gaussian(sigma: 20), .gaussian(sigma: 200), .effectLight, .adjust]

    public static let adjustment = ColorAdjustment(brightness: 0.1, contrast: 1.2, saturation: 1.3)

    public init?(name: String) {
        switch name {
        case "copy": self = .copy
        case "effect-light": self = .effectLight
        case "adjust": self = .adjust
        default:
            if name.hasPrefix("box-r"), let r = Int(name.dropFirst(5)), (0...1000).contains(r) {
                self = .box(radius: r)
            } else if name.hasPrefix("gauss-s"), let s = Double(name.dropFirst(7)), s.isFinite, (0...250).contains(s) {
                self = .gaussian(sigma: s)
            } else {
                return nil
            }
        }
    }

    public var description: String {
        switch self {
        case .copy: "copy"
        case .box(let r): "box-r\(r)"
        case .gaussian(let s): "gauss-s\(s == s.rounded() ? String(Int(s)) : String(s))"
        case .effectLight: "effect-light"
        case .adjust: "adjust"
        }
    }

    /// Runs the case once on `image`; the result is returned so the work cannot be elided.
    public func run(_ image: Image, threads: Int) -> Image {
        switch self {
        case .copy:
            var copy = image
            copy.pixels = image.pixels.withUnsafeBufferPointer { Array($0) }
            return copy
        case .box(let r): return image.boxBlurred(radius: r, threads: threads)
        case .gaussian(let s): return image.gaussianBlurred(sigma: s, threads: threads)
        case .effectLight: return image.applyLightEffect(threads: threads)
        case .adjust: return image.adjusted(Self.adjustment, threads: threads)
        }
    }
}
