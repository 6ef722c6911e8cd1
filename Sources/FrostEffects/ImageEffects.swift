@_spi(Kernels) import FrostCore

/// Apple's UIImage+ImageEffects v1.0 (WWDC 2013), the blur the seed apps shipped, with its
/// exact semantics (docs/design.md, Algorithms):
/// - blur: radius r points × scale → d = ⌊r·scale·3·√(2π)/4 + 0.5⌋, made odd; three box passes
///   of d×d (vImageBoxConvolve, edge extend), each rounded to 8 bits, premultiplied;
/// - saturation s after the blur: the vImage matrix L + s(C − L) with Rec.709 luma, each
///   coefficient rounded to 1/256 (including Apple's 0.7873 for red's own weight);
/// - the effect image is drawn over the original (limited by the mask's coverage), then the
///   tint color is drawn source-over across the whole image.
/// One deliberate difference: saturated samples are clamped to their alpha as well as to 255,
/// so a transparent image stays valid premultiplied data (opaque images are unaffected).
extension Image {
    /// UIImage+ImageEffects' `applyBlurWithRadius:tintColor:saturationDeltaFactor:maskImage:` (above): radius in points at `scale` pixels per point.
    public func applyBlur(radius: Double, tintColor: Color? = nil, saturationDeltaFactor: Double = 1,
                          maskImage: Image? = nil, scale: Double = 1, threads: Int? = nil) -> Image {
        let original = premultiplied()
        let epsilon = Double(Float.ulpOfOne)  // __FLT_EPSILON__, as the Objective-C tests it
        let hasBlur = radius > epsilon
        let hasSaturationChange = abs(saturationDeltaFactor - 1) > epsilon
        var output = original
        if hasBlur || hasSaturationChange {
            var effect = original
            if hasBlur {
                let boxRadius = ImageEffectsMath.boxRadius(radius: radius, scale: scale)
                for _ in 0..<3 { effect = effect.boxBlurred(radius: boxRadius, threads: threads) }
            }
            if hasSaturationChange {
                effect = effect.saturationMatrixApplied(ImageEffectsMath.saturationMatrix(saturationDeltaFactor), threads: threads)
            }
            // Source-over of an opaque effect is the effect itself: skip the pass when nothing
            // (no mask, no transparency) can let the original show through.
            output = maskImage == nil && !effect.hasAlpha ? effect : effect.drawn(over: original, mask: maskImage, threads: threads)
        }
        if let tintColor {
            output = output.filled(with: tintColor, threads: threads)
        }
        output.isGray = isGray && (tintColor.map { $0.red == $0.green && $0.green == $0.blue } ?? true)
            && !hasSaturationChange
        return output
    }

    /// `applyBlur` with a parameter set (a preset or the parameters of a scene's backdrop).
    public func applyEffect(_ effect: EffectParameters, maskImage: Image? = nil, scale: Double = 1, threads: Int? = nil) -> Image {
        applyBlur(radius: effect.radius, tintColor: effect.tint, saturationDeltaFactor: effect.saturation,
                  maskImage: maskImage, scale: scale, threads: threads)
    }

    /// `applyLightEffect`: radius 30, white α 0.3, saturation 1.8.
    public func applyLightEffect(scale: Double = 1, threads: Int? = nil) -> Image {
        applyEffect(.light, scale: scale, threads: threads)
    }

    /// `applyExtraLightEffect`: radius 20, white 0.97 α 0.82, saturation 1.8.
    public func applyExtraLightEffect(scale: Double = 1, threads: Int? = nil) -> Image {
        applyEffect(.extraLight, scale: scale, threads: threads)
    }

    /// `applyDarkEffect`: radius 20, white 0.11 α 0.73, saturation 1.8.
    public func applyDarkEffect(scale: Double = 1, threads: Int? = nil) -> Image {
        applyEffect(.dark, scale: scale, threads: threads)
    }

    /// `applyTintEffectWithColor:`: radius 10, the color at α 0.6, saturation −1.
    public func applyTintEffect(color: Color, scale: Double = 1, threads: Int? = nil) -> Image {
        applyEffect(.tint(color), scale: scale, threads: threads)
    }
}

