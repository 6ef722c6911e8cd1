import CFrostSystem
@_spi(Kernels) import FrostCore

/// out = M·v + b on every premultiplied RGBA pixel (v and out in 0…255 units), rounded to bytes,
/// each color then clamped to its alpha byte so the result stays valid premultiplied data.
///
/// One kernel for every per-pixel affine color operation: color controls (saturation,
/// brightness, contrast), ImageEffects' 1/256 saturation matrix and drawing a tint color over
/// everything. Eight pixels per step, planar in registers: the 32 bytes are read as eight UInt32
/// words and each channel is cut out with a shift and a mask (no lane conversions or shuffles,
/// which Swift compiles to calls or lane loops), turned into floats with vcvtdq2ps, combined
/// with scalar×vector multiply-adds, and rounded, clamped and packed in integer lanes
/// (`frost_premultiplied_rgba`). Every channel sums its terms in the same order, so equal rows of
/// M give bit-equal channels (saturation 0 is exactly gray). `applyScalar` is the per-pixel
/// reference the tests hold it to.
struct AffineColorKernel {
    /// The map the kernel applies.
    enum Form {
        /// Row-major 4×4 over (R, G, B, A), the offset, and a bias added before rounding to
        /// nearest: 1/512 turns it into ⌊x + ½⌋ for values on the 1/256 grid (vImage's rounding),
        /// 0 leaves round-to-nearest.
        case matrix([[Float]], offset: SIMD4<Float>, bias: Float)
        /// Color controls' rank-one form (see `LumaMix`).
        case lumaMix(LumaMix)
    }

    /// Color controls' matrix: rgb' = scale·rgb + (mix·rgb + alpha·a), alpha kept. The shared term
    /// is computed once per pixel, so a pixel costs 4 + 3 multiply-adds instead of 16 and its alpha
    /// is passed through as its byte (ColorAdjustment.affineKernel).
    struct LumaMix {
        let scale: Float
        let mix: SIMD3<Float>
        let alpha: Float
    }

    let form: Form

    /// How the pixels carry alpha in and out.
    enum Alpha {
        /// Premultiplied in, premultiplied out.
        case premultiplied
        /// Straight in, premultiplied as it is read (exactly as `premultiply` rounds), premultiplied out.
        case premultiplying
        /// Straight in, straight out: the map applied to each straight color c, as to c·a with
        /// a = 1, alpha passed through, the colors of transparent pixels 0. For a `LumaMix` only:
        /// it keeps alpha and is linear in (c, a), so on premultiplied data it is this map scaled
        /// by a, and the same result needs no premultiplying, one rounding fewer and no
        /// quantisation to the alpha's steps.
        case straight
    }

    /// Whether every output stays far inside ±2³¹ (within ±2²⁴), as the SIMD loops need: they
    /// round through 32-bit integers. Coefficients no control within its documented range comes
    /// near take the scalar reference instead, which clamps in float.
    let fitsIntegerRounding: Bool

    init(matrix: [[Float]], offset: SIMD4<Float> = .zero, bias: Float = 0) {
        form = .matrix(matrix, offset: offset, bias: bias)
        fitsIntegerRounding = (0..<4).allSatisfy { c in
            Self.fitsIntegerRounding(matrix[c].map { 255 * abs($0) } + [abs(offset[c] + bias)])
        }
    }

    init(_ lumaMix: LumaMix) {
        form = .lumaMix(lumaMix)
        let (scale, mix, alpha) = (lumaMix.scale, lumaMix.mix, lumaMix.alpha)
        fitsIntegerRounding = Self.fitsIntegerRounding([scale, mix[0], mix[1], mix[2], alpha].map { 255 * abs($0) })
    }

    private static func fitsIntegerRounding(_ magnitudes: [Float]) -> Bool { magnitudes.reduce(0, +) < 0x1p24 }

