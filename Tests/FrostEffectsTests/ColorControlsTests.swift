@testable import FrostEffects
@_spi(Kernels) import FrostCore
import FrostTestSupport
import Foundation
import Testing

/// Color controls against their formulas, on straight colors in Double.
@Suite struct ColorControlsTests {
    static func formula(_ c: SIMD3<Double>, _ a: ColorAdjustment) -> SIMD3<Double> {
        let luma = (c * SIMD3(0.2126, 0.7152, 0.0722)).sum()
        var v = SIMD3(repeating: luma) + a.saturation * (c - SIMD3(repeating: luma))
        v += SIMD3(repeating: a.brightness)
        v = (v - 0.5) * a.contrast + 0.5
        v = v.replacing(with: 0, where: v .< 0).replacing(with: 1, where: v .> 1)
        return SIMD3(pow(v.x, a.gamma), pow(v.y, a.gamma), pow(v.z, a.gamma))
    }

    static let adjustments = [
        ColorAdjustment(brightness: 0.1), ColorAdjustment(brightness: -0.3), ColorAdjustment(contrast: 1.5),
        ColorAdjustment(contrast: 0.4), ColorAdjustment(saturation: 0), ColorAdjustment(saturation: 2.5),
        ColorAdjustment(gamma: 2.2), ColorAdjustment(gamma: 0.5),
        ColorAdjustment(brightness: 0.1, contrast: 1.2, saturation: 1.3, gamma: 1.4),
    ]

    /// Within half a level, plus, with gamma, the affine result's rounding carried through the
    /// slope of c^p (gamma runs on bytes): 0.5 + 0.5·max(1, p). Straight-alpha pixels too, at
    /// every alpha (they are adjusted as straight colors); transparent ones become transparent black.
    @Test(arguments: adjustments, [true, false])
    func pixelsFollowTheFormulas(_ adjustment: ColorAdjustment, opaque: Bool) {
        let image = noiseImage(width: 61, height: 7, opaque: opaque)
        let out = image.adjusted(adjustment, threads: 1)
        #expect(!out.readsStraightAlpha == opaque)
        let bound = adjustment.gamma == 1 ? 0.51 : 0.5 + 0.5 * max(1, adjustment.gamma) + 0.01
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            #expect(out.pixels[i + 3] == image.pixels[i + 3])
            guard image.pixels[i + 3] > 0 else {
                #expect(out.pixels[i..<(i + 3)].allSatisfy { $0 == 0 })
                continue
            }
            let c = SIMD3(Double(image.pixels[i]), Double(image.pixels[i + 1]), Double(image.pixels[i + 2])) / 255
            let e = Self.formula(c, adjustment) * 255
            for k in 0..<3 { #expect(abs(Double(out.pixels[i + k]) - e[k]) <= bound, "\(adjustment) pixel \(i / 4)") }
        }
    }

    /// The formulas apply to the straight color: transparent pixels stay transparent black, and a
    /// semi-transparent color is changed relative to its own alpha. A straight image stays
    /// straight and is as exact as an opaque one; a premultiplied one stays premultiplied.
    @Test(arguments: adjustments)
    func transparentPixelsAreNeverBrightened(_ adjustment: ColorAdjustment) {
        let straight = Image(width: 3, height: 1, pixels: [0, 0, 0, 0, 100, 50, 200, 128, 255, 255, 255, 0])
        let e = Self.formula(SIMD3(100, 50, 200) / 255, adjustment) * 255
        for image in [straight, straight.premultiplied()] {
            let out = image.adjusted(adjustment, threads: 1)
            #expect(out.isPremultiplied == image.isPremultiplied)
            #expect(Array(out.pixels[0..<4]) == [0, 0, 0, 0])
            #expect(Array(out.pixels[8..<12]) == [0, 0, 0, 0])
            #expect(out.pixels[7] == 128)
            let color = out.unpremultiplied()
            // Premultiplied storage at alpha 128 quantises the straight color to steps of 2.
            let bound = image.isPremultiplied ? 2.5 : (adjustment.gamma == 1 ? 0.51 : 0.5 + 0.5 * max(1, adjustment.gamma) + 0.01)
            for k in 0..<3 {
                #expect(out.premultiplied().pixels[4 + k] <= 128)
                #expect(abs(Double(color.pixels[4 + k]) - e[k]) <= bound, "\(adjustment), premultiplied: \(image.isPremultiplied)")
            }
        }
    }

