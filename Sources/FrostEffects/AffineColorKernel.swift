import FrostCore

/// out = M·v + b on every premultiplied RGBA pixel (v and out in 0…255 units), color clamped to
/// 0…out-alpha so the result stays valid premultiplied data, then rounded to bytes.
///
/// One kernel for every per-pixel affine color operation: color controls (saturation,
/// brightness, contrast), ImageEffects' 1/256 saturation matrix and drawing a tint color over
/// everything. Eight pixels per step, planar in registers: the 32 bytes are read as eight UInt32
/// words and each channel is cut out with a shift and a mask (no lane conversions or shuffles,
/// which Swift compiles to calls or lane loops), turned into floats with the 2²³ trick, combined
/// with sixteen scalar×vector multiply-adds, and packed back with shifts and ors. Every channel
/// sums its terms in the same order, so equal rows of M give bit-equal channels (saturation 0 is
/// exactly gray). `applyScalar` is the per-pixel reference the tests hold it to.
struct AffineColorKernel {
    /// Row-major 4×4 over (R, G, B, A).
    let matrix: [[Float]]
    let offset: SIMD4<Float>
    /// Added before rounding to nearest; 1/512 turns it into ⌊x + ½⌋ for values on the 1/256
    /// grid (vImage's rounding), 0 leaves round-to-nearest.
    let bias: Float

    init(matrix: [[Float]], offset: SIMD4<Float> = .zero, bias: Float = 0) {
        self.matrix = matrix
        self.offset = offset
        self.bias = bias
    }

    /// Applies the kernel to `pixels` RGBA pixels in place, split into bands over `threads`.
    func apply(_ p: UnsafeMutablePointer<UInt8>, pixels: Int, threads: Int) {
        RowBands.run(pixels / 8, threads: threads, minimumBand: 8192) { groups in
            run(p + 32 * groups.lowerBound, groups: groups.count)
        }
        let tail = pixels % 8
        if tail > 0 { applyScalar(p + 4 * (pixels - tail), pixels: tail) }
    }

    private func run(_ p: UnsafeMutablePointer<UInt8>, groups: Int) {
        let m = matrix, o = offset, bias = bias
        let raw = UnsafeMutableRawPointer(p)
        let byte = SIMD8<UInt32>(repeating: 0xFF), magicBits = SIMD8<UInt32>(repeating: 0x4B00_0000)
        let magic = SIMD8<Float>(repeating: 8_388_608)
        @inline(__always) func floats(_ x: SIMD8<UInt32>) -> SIMD8<Float> { unsafeBitCast(x | magicBits, to: SIMD8<Float>.self) - magic }
        @inline(__always) func word(_ x: SIMD8<Float>) -> SIMD8<UInt32> { unsafeBitCast(x + magic, to: SIMD8<UInt32>.self) & byte }
        @inline(__always) func channel(_ c: Int, _ v: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)) -> SIMD8<Float> {
            var out = m[c][0] * v.0 + (o[c] + bias)
            out.addProduct(m[c][1], v.1)
            out.addProduct(m[c][2], v.2)
            out.addProduct(m[c][3], v.3)
            return out
        }
        for q in 0..<groups {
            let w = raw.loadUnaligned(fromByteOffset: 32 * q, as: SIMD8<UInt32>.self)
            let v = (floats(w & byte), floats((w &>> 8) & byte), floats((w &>> 16) & byte), floats(w &>> 24))
            let alpha = channel(3, v)
            // Colors clamp to 0…alpha (premultiplied stays valid), alpha to 0…255.
            let upper = alpha + bias
            let r = LaneConversion.clamp(channel(0, v), upper: upper), g = LaneConversion.clamp(channel(1, v), upper: upper)
            let b = LaneConversion.clamp(channel(2, v), upper: upper)
            let a = LaneConversion.clamp(alpha, upper: SIMD8(repeating: 255 + bias))
            let packed = word(r) | word(g) &<< 8 | word(b) &<< 16 | word(a) &<< 24
            raw.storeBytes(of: packed, toByteOffset: 32 * q, as: SIMD8<UInt32>.self)
        }
    }

    /// The per-pixel reference of the same arithmetic, in the same order: the red term plus the
    /// offset, then fused multiply-adds of green, blue and alpha.
    func applyScalar(_ p: UnsafeMutablePointer<UInt8>, pixels: Int) {
        for n in 0..<pixels {
            let q = p + 4 * n
            let v = (0..<4).map { Float(q[$0]) }
            let out = (0..<4).map { c in
                (1..<4).reduce(matrix[c][0] * v[0] + (offset[c] + bias)) { acc, j in
                    acc.addingProduct(matrix[c][j], v[j])
                }
            }
            let alpha = out[3]
            for c in 0..<4 {
                q[c] = LaneConversion.byte(min(max(out[c], 0), c == 3 ? 255 + bias : alpha + bias))
            }
        }
    }
}
