extension Image {
    /// The smallest rectangle outside which this image's pixels are `other`'s: what changed between
    /// two frames of one size. Images in different alpha conventions count as wholly changed; equal
    /// images give the 1×1 rectangle at the origin (an animation frame cannot be empty).
    public func changedRegion(since other: Image) -> PixelBounds {
        precondition(width == other.width && height == other.height, "frames of one size")
        guard isPremultiplied == other.isPremultiplied else { return bounds }
        return pixels.withUnsafeBytes { a in
            other.pixels.withUnsafeBytes { b in
                a.withMemoryRebound(to: UInt32.self) { p in
                    b.withMemoryRebound(to: UInt32.self) { q in Self.changedRegion(p, q, width: width, height: height) }
                }
            }
        }
    }

    /// Rows first (a pixel is one 32-bit word; two compared a step), then, in the rows between the
    /// first and last that differ, the columns from either end.
    private static func changedRegion(_ p: UnsafeBufferPointer<UInt32>, _ q: UnsafeBufferPointer<UInt32>,
                                      width w: Int, height: Int) -> PixelBounds {
        func rowDiffers(_ y: Int) -> Bool {
            let start = y * w
            var x = 0
            while x + 2 <= w {
                if p[start + x] != q[start + x] || p[start + x + 1] != q[start + x + 1] { return true }
                x += 2
            }
            return x < w && p[start + x] != q[start + x]
        }
        guard let top = (0..<height).first(where: rowDiffers) else { return PixelBounds(x: 0, y: 0, width: 1, height: 1) }
        let bottom = (top..<height).last(where: rowDiffers)!
        var left = w, right = -1
        for y in top...bottom {
            let start = y * w
            var x = 0
            while x < left, p[start + x] == q[start + x] { x += 1 }
            left = min(left, x)
            x = w - 1
            while x > right, p[start + x] == q[start + x] { x -= 1 }
            right = max(right, x)
        }
        return PixelBounds(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
