/// Exact unsigned division by a constant through one multiply and one shift (Granlund &
/// Montgomery 1994, §4): with l = ⌈log₂ d⌉ and m = ⌈2^(31+l) / d⌉, every n < 2³¹ gives
/// ⌊n / d⌋ = (n · m) >> (31 + l), and m < 2³² for any d that is not a power of two.
/// SIMD lanes multiply 32 × 32 → 64 bits (vpmuludq), which is why m must fit 32 bits.
struct ExactDivision: Sendable {
    let multiplier: UInt64
    let shift: UInt64

    init(divisor d: UInt64) {
        precondition(d >= 1)
        let l = UInt64(64 - (d - 1).leadingZeroBitCount)       // ⌈log₂ d⌉
        let numerator = (UInt64(1) << (31 + l))
        multiplier = (numerator + d - 1) / d
        shift = 31 + l
        precondition(multiplier < (UInt64(1) << 32) || d & (d - 1) == 0, "multiplier does not fit 32 bits")
    }

    /// ⌊n / d⌋ for every lane, n < 2³¹. Both factors are masked to 32 bits so that the
    /// compiler emits one 32 × 32 → 64 vpmuludq per four lanes instead of a full 64-bit
    /// multiply (three vpmuludq and shifts).
    @inline(__always)
    func divide(_ n: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let low = SIMD8<UInt64>(repeating: 0xFFFF_FFFF)
        let wide = (SIMD8<UInt64>(truncatingIfNeeded: n) & low) &* (SIMD8<UInt64>(repeating: multiplier) & low)
        return SIMD8<UInt32>(truncatingIfNeeded: wide &>> shift)
    }

    @inline(__always)
    func divide(_ n: UInt32) -> UInt32 { UInt32(truncatingIfNeeded: (UInt64(n) &* multiplier) &>> shift) }
}
