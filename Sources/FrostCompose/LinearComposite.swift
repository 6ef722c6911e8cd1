@_spi(Kernels) import FrostCore
import FrostEffects

/// `BlendComposite`'s formula in linear light (`compose --linear`): source and backdrop, both
/// premultiplied sRGB bytes, are un-premultiplied, decoded to light and premultiplied there, blended
/// with B(Cb, Cs) on their straight light, and the result encoded back to premultiplied sRGB
/// bytes. The canvas stays in bytes between layers: each layer's blend rounds once, as in sRGB.
enum LinearComposite {
    static func run(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, pixels: Int, mode: BlendMode, opacity k: UInt8) {
        let opacity = Float(k) / 255
        LinearLight.lights.withUnsafeBufferPointer { light in
            func decoded(_ p: UnsafePointer<UInt8>) -> (straight: SIMD4<Float>, alpha: Float) {
                let a = p[3]
                guard a > 0 else { return (.zero, 0) }
                var c = SIMD4<Float>(repeating: 0)
                for i in 0..<3 { c[i] = light[Int(min(255, (UInt32(p[i]) * 255 + UInt32(a) / 2) / UInt32(a)))] }
                return (c, Float(a) / 255)
            }
            for p in 0..<pixels {
                let s = decoded(src + 4 * p)
                if s.alpha == 0 { continue }
                let target = dst + 4 * p
                let b = decoded(UnsafePointer(target))
                // co = k·cs·(1 − αb) + cb·(1 − k·αs) + k·αs·αb·B(Cb, Cs) on premultiplied light.
                let mixed = mode.mix(backdrop: b.straight, source: s.straight) * (s.alpha * b.alpha)
                let o = (s.straight * s.alpha * (1 - b.alpha) + mixed) * opacity + b.straight * b.alpha * (1 - opacity * s.alpha)
                let alpha = opacity * s.alpha + b.alpha * (1 - opacity * s.alpha)
                let a = LaneConversion.byte(alpha * 255)
                for i in 0..<3 {
                    let straight = alpha > 0 ? LinearLight.byte(light: o[i] / alpha) : 0
                    target[i] = UInt8(divideBy255(UInt32(straight) * UInt32(a)))
                }
                target[3] = a
            }
        }
    }
}
