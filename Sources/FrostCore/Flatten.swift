extension Image {
    /// The image over an opaque `background` (its alpha ignored), for formats without alpha: each
    /// premultiplied component plus the background's times (255 − α)/255, rounded to nearest,
    /// alpha 255 (Porter & Duff 1984, "over"). An image without alpha is only premultiplied.
    public func flattened(onto background: Color) -> Image {
        var out = premultiplied()
        guard hasAlpha, !pixels.isEmpty else { return out }
        let fill = SIMD4(background.red, background.green, background.blue, 1) * 255
        let bg = (0..<3).map { UInt32(min(max(fill[$0].rounded(), 0), 255)) }
        out.pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let rest = 255 - UInt32(p[i + 3])
                for c in 0..<3 { p[i + c] = UInt8(UInt32(p[i + c]) + (bg[c] * rest + 127) / 255) }
                p[i + 3] = 255
            }
        }
        out.hasAlpha = false
        return out
    }
}