/// UIImage+ImageEffects parameters: blur radius in points, tint drawn over, saturation factor.
public struct EffectParameters: Sendable, Equatable {
    /// The blur radius in points.
    public var radius: Double
    /// Drawn source-over across the result.
    public var tint: Color?
    /// The saturation delta factor: 1 leaves color alone, 0 is gray, −1 inverts hue.
    public var saturation: Double

    /// ImageEffects parameters.
    public init(radius: Double, tint: Color? = nil, saturation: Double = 1) {
        self.radius = radius
        self.tint = tint
        self.saturation = saturation
    }

    /// The parameters of `applyLightEffect(scale:threads:)`.
    public static let light = EffectParameters(radius: 30, tint: Color(white: 1, alpha: 0.3), saturation: 1.8)
    /// The parameters of `applyExtraLightEffect(scale:threads:)`.
    public static let extraLight = EffectParameters(radius: 20, tint: Color(white: 0.97, alpha: 0.82), saturation: 1.8)
    /// The parameters of `applyDarkEffect(scale:threads:)`.
    public static let dark = EffectParameters(radius: 20, tint: Color(white: 0.11, alpha: 0.73), saturation: 1.8)
    /// The parameters of `applyTintEffect(color:scale:threads:)`.
    public static func tint(_ color: Color) -> EffectParameters {
        EffectParameters(radius: 10, tint: color.withAlpha(0.6), saturation: -1)
    }

    /// A preset by its command-line name: light, extra-light, dark or tint:COLOR.
    public init?(preset name: String) {
        switch name {
        case "light": self = .light
        case "extra-light": self = .extraLight
        case "dark": self = .dark
        default:
            guard name.hasPrefix("tint:"), let color = try? Color(parsing: String(name.dropFirst(5))) else { return nil }
            self = .tint(color)
        }
    }
}

/// The numbers of UIImage+ImageEffects v1.0.
public enum ImageEffectsMath {
    /// The widest box `boxBlurred` takes (radius in pixels): an effect needing more is refused.
    public static let maximumBoxRadius = BoxBlur.maximumRadius

    /// The box radius (d − 1)/2 of each of the three passes for a blur radius in points.
    public static func boxRadius(radius: Double, scale: Double) -> Int {
        let inputRadius = radius * scale
        var d = Int((inputRadius * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        if d % 2 != 1 { d += 1 }
        return (d - 1) / 2
    }

    /// The 3×3 saturation matrix in 1/256 units, `m[out][in]` over (R, G, B): Apple's
    /// floating-point matrix (written for BGRA memory order) transposed to RGBA and rounded.
    public static func saturationMatrix(_ s: Double) -> [[Int32]] {
        let float: [[Double]] = [
            [0.2126 + 0.7873 * s, 0.7152 - 0.7152 * s, 0.0722 - 0.0722 * s],   // R out
            [0.2126 - 0.2126 * s, 0.7152 + 0.2848 * s, 0.0722 - 0.0722 * s],   // G out
            [0.2126 - 0.2126 * s, 0.7152 - 0.7152 * s, 0.0722 + 0.9278 * s],   // B out
        ]
        // roundf(x · 256) in single precision, as the Objective-C code does.
        return float.map { $0.map { Int32((Float($0) * 256).rounded()) } }
    }
}

extension Image {
    /// vImageMatrixMultiply with divisor 256: out = ⌊(Σ m·in + 128) / 256⌋, clamped to 0…min(255, α).
    func saturationMatrixApplied(_ m: [[Int32]], threads: Int?) -> Image {
        var rows = m.map { $0.map { Float($0) / 256 } + [0] }
        rows.append([0, 0, 0, 1])
        return applying(AffineColorKernel(matrix: rows, bias: 1 / 512), threads: threads)
    }

    /// The premultiplied pixels through an affine color kernel, into a new buffer. Straight alpha
    /// is premultiplied as it is read, or, `keepingStraightAlpha` (a `LumaMix` kernel only),
    /// adjusted as straight colors and left straight (`AffineColorKernel.Alpha.straight`).
    func applying(_ kernel: AffineColorKernel, threads: Int?, keepingStraightAlpha: Bool = false) -> Image {
        var out = self
        let alpha: AffineColorKernel.Alpha = readsStraightAlpha ? (keepingStraightAlpha ? .straight : .premultiplying) : .premultiplied
        out.isPremultiplied = alpha != .straight
        let count = width * height
        out.pixels = pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: 4 * count) { target, initialized in
                kernel.apply(source.baseAddress!, into: target.baseAddress!, pixels: count, threads: RowBands.threads(threads),
                             alpha: alpha)
                initialized = 4 * count
            }
        }
        return out
    }

