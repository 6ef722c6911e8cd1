/// 16 → 8 bit sample reduction by rounding, v8 = (v16 · 255 + 32767) / 65535 (docs/design.md, Pixels),
/// rather than libpng's strip (high byte) which is biased upward by up to half a level.
@inlinable @inline(__always)
func reduceSample16(_ v: UInt16) -> UInt8 {
    UInt8((UInt32(v) &* 255 &+ 32767) / 65535)
}

/// Reduces RGBA16 samples to RGBA8.
func reduce16To8(_ wide: UnsafeBufferPointer<UInt16>, into narrow: UnsafeMutableBufferPointer<UInt8>) {
    for i in 0..<wide.count { narrow[i] = reduceSample16(wide[i]) }
}
