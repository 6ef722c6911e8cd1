extension Image {
    /// The pixels of `bounds`; where they fall outside the image the edge pixels repeat (edge
    /// extend, DESIGN.md §2). Keeps the image's flags.
    public func cropped(to bounds: PixelBounds) -> Image {
        precondition(width > 0 && height > 0 && !bounds.isEmpty, "cropping needs pixels")
        var out = [UInt8](repeating: 0, count: bounds.width * bounds.height * 4)
        let inside = bounds.x >= 0 && bounds.maxX <= width
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for j in 0..<bounds.height {
                    let sy = min(max(bounds.y + j, 0), height - 1)
                    let row = src.baseAddress! + sy * width * 4, target = dst.baseAddress! + j * bounds.width * 4
                    if inside {
                        target.update(from: row + bounds.x * 4, count: bounds.width * 4)
                        continue
                    }
                    for i in 0..<bounds.width {
                        let sx = min(max(bounds.x + i, 0), width - 1)
                        (target + 4 * i).update(from: row + 4 * sx, count: 4)
                    }
                }
            }
        }
        return Image(width: bounds.width, height: bounds.height, pixels: out, isPremultiplied: isPremultiplied,
                     hasAlpha: hasAlpha, isGray: isGray, iccProfile: iccProfile)
    }
}
