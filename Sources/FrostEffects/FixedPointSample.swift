import CFrostSystem
@_spi(Kernels) import FrostCore

/// How the samples of a plane enter and leave the 8.7 fixed point of `FixedPointKernel`.
///
/// Bytes widen exactly (×128) and come back rounded, (v + 64) >> 7. 8.7 planes (UInt16) go in and
/// out as they are: the box-reduced planes behind σ ≥ 8 (`Resample.boxReduce`) and what is blurred
/// from them, until its enlargement.
protocol FixedPointSource {
    /// Sixteen samples at `p` (four RGBA pixels) in 8.7.
    static func fixedPoint(_ p: UnsafePointer<Self>) -> SIMD16<UInt16>
    /// One sample in 8.7.
    static func fixedPoint(sample: Self) -> UInt16
    /// A row of `pixels` RGBA pixels into 8.7 samples, `channels` per pixel: all four, or (bytes
    /// only) the three colors of an opaque image, whose alpha the kernels then leave out. Three
    /// channels store up to four lanes past the row's last sample.
    static func toFixedPoint(_ p: UnsafePointer<Self>, pixels: Int, channels: Int, into out: UnsafeMutablePointer<UInt16>)
}

protocol FixedPointTarget {
    /// Sixteen 8.7 values (at most 32 640 + 63) stored as samples at `p`.
    static func store(fixedPoint v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<Self>)
    /// One 8.7 value as a sample.
    static func sample(fixedPoint v: UInt16) -> Self
    /// A row of 8.7 values, `channels` per pixel, stored as `pixels` RGBA pixels: with three
    /// channels (bytes only) each pixel's alpha is 255, and `v` is read up to four lanes past its
    /// last sample.
    static func store(fixedPointRow v: UnsafePointer<UInt16>, pixels: Int, channels: Int, into p: UnsafeMutablePointer<Self>)
}

/// Rows of all four channels, for every sample type. Not inlined: inside generic callers the
/// vectoriser split 16-lane values into halves.
extension FixedPointSource {
    @inline(never)
    static func toFixedPoint(_ p: UnsafePointer<Self>, pixels: Int, channels: Int, into out: UnsafeMutablePointer<UInt16>) {
        precondition(channels == 4, "\(Self.self) rows keep all four channels")
        toFixedPoint(rgba: p, pixels: pixels, into: out)
    }

    @inline(__always)
    fileprivate static func toFixedPoint(rgba p: UnsafePointer<Self>, pixels: Int, into out: UnsafeMutablePointer<UInt16>) {
        for n in stride(from: 0, to: 4 * pixels - 15, by: 16) {
            UnsafeMutableRawPointer(out + n).storeBytes(of: fixedPoint(p + n), as: SIMD16<UInt16>.self)
        }
        for i in (4 * pixels) / 16 * 16..<(4 * pixels) { out[i] = fixedPoint(sample: p[i]) }
    }
}

extension FixedPointTarget {
    @inline(never)
    static func store(fixedPointRow v: UnsafePointer<UInt16>, pixels: Int, channels: Int, into p: UnsafeMutablePointer<Self>) {
        precondition(channels == 4, "\(Self.self) rows keep all four channels")
        store(fixedPointRGBA: v, pixels: pixels, into: p)
    }

    @inline(__always)
    fileprivate static func store(fixedPointRGBA v: UnsafePointer<UInt16>, pixels: Int, into p: UnsafeMutablePointer<Self>) {
        for n in stride(from: 0, to: 4 * pixels - 15, by: 16) {
            store(fixedPoint: UnsafeRawPointer(v + n).loadUnaligned(as: SIMD16<UInt16>.self), p + n)
        }
        for i in (4 * pixels) / 16 * 16..<(4 * pixels) { p[i] = sample(fixedPoint: v[i]) }
    }
}

extension UInt8: FixedPointSource, FixedPointTarget {
    @inline(__always)
    static func fixedPoint(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt16> {
        LaneConversion.widenedToHalfwords(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)) &<< 7
    }

    @inline(__always)
    static func fixedPoint(sample: UInt8) -> UInt16 { UInt16(sample) &<< 7 }

    /// (v + 64) >> 7; at most 255 by FixedPointKernel's bounds, so the truncation keeps it.
    @inline(__always)
    static func store(fixedPoint v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: rounded(v), as: SIMD16<UInt8>.self)
    }

    /// Three channels: four pixels a step, their bytes shuffled to twelve colors (CFrostSystem)
    /// and widened; each step stores four lanes past its twelve samples, which the next overwrites.
    @inline(never)
    static func toFixedPoint(_ p: UnsafePointer<UInt8>, pixels: Int, channels: Int, into out: UnsafeMutablePointer<UInt16>) {
        guard channels == 3 else { return toFixedPoint(rgba: p, pixels: pixels, into: out) }
        for n in stride(from: 0, to: pixels - 3, by: 4) {
            // An opaque source streams in from DRAM here (the prefetch as in `premultiply`).
            frost_prefetch_ahead(p + 4 &* n)
            let colors = frost_colors_of_rgba(UnsafeRawPointer(p + 4 * n).loadUnaligned(as: SIMD16<UInt8>.self))
            UnsafeMutableRawPointer(out + 3 * n).storeBytes(of: LaneConversion.widenedToHalfwords(colors) &<< 7, as: SIMD16<UInt16>.self)
        }
        for n in pixels / 4 * 4..<pixels {
            for c in 0..<3 { out[3 * n + c] = fixedPoint(sample: p[4 * n + c]) }
        }
    }

    /// Three channels: four pixels a step, twelve colors rounded and shuffled into RGBA with
    /// alpha 255 (CFrostSystem).
    @inline(never)
    static func store(fixedPointRow v: UnsafePointer<UInt16>, pixels: Int, channels: Int, into p: UnsafeMutablePointer<UInt8>) {
        guard channels == 3 else { return store(fixedPointRGBA: v, pixels: pixels, into: p) }
        for n in stride(from: 0, to: pixels - 3, by: 4) {
            let colors = rounded(UnsafeRawPointer(v + 3 * n).loadUnaligned(as: SIMD16<UInt16>.self))
            UnsafeMutableRawPointer(p + 4 * n).storeBytes(of: frost_rgba_of_colors(colors, 255), as: SIMD16<UInt8>.self)
        }
        for n in pixels / 4 * 4..<pixels {
            for c in 0..<3 { p[4 * n + c] = sample(fixedPoint: v[3 * n + c]) }
            p[4 * n + 3] = 255
        }
    }

    @inline(__always)
    private static func rounded(_ v: SIMD16<UInt16>) -> SIMD16<UInt8> {
        let rounded = (v &+ 64) &>> 7
        var bytes = SIMD16<UInt8>()
        for i in 0..<16 { bytes[i] = UInt8(truncatingIfNeeded: rounded[i]) }
        return bytes
    }

    @inline(__always)
    static func sample(fixedPoint v: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: (v &+ 64) &>> 7) }
}

/// 8.7 values as they are: reduced planes, and what a blur at reduced size leaves for its enlargement.
extension UInt16: FixedPointSource, FixedPointTarget {
    @inline(__always)
    static func fixedPoint(_ p: UnsafePointer<UInt16>) -> SIMD16<UInt16> { UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self) }

    @inline(__always)
    static func fixedPoint(sample: UInt16) -> UInt16 { sample }

    @inline(__always)
    static func store(fixedPoint v: SIMD16<UInt16>, _ p: UnsafeMutablePointer<UInt16>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<UInt16>.self)
    }

    @inline(__always)
    static func sample(fixedPoint v: UInt16) -> UInt16 { v }
}
