@_spi(Kernels) import FrostCore
import Testing

/// The SIMD lane conversions equal their scalar reference.
@Suite struct SIMDConversionTests {
    @Test func bytesToFloatsIsExactForEveryByte() {
        for b in 0...255 {
            let v = LaneConversion.floats(SIMD16<UInt8>(repeating: UInt8(b)))
            #expect(v == SIMD16(repeating: Float(b)))
            #expect(LaneConversion.floats(SIMD4<UInt8>(repeating: UInt8(b))) == SIMD4(repeating: Float(b)))
            #expect(LaneConversion.floats(SIMD8<UInt8>(repeating: UInt8(b))) == SIMD8(repeating: Float(b)))
        }
    }

    /// Every byte in every lane position (lane i holds (b + 17·i) mod 256), so a swapped quarter fails.
    @Test func bytesWidenToHalfwordsInPlace() {
        for b in 0...255 {
            var bytes = SIMD16<UInt8>()
            for i in 0..<16 { bytes[i] = UInt8((b + 17 * i) % 256) }
            let halfwords = LaneConversion.widenedToHalfwords(bytes)
            for i in 0..<16 { #expect(halfwords[i] == UInt16(bytes[i])) }
        }
    }

    @Test func floatsToBytesRoundsAndClampsLikeScalar() {
        var x: Float = -20
        while x < 280 {
            let expected = LaneConversion.byte(x)
            #expect(LaneConversion.bytes(SIMD16<Float>(repeating: x)) == SIMD16(repeating: expected), "\(x)")
            #expect(LaneConversion.bytes(SIMD32<Float>(repeating: x)) == SIMD32(repeating: expected), "\(x)")
            #expect(LaneConversion.bytes(SIMD4<Float>(repeating: x)) == SIMD4(repeating: expected), "\(x)")
            #expect(LaneConversion.bytes(SIMD8<Float>(repeating: x)) == SIMD8(repeating: expected), "\(x)")
            x += 0.0625
        }
        #expect(LaneConversion.byte(2.5) == 2 && LaneConversion.byte(3.5) == 4)   // ties to even
    }

    @Test func clampLimitsEachLane() {
        let v = SIMD4<Float>(-1, 5, 300, 7)
        #expect(LaneConversion.clamp(v, upper: SIMD4(10, 10, 255, 6)) == SIMD4(0, 5, 255, 6))
    }
}
