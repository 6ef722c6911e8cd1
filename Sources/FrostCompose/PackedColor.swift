/// Premultiplied colors as the RGBA8 words the compositor writes (little-endian R, G, B, A).
enum PackedColor {
    /// A premultiplied color on the 0…255 scale, each sample rounded and clamped.
    static func word(_ c: SIMD4<Double>) -> UInt32 {
        let b = (0..<4).map { UInt32(min(max(c[$0].rounded(), 0), 255)) }
        return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24).littleEndian
    }

    /// The color times k/255 for every coverage k in 0…255: text, borders and shadows are a
    /// color times a coverage, one lookup per pixel.
    static func coverageTable(_ c: SIMD4<Double>) -> [UInt32] {
        (0..<256).map { k in word(c * Double(k) / 255) }
    }

    /// The four bytes of `word`, for Image(filledWith:).
    static func bytes(_ c: SIMD4<Double>) -> (UInt8, UInt8, UInt8, UInt8) {
        let w = UInt32(littleEndian: word(c))
        return (UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF), UInt8(w >> 24))
    }
}