    /// Runs an affine color kernel over the pixels in place (premultiplying straight alpha as it reads).
    mutating func apply(_ kernel: AffineColorKernel, threads: Int?) {
        let count = width * height, alpha: AffineColorKernel.Alpha = readsStraightAlpha ? .premultiplying : .premultiplied
        pixels.withUnsafeMutableBufferPointer {
            kernel.apply($0.baseAddress!, into: $0.baseAddress!, pixels: count, threads: RowBands.threads(threads),
                         alpha: alpha)
        }
        isPremultiplied = true
    }

    /// self source-over `base` (both premultiplied), where `mask` allows; mask coverage is the
    /// mask's alpha when it has one, else its gray level (CGContextClipToMask), resized to fit,
    /// and acts as a per-pixel opacity (`SourceOver`).
    /// Without a mask this is `SourceOver` (t + round(b·(255 − αt)/255), the same bytes as the
    /// float formula rounded once: t is whole and b·(255 − αt)/255 is never a tie), eight pixels
    /// per step; the per-pixel float loop it replaces doubled ImageEffects' time on images with alpha.
    func drawn(over base: Image, mask: Image?, threads: Int? = nil) -> Image {
        var out = base
        let coverage = mask?.coverage(width: width, height: height) ?? []
        // Out of place: reads the effect and the original once, writes once.
        out.pixels = pixels.withUnsafeBufferPointer { top in
            base.pixels.withUnsafeBufferPointer { under in
                coverage.withUnsafeBufferPointer { k in
                    [UInt8](unsafeUninitializedCapacity: under.count) { target, count in
                        let t = top.baseAddress!, b = under.baseAddress!, o = target.baseAddress!, w = width
                        RowBands.run(height, threads: RowBands.threads(threads), minimumBand: 32) { rows in
                            let start = w * rows.lowerBound, n = w * rows.count
                            if mask != nil {
                                SourceOver.run(t + 4 * start, over: b + 4 * start, into: o + 4 * start, pixels: n, coverage: k.baseAddress! + start)
                            } else {
                                SourceOver.run(t + 4 * start, over: b + 4 * start, into: o + 4 * start, pixels: n)
                            }
                        }
                        count = under.count
                    }
                }
            }
        }
        return out
    }

    /// The color drawn source-over every pixel: out = c + (1 − α_c)·v (premultiplied), one
    /// affine kernel pass rounded once.
    public func filled(with color: Color, threads: Int? = nil) -> Image {
        var out = applying(Self.fillKernel(color), threads: threads)
        out.hasAlpha = hasAlpha && color.alpha < 1
        return out
    }

    /// `filled(with:)` in place (no copy of the pixels).
    public mutating func fill(with color: Color, threads: Int? = nil) {
        apply(Self.fillKernel(color), threads: threads)
        hasAlpha = hasAlpha && color.alpha < 1
    }

    /// out = (1 − α)·v + c: source-over of a premultiplied color as an affine kernel.
    private static func fillKernel(_ color: Color) -> AffineColorKernel {
        let keep = Float(1 - color.alpha)
        let matrix = (0..<4).map { r in (0..<4).map { c in r == c ? keep : 0 } }
        return AffineColorKernel(matrix: matrix, offset: SIMD4<Float>(color.premultiplied255))
    }

    /// Per-pixel coverage 0…255 for use as a mask, resized to width × height.
    func coverage(width w: Int, height h: Int) -> [UInt8] {
        let fitted = (width == w && height == h) ? self : resized(width: w, height: h)
        let straight = fitted.unpremultiplied()
        let useAlpha = straight.hasAlpha || straight.containsTransparency
        let p = straight.pixels
        return (0..<(w * h)).map { n -> UInt8 in
            useAlpha ? p[4 * n + 3] : rec709Luma(p[4 * n], p[4 * n + 1], p[4 * n + 2])
        }
    }
}
