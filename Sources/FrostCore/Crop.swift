extension Image {
    /// The pixels of `bounds`; where they fall outside the image the edge pixels repeat (edge
    /// extend, docs/design.md, Pixels). Keeps the image's flags. Each row is a run of the row's first pixel,
    /// a copy of the part inside, and a run of its last pixel.
    public func cropped(to bounds: PixelBounds) -> Image {
        precondition(width > 0 && height > 0 && !bounds.isEmpty, "cropping needs pixels")
        let w = bounds.width
        // Output columns [0, left) lie left of the image, [left, right) inside, [right, w) right of it.
        let left = min(max(-bounds.x, 0), w), right = min(max(width - bounds.x, left), w)
        var out = [UInt8](repeating: 0, count: w * bounds.height * 4)
        pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self).baseAddress!, d = dst.bindMemory(to: UInt32.self).baseAddress!
                for j in 0..<bounds.height {
                    let row = s + min(max(bounds.y + j, 0), height - 1) * width, target = d + j * w
                    target.update(repeating: row[0], count: left)
                    (target + left).update(from: row + bounds.x + left, count: right - left)
                    (target + right).update(repeating: row[width - 1], count: w - right)
                }
            }
        }
        return Image(width: w, height: bounds.height, pixels: out, isPremultiplied: isPremultiplied,
                     hasAlpha: hasAlpha, isGray: isGray, iccProfile: iccProfile)
    }

    /// Copies `patch` (same pixel convention) over the pixels at (x, y); it must lie inside.
    public mutating func paste(_ patch: Image, x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + patch.width <= width && y + patch.height <= height, "the patch must lie inside")
        let rowBytes = patch.width * 4, stride = width * 4
        pixels.withUnsafeMutableBytes { dst in
            patch.pixels.withUnsafeBytes { src in
                for j in 0..<patch.height {
                    (dst.baseAddress! + (y + j) * stride + x * 4).copyMemory(from: src.baseAddress! + j * rowBytes, byteCount: rowBytes)
                }
            }
        }
    }

    /// The image placed at (x, y) on a w × h canvas of `padding` (sharp's embed with a background):
    /// the image's own pixels, alpha included, are copied, not composited.
    public func embedded(width w: Int, height h: Int, x: Int, y: Int, padding: Color) -> Image {
        let c = isPremultiplied ? padding.premultiplied255 : SIMD4(padding.red, padding.green, padding.blue, padding.alpha) * 255
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
        var out = Image(width: w, height: h, filledWith: (byte(c[0]), byte(c[1]), byte(c[2]), byte(c[3])), isPremultiplied: isPremultiplied)
        out.paste(self, x: x, y: y)
        out.hasAlpha = hasAlpha || padding.alpha < 1
        out.isGray = isGray && padding.red == padding.green && padding.green == padding.blue
        out.iccProfile = iccProfile
        return out
    }
}
