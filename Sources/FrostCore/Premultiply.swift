/// Conversions between straight and premultiplied alpha (DESIGN.md §2).
///
/// Premultiplying rounds c·a/255 to nearest; un-premultiplying rounds c·255/a and clamps. A straight
/// → premultiplied → straight trip is exact for a = 255 and loses precision only where alpha is low,
/// which is why a plain convert never premultiplies.
extension Image {
    /// The same picture with premultiplied samples (a copy, or self when already premultiplied).
    /// Without alpha (every alpha 255, the `hasAlpha` promise) only the flag changes.
    public func premultiplied() -> Image {
        guard !isPremultiplied else { return self }
        var out = self
        out.isPremultiplied = true
        if hasAlpha { out.pixels.withUnsafeMutableBufferPointer { premultiplyInPlace($0) } }
        return out
    }

    /// The same picture with straight (un-premultiplied) samples.
    public func unpremultiplied() -> Image {
        guard isPremultiplied else { return self }
        var out = self
        out.isPremultiplied = false
        out.pixels.withUnsafeMutableBufferPointer { unpremultiplyInPlace($0) }
        return out
    }
}

/// round(x / 255) for x in 0...65025, without a division (exact over that range).
@inlinable @inline(__always)
public func divideBy255(_ x: UInt32) -> UInt32 {
    let t = x &+ 128
    return (t &+ (t >> 8)) >> 8
}

/// Multiplies R, G, B of every RGBA8 pixel by A / 255, rounded.
public func premultiplyInPlace(_ p: UnsafeMutableBufferPointer<UInt8>) {
    var i = 0
    while i < p.count {
        let a = UInt32(p[i + 3])
        if a != 255 {
            p[i] = UInt8(divideBy255(UInt32(p[i]) * a))
            p[i + 1] = UInt8(divideBy255(UInt32(p[i + 1]) * a))
            p[i + 2] = UInt8(divideBy255(UInt32(p[i + 2]) * a))
        }
        i += 4
    }
}

/// Divides R, G, B of every premultiplied RGBA8 pixel by A / 255, rounded and clamped to 255.
public func unpremultiplyInPlace(_ p: UnsafeMutableBufferPointer<UInt8>) {
    var i = 0
    while i < p.count {
        let a = UInt32(p[i + 3])
        if a == 0 {
            p[i] = 0; p[i + 1] = 0; p[i + 2] = 0
        } else if a != 255 {
            let half = a / 2
            p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + half) / a))
            p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + half) / a))
            p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + half) / a))
        }
        i += 4
    }
}
