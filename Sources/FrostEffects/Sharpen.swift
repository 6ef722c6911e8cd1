import FrostCore

extension Image {
    /// An unsharp mask of amount 1: each colour channel 2·s − (G_σ ∗ s), on premultiplied values
    /// and clamped to 0…alpha (so no colour appears where the picture is transparent), alpha
    /// kept; the result is premultiplied. The blur is `gaussianBlurred(sigma:)`; σ < 0.3 leaves
    /// the picture as it is, as the blur does.
    public func sharpened(sigma: Double, threads: Int? = nil) -> Image {
        var source = isPremultiplied ? self : premultiplied()
        let blurred = source.gaussianBlurred(sigma: sigma, threads: threads)
        blurred.pixels.withUnsafeBufferPointer { b in
            source.pixels.withUnsafeMutableBufferPointer { s in
                for i in stride(from: 0, to: s.count, by: 4) {
                    let alpha = Int(s[i + 3])
                    for c in 0..<3 {
                        s[i + c] = UInt8(min(max(2 * Int(s[i + c]) - Int(b[i + c]), 0), alpha))
                    }
                }
            }
        }
        return source
    }
}
