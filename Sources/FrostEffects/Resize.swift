import FrostCore

extension Image {
    /// The image resampled to `width` × `height`: bilinear with pixel centers aligned, and, where
    /// an axis shrinks, an area average first (a box of the shrink factor) so it does not alias.
    /// Works in premultiplied space; keeps the image's alpha convention flag.
    public func resized(width w: Int, height h: Int) -> Image {
        precondition(w > 0 && h > 0, "size must be positive")
        if w == width && h == height { return self }
        let source = premultiplied()
        let xs = Self.taps(from: width, to: w), ys = Self.taps(from: height, to: h)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        source.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var acc = SIMD4<Float>(repeating: 0)
                        for (sy, wy) in ys[y] {
                            for (sx, wx) in xs[x] {
                                let i = (sy * width + sx) * 4
                                acc += SIMD4<Float>(Float(src[i]), Float(src[i + 1]), Float(src[i + 2]), Float(src[i + 3])) * (wx * wy)
                            }
                        }
                        UInt8.storePixel(acc, dst.baseAddress! + (y * w + x) * 4)
                    }
                }
            }
        }
        let result = Image(width: w, height: h, pixels: out, isPremultiplied: true, hasAlpha: hasAlpha,
                           isGray: isGray, iccProfile: iccProfile)
        return isPremultiplied ? result : result.unpremultiplied()
    }

    /// For each output coordinate, the source samples and weights along one axis: a triangle
    /// (bilinear) stretched by the shrink factor when shrinking (area averaging), clamped at edges.
    static func taps(from n: Int, to m: Int) -> [[(Int, Float)]] {
        let scale = Double(n) / Double(m)
        let support = max(1, scale)          // triangle half-width in source pixels
        return (0..<m).map { o in
            let center = (Double(o) + 0.5) * scale - 0.5
            let lo = Int((center - support).rounded(.up)), hi = Int((center + support).rounded(.down))
            var taps: [(Int, Float)] = []
            var total = 0.0
            for s in lo...hi {
                let weight = max(0, 1 - abs(Double(s) - center) / support)
                guard weight > 0 else { continue }
                taps.append((min(max(s, 0), n - 1), Float(weight)))
                total += weight
            }
            return taps.map { ($0.0, Float(Double($0.1) / total)) }
        }
    }
}