    /// Applies the kernel to `pixels` RGBA pixels of `source` into `target` (the same buffer
    /// for in place), split into bands over `threads`. Out of place it reads and writes each byte
    /// once; a copy followed by an in-place pass moved the image through memory twice.
    /// Straight alpha is premultiplied on the way in or kept (`Alpha`), so no premultiplied copy
    /// of the image is made first.
    func apply(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels: Int, threads: Int,
               alpha: Alpha = .premultiplied) {
        if case .matrix = form { precondition(alpha != .straight, "only a LumaMix keeps straight alpha") }
        guard fitsIntegerRounding else { return applyScalar(source, into: target, pixels: pixels, alpha: alpha) }
        // The pixels before the first 32-byte boundary take the scalar path, as the last few do.
        let aligned = streamingHead(target, count: pixels, unit: 4)
        let head = aligned ?? 0, streaming = aligned != nil
        let groups = (pixels - head) / 8
        let order = StreamOrder(reading: source, writing: target)
        applyScalar(source, into: target, pixels: head, alpha: alpha)
        RowBands.run(groups, threads: threads, minimumBand: 8192) { groups in
            let from = source + 4 * head + 32 * groups.lowerBound, to = target + 4 * head + 32 * groups.lowerBound
            switch (form, alpha) {
            case (.lumaMix(let mix), .premultiplied):
                runLumaMix(mix, from, into: to, groups: groups.count, order, premultiplying: false, straight: false, streaming: streaming)
            case (.lumaMix(let mix), .premultiplying):
                runLumaMix(mix, from, into: to, groups: groups.count, order, premultiplying: true, straight: false, streaming: streaming)
            case (.lumaMix(let mix), .straight):
                runLumaMix(mix, from, into: to, groups: groups.count, order, premultiplying: false, straight: true, streaming: streaming)
            case (.matrix(let m, let offset, let bias), .premultiplying):
                run(m, offset, bias, from, into: to, groups: groups.count, order, premultiplying: true, streaming: streaming)
            case (.matrix(let m, let offset, let bias), _):
                run(m, offset, bias, from, into: to, groups: groups.count, order, premultiplying: false, streaming: streaming)
            }
        }
        let done = 4 * (head + 8 * groups)
        applyScalar(source + done, into: target + done, pixels: pixels - head - 8 * groups, alpha: alpha)
    }

    /// `applyScalar` out of place, premultiplying straight-alpha input first when asked.
    private func applyScalar(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels: Int,
                             alpha: Alpha) {
        guard pixels > 0 else { return }
        if alpha == .premultiplying {
            premultiplyScalar(source, into: target, pixels: pixels)
        } else if UnsafePointer(target) != source {
            target.update(from: source, count: 4 * pixels)
        }
        applyScalar(target, pixels: pixels, straight: alpha == .straight)
    }

    /// Premultiplying in the float domain is exact: c·a/255 is never within 1/510 of a
    /// half-integer (255 is odd), while c·fl(a·fl(1/255)) errs by under 255·2⁻²³, so one fused
    /// multiply-add onto 2²³ rounds it as `divideBy255(c·a)` does. Seven operations per eight
    /// pixels, where a separate pass moved the image through memory twice more.
    @inline(__always)
    private func run(_ matrix: [[Float]], _ offset: SIMD4<Float>, _ bias: Float, _ source: UnsafePointer<UInt8>,
                     into target: UnsafeMutablePointer<UInt8>, groups: Int, _ order: StreamOrder, premultiplying: Bool,
                     streaming: Bool) {
        // The coefficients as locals: read from the nested arrays inside the loop they were
        // reloaded, bounds-checked and broadcast for every eight pixels (perf annotate).
        let (m00, m01, m02, m03) = (matrix[0][0], matrix[0][1], matrix[0][2], matrix[0][3])
        let (m10, m11, m12, m13) = (matrix[1][0], matrix[1][1], matrix[1][2], matrix[1][3])
        let (m20, m21, m22, m23) = (matrix[2][0], matrix[2][1], matrix[2][2], matrix[2][3])
        let (m30, m31, m32, m33) = (matrix[3][0], matrix[3][1], matrix[3][2], matrix[3][3])
        let (o0, o1, o2, o3) = (offset[0] + bias, offset[1] + bias, offset[2] + bias, offset[3] + bias)
        let input = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(target)
        @inline(__always) func combine(_ a: Float, _ b: Float, _ c: Float, _ d: Float, _ o: Float,
                                       _ r: SIMD8<Float>, _ g: SIMD8<Float>, _ bl: SIMD8<Float>, _ al: SIMD8<Float>) -> SIMD8<Float> {
            var out = a * r + o
            out.addProduct(b, g)
            out.addProduct(c, bl)
            out.addProduct(d, al)
            return out
        }
        let lead = order.prefetchLead
        for i in 0..<groups {
            let q = order.position(i, of: groups)
            frost_prefetch_at(input + 32 &* q, lead)
            let w = input.loadUnaligned(fromByteOffset: 32 &* q, as: SIMD8<UInt32>.self)
            let (r, g, b, a) = Self.channels(w, premultiplying: premultiplying)
            // Colors clamp to 0…alpha (premultiplied stays valid), alpha to 0…255, after rounding.
            let packed = frost_premultiplied_rgba(combine(m00, m01, m02, m03, o0, r, g, b, a),
                                                  combine(m10, m11, m12, m13, o1, r, g, b, a),
                                                  combine(m20, m21, m22, m23, o2, r, g, b, a),
                                                  frost_rounded_words(combine(m30, m31, m32, m33, o3, r, g, b, a)))
            Self.store(packed, output + 32 &* q, streaming: streaming)
        }
        if streaming { frost_store_fence() }
    }

