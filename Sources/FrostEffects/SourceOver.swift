import FrostCore

/// Porter-Duff source-over on premultiplied RGBA8 with a layer opacity k (0…255):
/// d' = s·k/255 + d·(1 − αs·k/255²), rounded once to nearest, so within ½ level of the formula.
/// At full opacity s is whole and d' = s + round(d·(255 − αs)/255): eight pixels per step, the 32
/// bytes read as sixteen UInt16 lanes split into even (R, B) and odd (G, A) bytes with a mask and a
/// shift (Swift's generic widening initialisers compile to calls). Below full opacity each pixel is
/// one SIMD4<Float> step. Backdrop d comes from `base`, the result goes to `dst`: the same pointer
/// composites in place, different ones in one pass without copying the backdrop first.
/// `runScalar` is the reference the tests hold the fast path to.
package enum SourceOver {
    package static func run(_ src: UnsafePointer<UInt8>, over base: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                            pixels: Int, opacity k: UInt8 = 255) {
        guard k == 255 else { return runScalar(src, over: base, into: dst, pixels: pixels, opacity: k) }
        let rs = UnsafeRawPointer(src), rb = UnsafeRawPointer(base), rd = UnsafeMutableRawPointer(dst)
        let low = SIMD16<UInt16>(repeating: 0xFF)
        var i = 0
        while i + 8 <= pixels {
            let v = rs.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<UInt16>.self)
            let evens = v & low, odds = v &>> 8
            // α sits in the high half of each pixel's odd word; 255 − α in both words of the pixel.
            let alpha = unsafeBitCast(odds, to: SIMD8<UInt32>.self) &>> 16
            let inverse = unsafeBitCast((255 &- alpha) &* 0x0001_0001, to: SIMD16<UInt16>.self)
            let d = rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<UInt16>.self)
            let outEvens = evens &+ divideBy255((d & low) &* inverse)
            let outOdds = odds &+ divideBy255((d &>> 8) &* inverse)
            rd.storeBytes(of: outEvens | outOdds &<< 8, toByteOffset: 4 * i, as: SIMD16<UInt16>.self)
            i += 8
        }
        if i < pixels { runScalar(src + 4 * i, over: base + 4 * i, into: dst + 4 * i, pixels: pixels - i, opacity: k) }
    }

    package static func runScalar(_ src: UnsafePointer<UInt8>, over base: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                  pixels: Int, opacity k: UInt8 = 255) {
        if k == 255 {
            for p in 0..<pixels {
                let inverse = 255 - UInt32(src[4 * p + 3])
                for c in 0..<4 { dst[4 * p + c] = src[4 * p + c] &+ UInt8(FrostCore.divideBy255(UInt32(base[4 * p + c]) * inverse)) }
            }
            return
        }
        let scale = Float(k) / 255, alphaScale = Float(k) / (255 * 255)
        for p in 0..<pixels {
            let source = UnsafeRawPointer(src + 4 * p).loadUnaligned(as: SIMD4<UInt8>.self)
            let target = UnsafeMutableRawPointer(dst + 4 * p)
            let d = LaneConversion.floats(UnsafeRawPointer(base + 4 * p).loadUnaligned(as: SIMD4<UInt8>.self))
            let keep = 1 - Float(source[3]) * alphaScale
            target.storeBytes(of: LaneConversion.bytes(LaneConversion.floats(source) * scale + d * keep), as: SIMD4<UInt8>.self)
        }
    }
}
