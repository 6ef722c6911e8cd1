import CFrostSystem
@_spi(Kernels) import FrostCore

/// Porter-Duff source-over on premultiplied RGBA8 with a layer opacity k (0…255), or a coverage k
/// per pixel (a mask): d' = s·k/255 + d·(1 − αs·k/255²), rounded once to nearest, so within ½
/// level of the formula. At full opacity s is whole and d' = s + round(d·(255 − αs)/255): eight
/// pixels per step, the 32 bytes read as sixteen UInt16 lanes split into even (R, B) and odd
/// (G, A) bytes with a mask and a shift (Swift's generic widening initialisers compile to calls).
/// Otherwise eight pixels per step in Float lanes, rounded and packed by
/// `frost_premultiplied_rgba`. Backdrop d comes from `base`, the result goes to `dst`: the same
/// pointer composites in place, different ones in one pass without copying the backdrop first.
/// `runScalar` is the reference the tests hold the fast paths to.
package enum SourceOver {
    /// `order` is chosen from the pointers (`StreamOrder`) unless given: a caller going row by
    /// row walks forwards, as the blurs premultiply their rows.
    package static func run(_ src: UnsafePointer<UInt8>, over base: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                            pixels: Int, opacity k: UInt8 = 255, order: StreamOrder? = nil) {
        guard k == 255 else { return run(src, over: base, into: dst, pixels: pixels, coverage: UniformCoverage(k: k), order: order) }
        let rs = UnsafeRawPointer(src), rb = UnsafeRawPointer(base), rd = UnsafeMutableRawPointer(dst)
        let low = SIMD16<UInt16>(repeating: 0xFF)
        let groups = pixels / 8, order = order ?? StreamOrder(reading: rs, rb, writing: rd)
        for n in 0..<groups {
            let i = 8 &* order.position(n, of: groups)
            let v = rs.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<UInt16>.self)
            let evens = v & low, odds = v &>> 8
            // α sits in the high half of each pixel's odd word; 255 − α in both words of the pixel.
            let alpha = unsafeBitCast(odds, to: SIMD8<UInt32>.self) &>> 16
            let inverse = unsafeBitCast((255 &- alpha) &* 0x0001_0001, to: SIMD16<UInt16>.self)
            let d = rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD16<UInt16>.self)
            let outEvens = evens &+ divideBy255((d & low) &* inverse)
            let outOdds = odds &+ divideBy255((d &>> 8) &* inverse)
            rd.storeBytes(of: outEvens | outOdds &<< 8, toByteOffset: 4 * i, as: SIMD16<UInt16>.self)
        }
        let i = 8 * groups
        if i < pixels { runScalar(src + 4 * i, over: base + 4 * i, into: dst + 4 * i, pixels: pixels - i, opacity: k) }
    }

    /// Source-over where `coverage` (one byte per pixel) says how much of each source pixel is
    /// drawn: a mask. (The per-pixel Float loop this replaces was a sixth of a masked `frost effect`.)
    package static func run(_ src: UnsafePointer<UInt8>, over base: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                            pixels: Int, coverage: UnsafePointer<UInt8>) {
        run(src, over: base, into: dst, pixels: pixels, coverage: PixelCoverage(bytes: coverage), order: nil)
    }

    private static func run<C: Coverage>(_ src: UnsafePointer<UInt8>, over base: UnsafePointer<UInt8>,
                                         into dst: UnsafeMutablePointer<UInt8>, pixels: Int, coverage: C, order: StreamOrder?) {
        let rs = UnsafeRawPointer(src), rb = UnsafeRawPointer(base), rd = UnsafeMutableRawPointer(dst)
        let perLevel = SIMD8<Float>(repeating: 1 / 255), perAlphaLevel = SIMD8<Float>(repeating: 1 / 65025)
        let groups = pixels / 8, order = order ?? StreamOrder(reading: rs, rb, writing: rd)
        for n in 0..<groups {
            let i = 8 &* order.position(n, of: groups)
            let k = coverage.eight(at: i)
            let (sr, sg, sb, sa) = AffineColorKernel.channels(rs.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self), premultiplying: false)
            let (dr, dg, db, da) = AffineColorKernel.channels(rb.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self), premultiplying: false)
            let scale = k * perLevel, keep = SIMD8<Float>.one.addingProduct(-sa, k * perAlphaLevel)
            let packed = frost_premultiplied_rgba((sr * scale).addingProduct(dr, keep), (sg * scale).addingProduct(dg, keep),
                                                  (sb * scale).addingProduct(db, keep),
                                                  frost_rounded_words((sa * scale).addingProduct(da, keep)))
            rd.storeBytes(of: packed, toByteOffset: 4 * i, as: SIMD8<UInt32>.self)
        }
        let i = 8 * groups
        runScalar(src + 4 * i, over: base + 4 * i, into: dst + 4 * i, pixels: pixels - i) { coverage.one(at: i + $0) }
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
        runScalar(src, over: base, into: dst, pixels: pixels) { _ in Float(k) }
    }

    /// The reference of the Float paths, in their order of operations, with coverage `k(p)`.
    package static func runScalar(_ src: UnsafePointer<UInt8>, over base: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>,
                                  pixels: Int, coverage k: (Int) -> Float) {
        for p in 0..<pixels {
            let s = LaneConversion.floats(UnsafeRawPointer(src + 4 * p).loadUnaligned(as: SIMD4<UInt8>.self))
            let d = LaneConversion.floats(UnsafeRawPointer(base + 4 * p).loadUnaligned(as: SIMD4<UInt8>.self))
            let coverage = k(p), scale = coverage * (1 / 255), keep = Float(1).addingProduct(-s[3], coverage * (1 / 65025))
            UnsafeMutableRawPointer(dst + 4 * p).storeBytes(of: LaneConversion.premultipliedBytes((s * scale).addingProduct(d, keep)),
                                                            as: SIMD4<UInt8>.self)
        }
    }
}

/// How much of each source pixel source-over draws, 0…255 as Float.
private protocol Coverage {
    func eight(at i: Int) -> SIMD8<Float>
    func one(at i: Int) -> Float
}

/// A layer's opacity: the same for every pixel.
private struct UniformCoverage: Coverage {
    let k: UInt8
    @inline(__always) func eight(at i: Int) -> SIMD8<Float> { SIMD8(repeating: Float(k)) }
    @inline(__always) func one(at i: Int) -> Float { Float(k) }
}

/// A mask: one coverage byte per pixel.
private struct PixelCoverage: Coverage {
    let bytes: UnsafePointer<UInt8>
    @inline(__always) func eight(at i: Int) -> SIMD8<Float> {
        LaneConversion.floats(UnsafeRawPointer(bytes + i).loadUnaligned(as: SIMD8<UInt8>.self))
    }
    @inline(__always) func one(at i: Int) -> Float { Float(bytes[i]) }
}