    /// The rank-one loop (`LumaMix`): the shared term once, one multiply-add per color, then the
    /// colors rounded, clamped to 0…alpha (or 0…255, `straight`) and packed in integer lanes with
    /// the alpha as it was (`frost_premultiplied_rgba`, `frost_straight_rgba`; the same bytes as
    /// clamping in float first).
    @inline(__always)
    private func runLumaMix(_ form: LumaMix, _ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, groups: Int,
                            _ order: StreamOrder, premultiplying: Bool, straight: Bool, streaming: Bool) {
        let (scale, m0, m1, m2, alphaTerm) = (form.scale, form.mix[0], form.mix[1], form.mix[2], form.alpha)
        let input = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(target)
        // Without a saturation change (brightness and contrast alone) the mix is zero: its three
        // multiply-adds would add exact zeros, so they are left out.
        let lead = order.prefetchLead
        @inline(__always) func loop(mixes: Bool) {
            for i in 0..<groups {
                let q = order.position(i, of: groups)
                frost_prefetch_at(input + 32 &* q, lead)
                let w = input.loadUnaligned(fromByteOffset: 32 &* q, as: SIMD8<UInt32>.self)
                let (r, g, b, a) = Self.channels(w, premultiplying: premultiplying)
                // A straight color is the premultiplied one at a = 255.
                var shared = straight ? SIMD8(repeating: 255 * alphaTerm) : a * alphaTerm
                if mixes {
                    shared.addProduct(m0, r)
                    shared.addProduct(m1, g)
                    shared.addProduct(m2, b)
                }
                let (outR, outG, outB) = (shared.addingProduct(scale, r), shared.addingProduct(scale, g), shared.addingProduct(scale, b))
                // The alpha goes back as the words it was read as.
                let alpha = w &>> 24
                let packed = straight ? frost_straight_rgba(outR, outG, outB, alpha) : frost_premultiplied_rgba(outR, outG, outB, alpha)
                Self.store(packed, output + 32 &* q, streaming: streaming)
            }
        }
        if form.mix == .zero { loop(mixes: false) } else { loop(mixes: true) }
        if streaming { frost_store_fence() }
    }

    /// Eight finished pixels out. The target is a new image on its way to DRAM: streaming stores
    /// write its lines without reading them first (adjust 1.18x; the same loop with no arithmetic
    /// then runs as fast as `copy`), when it is 32-byte aligned (`apply`).
    @inline(__always)
    private static func store(_ packed: SIMD8<UInt32>, _ target: UnsafeMutableRawPointer, streaming: Bool) {
        if streaming {
            frost_stream_store(target, packed)
        } else {
            target.storeBytes(of: packed, as: SIMD8<UInt32>.self)
        }
    }

    /// Eight pixels' channels as floats, cut from their words with shifts and masks, colors
    /// premultiplied when asked (see `run`).
    @inline(__always)
    static func channels(_ w: SIMD8<UInt32>, premultiplying: Bool) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let byte = SIMD8<UInt32>(repeating: 0xFF), magic = SIMD8<Float>(repeating: 8_388_608)
        var r = LaneConversion.floats(w & byte), g = LaneConversion.floats((w &>> 8) & byte)
        var b = LaneConversion.floats((w &>> 16) & byte)
        let a = LaneConversion.floats(w &>> 24)
        if premultiplying {
            let k = a * (1 / 255)
            r = magic.addingProduct(r, k) - magic
            g = magic.addingProduct(g, k) - magic
            b = magic.addingProduct(b, k) - magic
        }
        return (r, g, b, a)
    }

    /// The per-pixel reference of the same arithmetic, in the same order: the red term plus the
    /// offset, then fused multiply-adds of green, blue and alpha (for a `LumaMix`: the alpha
    /// term, fused multiply-adds of the three mix terms, then one of the color itself), on
    /// premultiplied pixels or, `straight`, on straight ones (`Alpha.straight`).
    func applyScalar(_ p: UnsafeMutablePointer<UInt8>, pixels: Int, straight: Bool = false) {
        switch form {
        case .lumaMix(let form):
            for n in 0..<pixels {
                let q = p + 4 * n
                let (r, g, b, a) = (Float(q[0]), Float(q[1]), Float(q[2]), Float(q[3]))
                let shared = ((straight ? 255 : a) * form.alpha).addingProduct(form.mix[0], r).addingProduct(form.mix[1], g)
                    .addingProduct(form.mix[2], b)
                let out = SIMD4(shared.addingProduct(form.scale, r), shared.addingProduct(form.scale, g), shared.addingProduct(form.scale, b), a)
                let bytes = straight ? LaneConversion.straightBytes(out) : LaneConversion.premultipliedBytes(out)
                UnsafeMutableRawPointer(q).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
            }
        case .matrix(let matrix, let offset, let bias):
            for n in 0..<pixels {
                let q = p + 4 * n
                let v = (0..<4).map { Float(q[$0]) }
                let out = (0..<4).map { c in
                    (1..<4).reduce(matrix[c][0] * v[0] + (offset[c] + bias)) { acc, j in
                        acc.addingProduct(matrix[c][j], v[j])
                    }
                }
                UnsafeMutableRawPointer(q).storeBytes(of: LaneConversion.premultipliedBytes(SIMD4(out[0], out[1], out[2], out[3])),
                                                      as: SIMD4<UInt8>.self)
            }
        }
    }
}
