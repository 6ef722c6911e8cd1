import FrostCore

/// out = M·v + b on every premultiplied RGBA pixel (v and out in 0…255 units), color clamped to
/// 0…out-alpha so the result stays valid premultiplied data, then rounded to bytes.
///
/// One kernel for every per-pixel affine color operation: color controls (saturation,
/// brightness, contrast), ImageEffects' 1/256 saturation matrix and drawing a tint color over
/// everything. On interleaved RGBA, lane (pixel p, channel c) of the result is
/// Σ_j M[c][j] · v[p][j], computed as C₀·splat_R(v) + C₁·splat_G(v) + C₂·splat_B(v) + C₃·splat_A(v)
/// where splat_j copies each pixel's channel j to its four lanes (an in-register permute) and C_j
/// holds column j of M per lane: no planar shuffles, and every channel sums its terms in the same
/// order, so equal rows of M give bit-equal channels (saturation 0 is exactly gray).
/// `applyScalar` is the per-pixel reference the tests hold it to.
struct AffineColorKernel {
    /// Row-major 4×4 over (R, G, B, A).
    let matrix: [[Float]]
    let offset: SIMD4<Float>
    /// Added before rounding to nearest; 1/512 turns it into ⌊x + ½⌋ for values on the 1/256
    /// grid (vImage's rounding), 0 leaves round-to-nearest.
    let bias: Float

    private let columns: [SIMD8<Float>]
    private let offsets: SIMD8<Float>

    init(matrix: [[Float]], offset: SIMD4<Float> = .zero, bias: Float = 0) {
        self.matrix = matrix
        self.offset = offset
        self.bias = bias
        columns = (0..<4).map { j in SIMD8<Float>((0..<8).map { lane in matrix[lane % 4][j] }) }
        offsets = SIMD8<Float>((0..<8).map { offset[$0 % 4] + bias })
    }

    /// Applies the kernel to `pixels` RGBA pixels in place, split into bands over `threads`.
    func apply(_ p: UnsafeMutablePointer<UInt8>, pixels: Int, threads: Int) {
        RowBands.run(pixels / 2, threads: threads, minimumBand: 32768) { pairs in
            run(p + 8 * pairs.lowerBound, pairs: pairs.count)
        }
        let tail = pixels % 2
        if tail > 0 { applyScalar(p + 4 * (pixels - tail), pixels: tail) }
    }

    /// Two pixels per step in one 256-bit register (512-bit SIMD16<Float> shuffles compiled to
    /// twice the instructions).
    private func run(_ p: UnsafeMutablePointer<UInt8>, pairs: Int) {
        let c0 = columns[0], c1 = columns[1], c2 = columns[2], c3 = columns[3], b = offsets
        let raw = UnsafeMutableRawPointer(p)
        for q in 0..<pairs {
            let v = LaneConversion.floats(raw.loadUnaligned(fromByteOffset: 8 * q, as: SIMD8<UInt8>.self))
            var out = c0 * Self.splat(v, 0) + b
            out.addProduct(c1, Self.splat(v, 1))
            out.addProduct(c2, Self.splat(v, 2))
            out.addProduct(c3, Self.splat(v, 3))
            let alpha = Self.splatAlpha(out)
            out = LaneConversion.clamp(out, upper: alpha + bias)
            raw.storeBytes(of: LaneConversion.bytes(out), toByteOffset: 8 * q, as: SIMD8<UInt8>.self)
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

    /// Channel j of each pixel in all four of its lanes.
    @inline(__always) static func splat(_ v: SIMD8<Float>, _ j: Int) -> SIMD8<Float> {
        SIMD8(v[j], v[j], v[j], v[j], v[4 + j], v[4 + j], v[4 + j], v[4 + j])
    }
    /// Each pixel's alpha in all four of its lanes (alpha lanes get 255: they clamp to 0…255).
    @inline(__always) static func splatAlpha(_ v: SIMD8<Float>) -> SIMD8<Float> {
        SIMD8(v[3], v[3], v[3], 255, v[7], v[7], v[7], 255)
    }
}
