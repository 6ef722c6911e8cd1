import CFrostSystem
import FrostCore

/// round(s / d) for window sums s ≤ 255·d over an odd window of d samples, as one float
/// multiply-add: fma(s, fl(1/d), 2²³) keeps round(s·fl(1/d)) in its low mantissa bits.
///
/// Why it is exact: s < 2²³ converts to Float exactly; |s·fl(1/d) − s/d| ≤ (s/d)·2⁻²⁴ ≤ 255·2⁻²⁴;
/// and for odd d, s/d lies at least 1/(2d) from every half-integer (2s = (2k+1)·d would make an
/// even number odd), so while 255·2⁻²⁴ < 1/(2d), i.e. d ≤ `maximumDivisor`, rounding the product
/// to nearest rounds s/d to nearest (there are no ties to break). The integer path
/// (`ExactDivision`, two 32×32→64 multiplies and shifts per eight lanes) serves larger windows.
struct ReciprocalRounding: Sendable {
    /// 255·2⁻²⁴ < 1/(2d) ⇔ d < 2²³/255 = 32896; sums stay below 2²³ as well.
    static let maximumDivisor = 32_767

    let reciprocal: Float

    init?(divisor d: Int) {
        guard d % 2 == 1, d <= Self.maximumDivisor else { return nil }
        reciprocal = 1 / Float(d)
    }

    /// Sixteen rounded means.
    @inline(__always)
    func means(_ s: SIMD16<UInt32>) -> SIMD16<UInt8> {
        frost_rounded_means16(s.lowHalf, s.highHalf, reciprocal)
    }

    /// The same for one sum (the end of a row).
    @inline(__always)
    func mean(_ s: UInt32) -> UInt8 {
        UInt8(truncatingIfNeeded: Float(8_388_608).addingProduct(Float(s), reciprocal).bitPattern &- 0x4B00_0000)
    }
}
