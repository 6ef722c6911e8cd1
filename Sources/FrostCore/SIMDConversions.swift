import CFrostSystem
/// Byte ↔ Float conversions for SIMD lanes that compile to vector instructions.
///
/// Swift's generic `SIMDn<Float>(SIMDn<UInt8>)` and `SIMDn<Int32>(_:rounding:)` initializers
/// become per-lane library calls (checked in the generated code). These use the 2²³ trick
/// instead: for 0 ≤ x < 2²², the float x + 2²³ holds round-to-nearest-even(x) in its low
/// mantissa bits, so a bit cast and an integer truncation finish the conversion; the reverse ORs
/// the byte into the mantissa of 2²³ and subtracts 2²³. `Tests/FrostCoreTests` checks them
/// against scalar `Float(UInt8)` and `(x).rounded()` over every input byte and clamped ranges.
///
/// Clamping uses compare-and-select: `pointwiseMin`/`pointwiseMax` honour IEEE minimum/maximum
/// NaN rules and, against a non-constant vector, compile to a scalar loop over the lanes.
@_spi(Kernels) public enum LaneConversion {
    @usableFromInline static let magic: Float = 8_388_608      // 2²³
    @usableFromInline static let magicBits: UInt32 = 0x4B00_0000

    /// Bytes as floats, lane for lane.
    @inlinable @inline(__always)
    public static func floats(_ v: SIMD4<UInt8>) -> SIMD4<Float> {
        unsafeBitCast(SIMD4<UInt32>(truncatingIfNeeded: v) | magicBits, to: SIMD4<Float>.self) - magic
    }

