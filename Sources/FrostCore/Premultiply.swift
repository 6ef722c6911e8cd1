import CFrostSystem

/// Conversions between straight and premultiplied alpha (docs/design.md, Pixels).
///
/// Premultiplying rounds c·a/255 to nearest; un-premultiplying rounds c·255/a and clamps. A straight
/// → premultiplied → straight trip is exact for a = 255 and loses precision only where alpha is low,
/// which is why a plain convert never premultiplies.
extension Image {
    /// Whether reading the pixels as premultiplied means premultiplying them (straight alpha
    /// that is not all opaque): kernels that can premultiply as they read take such images as
    /// they are, instead of a `premultiplied()` copy (one more pass through memory).
    public var readsStraightAlpha: Bool { hasAlpha && !isPremultiplied }

    /// The same picture with premultiplied samples (a copy, or self when already premultiplied).
    /// Without alpha (every alpha 255, the `hasAlpha` promise) only the flag changes.
    public func premultiplied() -> Image {
        guard !isPremultiplied else { return self }
        var out = self
        out.isPremultiplied = true
        guard hasAlpha, !pixels.isEmpty else { return out }
        out.pixels = pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: source.count) { target, count in
                premultiply(source.baseAddress!, into: target.baseAddress!, pixels: source.count / 4)
                count = source.count
            }
        }
        return out
    }

    /// The same picture with straight (un-premultiplied) samples. Without alpha only the flag
    /// changes, as in `premultiplied()` (every opaque level of a cache was copied through here).
    public func unpremultiplied() -> Image {
        guard isPremultiplied else { return self }
        var out = self
        out.isPremultiplied = false
        guard hasAlpha, !pixels.isEmpty else { return out }
        out.pixels = pixels.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: source.count) { target, count in
                unpremultiply(source.baseAddress!, into: target.baseAddress!, pixels: source.count / 4)
                count = source.count
            }
        }
        return out
    }
}

/// round(x / 255) for x in 0...65025, without a division (exact over that range).
@inlinable @inline(__always)
@_spi(Kernels) public func divideBy255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// `divideBy255` in UInt16 lanes, for x ≤ 255·255 (every intermediate stays below 2¹⁶).
@inlinable @inline(__always)
@_spi(Kernels) public func divideBy255(_ x: SIMD16<UInt16>) -> SIMD16<UInt16> {
    let t = x &+ 128
    return (t &+ (t &>> 8)) &>> 8
}

/// Multiplies R, G, B of `count` RGBA8 pixels by A / 255, rounded (`divideBy255`), from `source`
/// into `target`. Eight pixels per step in 16-bit lanes (every product c·a ≤ 65025 fits): the
/// even bytes (R, B) and the odd bytes (G, A) of each word are scaled as two SIMD16<UInt16>, by
/// (a, a) and (a, 255), with vpmullw; A·255/255 = A leaves alpha as it was. No branches. The
/// 32-bit version (three vpmulld, two micro-ops each, per eight pixels) cost almost two copies.
/// `premultiplyScalar` is the reference.
@_spi(Kernels) public func premultiply(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels count: Int) {
    premultiply(source, into: target, pixels: count, order: StreamOrder(reading: source, writing: target))
}

/// `premultiply` walking the pixels in `order`: a caller that converts row after row into a
/// scratch row walks forwards, where the prefetch runs on into the next row.
@_spi(Kernels) public func premultiply(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels count: Int,
                        order: StreamOrder) {
    let input = UnsafeRawPointer(source), output = UnsafeMutableRawPointer(target)
    let groups = count / 8, lead = order.prefetchLead
    for i in 0..<groups {
        let q = order.position(i, of: groups)
        // The source image streams in from DRAM here for every effect on straight alpha: RGBA
        // 4096² box r = 40 1.12-1.34x, σ = 20 1.12-1.35x with the prefetch.
        frost_prefetch_at(input + 32 &* q, lead)
        let (even, odd) = premultipliedHalves(input.loadUnaligned(fromByteOffset: 32 &* q, as: SIMD8<UInt32>.self))
        output.storeBytes(of: even | odd &<< 8, toByteOffset: 32 &* q, as: SIMD16<UInt16>.self)
    }
    premultiplyScalar(source + 32 * groups, into: target + 32 * groups, pixels: count - 8 * groups)
}

/// Eight straight-alpha RGBA pixels premultiplied (`premultiply`'s step), left as the even bytes
/// (R, B) and the odd bytes (G, A) of their sixteen words: the form kernels that work on byte
/// pairs in 16-bit lanes (the blend) take them in, so they can premultiply as they read.
@inlinable @inline(__always)
@_spi(Kernels) public func premultipliedHalves(_ w: SIMD8<UInt32>) -> (even: SIMD16<UInt16>, odd: SIMD16<UInt16>) {
    @inline(__always) func halves(_ w: SIMD8<UInt32>) -> SIMD16<UInt16> { unsafeBitCast(w, to: SIMD16<UInt16>.self) }
    let a = w &>> 24
    let even = halves(w) & 0xFF, odd = halves(w) &>> 8
    return (divideBy255(even &* halves(a | a &<< 16)), divideBy255(odd &* halves(a | 0x00FF_0000)))
}

/// The per-pixel reference of `premultiply` (and its tail).
@_spi(Kernels) public func premultiplyScalar(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels count: Int) {
    for n in 0..<count {
        let s = source + 4 * n, t = target + 4 * n
        let a = UInt32(s[3])
        t[0] = UInt8(divideBy255(UInt32(s[0]) * a))
        t[1] = UInt8(divideBy255(UInt32(s[1]) * a))
        t[2] = UInt8(divideBy255(UInt32(s[2]) * a))
        t[3] = s[3]
    }
}

/// Divides R, G, B of `count` premultiplied RGBA8 pixels by A / 255, rounded and clamped to 255,
/// from `source` into `target` (one pass, where a copy and an in-place pass moved the image twice):
/// exactly `unpremultiplyScalar`'s min(255, ⌊(255c + ⌊a/2⌋) / a⌋), 0 where a = 0. The loop is
/// CFrostSystem's `frost_unpremultiply` (eight pixels a step in float lanes, how and why there),
/// which the PNG writer also runs on its rows as it packs them.
@_spi(Kernels) public func unpremultiply(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels count: Int) {
    frost_unpremultiply(source, target, count, StreamOrder(reading: source, writing: target).forwards ? 1 : 0)
}

/// The per-pixel reference of `unpremultiply` (the tests hold `frost_unpremultiply` to it).
@_spi(Kernels) public func unpremultiplyScalar(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, pixels count: Int) {
    for n in 0..<count {
        let s = source + 4 * n, t = target + 4 * n
        let a = UInt32(s[3])
        t[3] = s[3]
        if a == 0 {
            t[0] = 0; t[1] = 0; t[2] = 0
        } else if a == 255 {
            t[0] = s[0]; t[1] = s[1]; t[2] = s[2]
        } else {
            let half = a / 2
            t[0] = UInt8(min(255, (UInt32(s[0]) * 255 + half) / a))
            t[1] = UInt8(min(255, (UInt32(s[1]) * 255 + half) / a))
            t[2] = UInt8(min(255, (UInt32(s[2]) * 255 + half) / a))
        }
    }
}
