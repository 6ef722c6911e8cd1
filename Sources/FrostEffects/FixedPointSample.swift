import FrostCore

/// How the samples of a plane enter and leave the 8.7 fixed point of `FixedPointKernel`.
///
/// Bytes widen exactly (×128) and come back rounded, (v + 64) >> 7. Float planes (the box-reduced
/// planes behind σ ≥ 8, averages in 0…255) are rounded to the nearest 1/128 on the way in, within
/// 1/256 of a level, and leave as v/128 exactly.
protocol FixedPointSample: PlaneSample {
    /// `count` samples (whole pixels) into 8.7.
    static func toFixedPoint(_ p: UnsafePointer<Self>, count: Int, into out: UnsafeMutablePointer<UInt16>)
    /// Sixteen 8.7 values (at most 32 640 + 63) stored as samples at `p`.
    static func store(fixedPoint v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<Self>)
    /// One 8.7 value as a sample.
    static func sample(fixedPoint v: UInt16) -> Self
}

extension UInt8: FixedPointSample {
    /// Not inlined: inside generic callers the vectoriser split 16-lane values (as in `loadSamples`).
    @inline(never)
    static func toFixedPoint(_ p: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt16>) {
        var i = 0
        while i + 16 <= count {
            let bytes = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: LaneConversion.widenedToHalfwords(bytes) &<< 7, as: SIMD16<UInt16>.self)
            i += 16
        }
        while i < count { out[i] = UInt16(p[i]) &<< 7; i += 1 }
    }

    /// (v + 64) >> 7; at most 255 by FixedPointKernel's bounds, so the truncation keeps it.
    @inline(__always)
    static func store(fixedPoint v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<UInt8>) {
        let rounded = (v &+ 64) &>> 7
        var bytes = SIMD16<UInt8>()
        for i in 0..<16 { bytes[i] = UInt8(truncatingIfNeeded: rounded[i]) }
        UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: SIMD16<UInt8>.self)
    }

    @inline(__always)
    static func sample(fixedPoint v: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: (v &+ 64) &>> 7) }
}

extension Float: FixedPointSample {
    /// x·128 clamped to 0…32 640 and rounded (ties to even) with the 2²³ trick; the lane loop
    /// narrows with vpackusdw because every word is masked to 16 bits (checked in the generated code).
    @inline(never)
    static func toFixedPoint(_ p: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt16>) {
        var i = 0
        while i + 16 <= count {
            let x = LaneConversion.clamp(UnsafeRawPointer(p + i).loadUnaligned(as: SIMD16<Float>.self) * 128,
                                         upper: SIMD16(repeating: 32_640))
            let words = unsafeBitCast(x + 8_388_608, to: SIMD16<UInt32>.self) & 0xFFFF
            var halves = SIMD16<UInt16>()
            for lane in 0..<16 { halves[lane] = UInt16(truncatingIfNeeded: words[lane]) }
            UnsafeMutableRawPointer(out + i).storeBytes(of: halves, as: SIMD16<UInt16>.self)
            i += 16
        }
        while i < count { out[i] = UInt16(min(max(p[i] * 128, 0), 32_640).rounded(.toNearestOrEven)); i += 1 }
    }

    /// v/128, widened four lanes at a time (one vpmovzxwd; the generic initialiser is a call).
    @inline(__always)
    static func store(fixedPoint v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<Float>) {
        @inline(__always) func quarter(_ x: SIMD4<UInt16>) -> SIMD4<UInt32> { SIMD4<UInt32>(truncatingIfNeeded: x) }
        let words = SIMD16(lowHalf: SIMD8(lowHalf: quarter(v.lowHalf.lowHalf), highHalf: quarter(v.lowHalf.highHalf)),
                           highHalf: SIMD8(lowHalf: quarter(v.highHalf.lowHalf), highHalf: quarter(v.highHalf.highHalf)))
        UnsafeMutableRawPointer(p).storeBytes(of: LaneConversion.floats(words) * (1 / 128), as: SIMD16<Float>.self)
    }

    @inline(__always)
    static func sample(fixedPoint v: UInt16) -> Float { Float(v) / 128 }
}