    /// Wider vectors widen four bytes at a time: the generic SIMD8/16/32 widening initialisers
    /// compile to an out-of-line call, the SIMD4 one to a vpmovzxbd, and LLVM merges the
    /// quarters back into 256-bit vpmovzxbd loads (checked in the generated code).
    @usableFromInline @inline(__always)
    static func widened(_ word: UInt32) -> SIMD4<UInt32> {
        SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(word, to: SIMD4<UInt8>.self))
    }

    /// Bytes as 32-bit integers, lane for lane.
    @inlinable @inline(__always)
    public static func widened(_ v: SIMD8<UInt8>) -> SIMD8<UInt32> {
        let words = unsafeBitCast(v, to: SIMD2<UInt32>.self)
        return SIMD8(lowHalf: widened(words[0]), highHalf: widened(words[1]))
    }

    @inlinable @inline(__always)
    static func widened(_ v: SIMD16<UInt8>) -> SIMD16<UInt32> {
        let words = unsafeBitCast(v, to: SIMD4<UInt32>.self)
        return SIMD16(lowHalf: SIMD8(lowHalf: widened(words[0]), highHalf: widened(words[1])),
                      highHalf: SIMD8(lowHalf: widened(words[2]), highHalf: widened(words[3])))
    }

    /// Sixteen bytes to 16-bit lanes, four at a time for the same reason (one vpmovzxbw).
    @inlinable @inline(__always)
    public static func widenedToHalfwords(_ v: SIMD16<UInt8>) -> SIMD16<UInt16> {
        let words = unsafeBitCast(v, to: SIMD4<UInt32>.self)
        @inline(__always) func quarter(_ w: UInt32) -> SIMD4<UInt16> {
            SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(w, to: SIMD4<UInt8>.self))
        }
        return SIMD16(lowHalf: SIMD8(lowHalf: quarter(words[0]), highHalf: quarter(words[1])),
                      highHalf: SIMD8(lowHalf: quarter(words[2]), highHalf: quarter(words[3])))
    }

    /// The low byte of every lane. Written lane by lane so that it is always inlined and LLVM
    /// turns it into two vpshufb; the generic narrowing initialiser is sometimes left as an
    /// out-of-line call (perf: 15% of a σ-200 blur).
    @inlinable @inline(__always)
    public static func narrowed(_ v: SIMD8<UInt32>) -> SIMD8<UInt8> {
        SIMD8(UInt8(truncatingIfNeeded: v[0]), UInt8(truncatingIfNeeded: v[1]), UInt8(truncatingIfNeeded: v[2]),
              UInt8(truncatingIfNeeded: v[3]), UInt8(truncatingIfNeeded: v[4]), UInt8(truncatingIfNeeded: v[5]),
              UInt8(truncatingIfNeeded: v[6]), UInt8(truncatingIfNeeded: v[7]))
    }

    /// Sixteen words that already hold only a byte (masked): LLVM narrows them with saturating
    /// packs (vpackusdw, vpackuswb) because it can see that no lane exceeds 255.
    @inlinable @inline(__always)
    public static func narrowed(_ v: SIMD16<UInt32>) -> SIMD16<UInt8> {
        var out = SIMD16<UInt8>()
        for i in 0..<16 { out[i] = UInt8(truncatingIfNeeded: v[i]) }
        return out
    }

    /// Bytes as floats, lane for lane.
    @inlinable @inline(__always)
    public static func floats(_ v: SIMD8<UInt8>) -> SIMD8<Float> {
        unsafeBitCast(widened(v) | magicBits, to: SIMD8<Float>.self) - magic
    }

    /// Bytes as floats, lane for lane.
    @inlinable @inline(__always)
    public static func floats(_ v: SIMD16<UInt8>) -> SIMD16<Float> {
        unsafeBitCast(widened(v) | magicBits, to: SIMD16<Float>.self) - magic
    }

    /// Bytes as floats, lane for lane.
    @inlinable @inline(__always)
    public static func floats(_ v: SIMD32<UInt8>) -> SIMD32<Float> {
        SIMD32(lowHalf: floats(v.lowHalf), highHalf: floats(v.highHalf))
    }

    /// Words below 2²³ as floats (channels already cut from pixels with shifts and masks): one
    /// vcvtdq2ps (`frost_floats_of_words` says why not Swift's initialiser).
    @inlinable @inline(__always)
    public static func floats(_ v: SIMD8<UInt32>) -> SIMD8<Float> {
        frost_floats_of_words(v)
    }

    /// Clamped to 0…255 and rounded to nearest (ties to even).
    @inlinable @inline(__always)
    public static func bytes(_ v: SIMD4<Float>) -> SIMD4<UInt8> {
        let c = clamp(v, upper: SIMD4(repeating: 255)) + magic
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(c, to: SIMD4<UInt32>.self))
    }

    /// Floats already rounded and within 0…255 as bytes.
    @inlinable @inline(__always)
    public static func bytes(_ v: SIMD8<Float>) -> SIMD8<UInt8> {
        let c = clamp(v, upper: SIMD8(repeating: 255)) + magic
        return narrowed(unsafeBitCast(c, to: SIMD8<UInt32>.self))
    }

    /// Sixteen lanes keep only each word's byte before narrowing, so LLVM narrows with
    /// saturating packs (vpackusdw, vpackuswb) and folds the upper clamp into an OR: 22
    /// instructions against 28 for two 8-lane halves (checked in the generated code).
    @inlinable @inline(__always)
    public static func bytes(_ v: SIMD16<Float>) -> SIMD16<UInt8> {
        let c = clamp(v, upper: SIMD16(repeating: 255)) + magic
        return narrowed(unsafeBitCast(c, to: SIMD16<UInt32>.self) & 0xFF)
    }

    /// Floats already rounded and within 0…255 as bytes.
    @inlinable @inline(__always)
    public static func bytes(_ v: SIMD32<Float>) -> SIMD32<UInt8> {
        SIMD32(lowHalf: bytes(v.lowHalf), highHalf: bytes(v.highHalf))
    }

    /// Clamped to 0…255 and rounded to nearest (ties to even), each lane's byte in the low 8
    /// bits of a word: planar channels pack into RGBA words with shifts and ORs.
    @inlinable @inline(__always)
    public static func roundedBytes(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
        let c = clamp(v, upper: SIMD8(repeating: 255)) + magic
        return unsafeBitCast(c, to: SIMD8<UInt32>.self) & 0xFF
    }

    /// Each lane limited to 0…upper (per lane).
    @inlinable @inline(__always)
    public static func clamp(_ v: SIMD4<Float>, upper: SIMD4<Float>) -> SIMD4<Float> {
        var x = v.replacing(with: 0, where: v .< 0)
        x.replace(with: upper, where: x .> upper)
        return x
    }

    /// Each lane between 0 and `upper`.
    @inlinable @inline(__always)
    public static func clamp(_ v: SIMD8<Float>, upper: SIMD8<Float>) -> SIMD8<Float> {
        var x = v.replacing(with: 0, where: v .< 0)
        x.replace(with: upper, where: x .> upper)
        return x
    }

    /// Each lane between 0 and `upper`.
    @inlinable @inline(__always)
    public static func clamp(_ v: SIMD16<Float>, upper: SIMD16<Float>) -> SIMD16<Float> {
        var x = v.replacing(with: 0, where: v .< 0)
        x.replace(with: upper, where: x .> upper)
        return x
    }

    /// Each lane between 0 and `upper`.
    @inlinable @inline(__always)
    public static func clamp(_ v: SIMD32<Float>, upper: SIMD32<Float>) -> SIMD32<Float> {
        var x = v.replacing(with: 0, where: v .< 0)
        x.replace(with: upper, where: x .> upper)
        return x
    }

    /// The scalar reference: what every lane must equal.
    @inlinable
    public static func byte(_ x: Float) -> UInt8 {
        UInt8(min(max(x, 0), 255).rounded(.toNearestOrEven))
    }

    /// One premultiplied pixel from its channels in 0…255 units: each a `byte`, the colors then
    /// clamped to the alpha byte. The scalar reference of CFrostSystem's `frost_premultiplied_rgba`.
    public static func premultipliedBytes(_ v: SIMD4<Float>) -> SIMD4<UInt8> {
        let alpha = byte(v[3])
        return SIMD4(min(byte(v[0]), alpha), min(byte(v[1]), alpha), min(byte(v[2]), alpha), alpha)
    }

    /// One straight-alpha pixel from its channels in 0…255 units: each a `byte`, the colors 0
    /// where the alpha byte is (transparent black). The scalar reference of CFrostSystem's
    /// `frost_straight_rgba`.
    public static func straightBytes(_ v: SIMD4<Float>) -> SIMD4<UInt8> {
        let alpha = byte(v[3])
        return alpha == 0 ? .zero : SIMD4(byte(v[0]), byte(v[1]), byte(v[2]), alpha)
    }
}