    /// The SIMD kernel equals its scalar reference, byte for byte, in place and out of place
    /// (129 × 5 pixels: a tail of five pixels after the groups of eight), on premultiplied pixels
    /// and on straight ones kept straight.
    @Test(arguments: adjustments, [false, true])
    func simdKernelEqualsScalarReference(_ adjustment: ColorAdjustment, straight: Bool) {
        let noise = noiseImage(width: 129, height: 5)
        let image = straight ? noise : noise.premultiplied()
        var simd = image.pixels, scalar = image.pixels
        var copied = [UInt8](repeating: 0, count: image.pixels.count)
        let kernel = adjustment.affineKernel, alpha: AffineColorKernel.Alpha = straight ? .straight : .premultiplied
        simd.withUnsafeMutableBufferPointer {
            kernel.apply($0.baseAddress!, into: $0.baseAddress!, pixels: 129 * 5, threads: 1, alpha: alpha)
        }
        image.pixels.withUnsafeBufferPointer { source in
            copied.withUnsafeMutableBufferPointer {
                kernel.apply(source.baseAddress!, into: $0.baseAddress!, pixels: 129 * 5, threads: 2, alpha: alpha)
            }
        }
        scalar.withUnsafeMutableBufferPointer { kernel.applyScalar($0.baseAddress!, pixels: 129 * 5, straight: straight) }
        #expect(zip(simd, scalar).filter { $0 != $1 }.count == 0)
        #expect(copied == scalar)
    }

    /// Targets at every alignment: the pixels before a 32-byte boundary take the scalar path and
    /// the rest streaming stores; a target off the 4-byte grid takes ordinary stores throughout.
    /// Offsets 1…2047 past the source (modulo 4096) walk the pixels backwards, 0 and 4048 forwards
    /// (StreamOrder).
    @Test(arguments: [0, 4, 8, 12, 16, 20, 24, 28, 1, 3, 48, 4048], [false, true])
    func everyTargetAlignmentGivesTheScalarBytes(_ offset: Int, straight: Bool) {
        let image = noiseImage(width: 83, height: 3)
        let count = 83 * 3
        let kernel = ColorAdjustment(brightness: 0.1, contrast: 1.2, saturation: 1.3).affineKernel
        var scalar = straight ? image.pixels : image.premultiplied().pixels
        scalar.withUnsafeMutableBufferPointer { kernel.applyScalar($0.baseAddress!, pixels: count, straight: straight) }
        let out = withStreamPlacement([image.pixels], targetBytes: 4 * count, targetOffset: offset) { sources, target in
            kernel.apply(sources[0], into: target, pixels: count, threads: 2, alpha: straight ? .straight : .premultiplying)
            return Array(UnsafeBufferPointer(start: target, count: 4 * count))
        }
        #expect(out == scalar)
    }

    /// Coefficients no control in range produces (colors beyond ±2²⁴) take the scalar reference,
    /// which clamps in float, so they still saturate instead of wrapping through 32-bit integers.
    @Test func hugeContrastStillSaturates() {
        let adjustment = ColorAdjustment(contrast: 1e9)
        #expect(!adjustment.affineKernel.fitsIntegerRounding)
        #expect(ColorAdjustment(brightness: 1, contrast: 4, saturation: 4).affineKernel.fitsIntegerRounding)
        let image = noiseImage(width: 40, height: 4, opaque: true)
        let out = image.adjusted(adjustment, threads: 1)
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            for k in 0..<3 { #expect(out.pixels[i + k] == (image.pixels[i + k] >= 128 ? 255 : 0), "pixel \(i / 4)") }
        }
    }

    @Test func threadsGiveIdenticalPixels() {
        let image = noiseImage(width: 300, height: 200)
        let a = ColorAdjustment(brightness: 0.1, contrast: 1.2, saturation: 1.3, gamma: 1.4)
        #expect(image.adjusted(a, threads: 1) == image.adjusted(a, threads: 2))
        #expect(image.adjusted(a, threads: 1) == image.adjusted(a, threads: 5))
    }
}

extension ColorAdjustment: CustomTestStringConvertible {
    public var testDescription: String { "b\(brightness) k\(contrast) s\(saturation) g\(gamma)" }
}
