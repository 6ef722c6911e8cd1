@_spi(Kernels) import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// Core Image's color controls on premultiplied pixels (docs/design.md, Algorithms), applied in this order:
/// saturation (mix with Rec.709 luma, extrapolating above 1), brightness c + b, contrast
/// (c − ½)·k + ½ (CIColorControls), then gamma c^p (CIGammaAdjust).
///
/// On a premultiplied sample c·a every step keeps its meaning for the color c: brightness adds
/// b·a, contrast pivots at a/2, gamma is a·(c/a)^p; results are clamped to 0…a. So a fully
/// transparent pixel stays transparent black, never brightened. A straight-alpha image is
/// adjusted as straight colors and stays straight: the same map (each step is linear in (c, a)
/// or, gamma, homogeneous), without premultiplying it first and rounding to the alpha's steps.
public struct ColorAdjustment: Sendable, Equatable {
    /// Added to each channel (CIColorControls' inputBrightness).
    public var brightness: Double
    /// Around mid-gray: (c − 0.5)·k + 0.5; 1 leaves it.
    public var contrast: Double
    /// Toward (0) or away from (above 1) the Rec. 709 luma.
    public var saturation: Double
    /// c^gamma (CIGammaAdjust's inputPower); 1 leaves it.
    public var gamma: Double

    /// The controls; the defaults change nothing.
    public init(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1, gamma: Double = 1) {
        self.brightness = brightness
        self.contrast = contrast
        self.saturation = saturation
        self.gamma = gamma
    }

    /// True when applying them changes nothing.
    public var isIdentity: Bool { brightness == 0 && contrast == 1 && saturation == 1 && gamma == 1 }

    /// Rec.709 luma weights.
    static let luma: [Double] = [0.2126, 0.7152, 0.0722]

    /// Saturation, brightness and contrast as one affine map on premultiplied values:
    /// rgb' = k·(S·rgb) + (k·b + ½(1 − k))·a, alpha unchanged. S = s·I + (1 − s)·1·lumaᵀ is the
    /// identity plus a rank-one term, so the kernel runs it as rgb' = ks·rgb + (k(1 − s)·luma(rgb) + t·a).
    var affineKernel: AffineColorKernel {
        let s = saturation, k = contrast
        let t = k * brightness + 0.5 * (1 - k)
        let mix = Self.luma.map { Float($0 * (1 - s) * k) }
        return AffineColorKernel(.init(scale: Float(s * k), mix: SIMD3(mix[0], mix[1], mix[2]), alpha: Float(t)))
    }
}

extension Image {
    /// The image with `adjustment` applied, clamped, in the alpha form it came in (straight or
    /// premultiplied; transparent pixels transparent black either way).
    public func adjusted(_ adjustment: ColorAdjustment, threads: Int? = nil) -> Image {
        // Straight data takes the pass anyway: its transparent pixels' colors become 0.
        guard !adjustment.isIdentity || readsStraightAlpha else { return self }
        let threads = RowBands.threads(threads)
        var out = applying(adjustment.affineKernel, threads: threads, keepingStraightAlpha: true)
        if adjustment.gamma != 1 {
            let gamma = GammaTable(power: adjustment.gamma), straight = out.readsStraightAlpha
            out.pixels.withUnsafeMutableBufferPointer {
                gamma.apply($0.baseAddress!, pixels: width * height, straight: straight, threads: threads)
            }
        }
        if adjustment.saturation != 1 { out.isGray = out.isGray && adjustment.saturation >= 0 }
        return out
    }
}

/// c ↦ a·(c/a)^p on premultiplied bytes (a = 255 for straight ones) through a table of x^p over
/// 4097 points of [0, 1] with linear interpolation (error under 0.01 level).
struct GammaTable {
    static let size = 4096
    let table: [Float]

    init(power: Double) {
        table = (0...Self.size).map { Float(pow(Double($0) / Double(Self.size), power)) }
    }

    func apply(_ p: UnsafeMutablePointer<UInt8>, pixels: Int, straight: Bool, threads: Int) {
        table.withUnsafeBufferPointer { t in
            RowBands.run(pixels, threads: threads, minimumBand: 16384) { range in
                for n in range {
                    let q = p + 4 * n
                    let a: Float = straight ? 255 : Float(q[3])
                    guard a > 0 else { continue }
                    for c in 0..<3 {
                        let u = min(Float(q[c]) / a, 1) * Float(Self.size)
                        let i = min(Int(u), Self.size - 1)
                        q[c] = LaneConversion.byte(a * (t[i] + (t[i + 1] - t[i]) * (u - Float(i))))
                    }
                }
            }
        }
    }
}
