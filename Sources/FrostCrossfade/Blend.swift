import FrostCore

extension Image {
    /// (1 − t)·self + t·other on premultiplied pixels (sizes must match).
    ///
    /// t is quantised to w = round(256·t) and every sample computed as (a·(256 − w) + b·w + 128) >> 8
    /// in 16-bit lanes: t = 0 gives self and t = 1 gives other bit for bit, and the kernel streams
    /// at memory speed. `blendedScalar` is the reference the tests hold it to.
    public func blended(with other: Image, fraction t: Double, threads: Int? = nil) -> Image {
        precondition(width == other.width && height == other.height, "blend needs images of one size")
        let a = premultiplied(), b = other.premultiplied()
        let w = UInt16(min(max((t * 256).rounded(), 0), 256))
        if w == 0 { return a }
        if w == 256 { return b }
        var out = a
        out.hasAlpha = a.hasAlpha || b.hasAlpha
        out.isGray = a.isGray && b.isGray
        let count = pixels.count
        b.pixels.withUnsafeBufferPointer { bp in
            out.pixels.withUnsafeMutableBufferPointer { op in
                let o = op.baseAddress!, q = bp.baseAddress!
                RowBands.run(count / 32, threads: RowBands.threads(threads), minimumBand: 4096) { blocks in
                    BlendKernel.run(o + 32 * blocks.lowerBound, q + 32 * blocks.lowerBound, count: 32 * blocks.count, weight: w)
                }
                let tail = count % 32
                if tail > 0 { BlendKernel.runScalar(o + count - tail, q + count - tail, count: tail, weight: w) }
            }
        }
        return out
    }
}

/// The blend row kernel: 16 samples per step in UInt16 lanes (one 256-bit register; the
/// 512-bit SIMD32 form compiles to a lane loop).
enum BlendKernel {
    static func run(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int, weight w: UInt16) {
        let keep = SIMD16<UInt16>(repeating: 256 - w), take = SIMD16<UInt16>(repeating: w)
        let ra = UnsafeMutableRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i + 16 <= count {
            let x = SIMD16<UInt16>(truncatingIfNeeded: ra.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let y = SIMD16<UInt16>(truncatingIfNeeded: rb.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let mixed = (x &* keep &+ y &* take &+ 128) &>> 8
            ra.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: mixed), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        if i < count { runScalar(a + i, b + i, count: count - i, weight: w) }
    }

    static func runScalar(_ a: UnsafeMutablePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int, weight w: UInt16) {
        for i in 0..<count {
            a[i] = UInt8((UInt32(a[i]) * UInt32(256 - w) + UInt32(b[i]) * UInt32(w) + 128) >> 8)
        }
    }
}
