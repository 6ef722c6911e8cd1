import FrostCore

extension Image {
    /// The part of the image inside its border of one colour (libvips's `find_trim`, which
    /// imgproxy's `trim` calls): a pixel belongs to the picture when, after a 3×3 median (so that
    /// a speck of noise does not), one of its channels differs from the border's colour by more
    /// than `threshold` (0…255). Transparency is flattened onto magenta first, as imgproxy does,
    /// so a transparent border is found too. `color` is the border's (nil: the top-left pixel's).
    /// `equalHorizontal`/`equalVertical` keep the margins cut from the two sides alike (the
    /// smaller of the two). Nil when every pixel is the border's (nothing is cut then).
    public func trimBounds(threshold: Double, color: Color? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) -> PixelBounds? {
        guard width > 0, height > 0 else { return nil }
        let straight = isPremultiplied ? unpremultiplied() : self
        let flat: Image = hasAlpha ? straight.flattened(onto: Color(red: 1, green: 0, blue: 1)) : straight
        let w = width, h = height
        let background: SIMD3<Double> = if let color {
            SIMD3(color.red, color.green, color.blue) * 255
        } else {
            SIMD3(flat.medianPixel(x: 0, y: 0))
        }
        func differs(_ x: Int, _ y: Int) -> Bool {
            let v = SIMD3<Double>(flat.medianPixel(x: x, y: y)) - background
            return max(abs(v.x), abs(v.y), abs(v.z)) > threshold
        }
        func rowDiffers(_ y: Int) -> Bool { (0..<w).contains { differs($0, y) } }
        guard let top = (0..<h).first(where: rowDiffers) else { return nil }
        let bottom = (top..<h).reversed().first(where: rowDiffers)!
        func columnDiffers(_ x: Int) -> Bool { (top...bottom).contains { differs(x, $0) } }
        let left = (0..<w).first(where: columnDiffers)!, right = (left..<w).reversed().first(where: columnDiffers)!
        var bounds = PixelBounds(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
        if equalHorizontal {
            let margin = min(left, w - 1 - right)
            bounds = PixelBounds(x: margin, y: bounds.y, width: w - 2 * margin, height: bounds.height)
        }
        if equalVertical {
            let margin = min(top, h - 1 - bottom)
            bounds = PixelBounds(x: bounds.x, y: margin, width: bounds.width, height: h - 2 * margin)
        }
        return bounds
    }

    /// The median of each colour channel over the 3×3 pixels around (x, y), the edges repeated:
    /// Paeth's 19-exchange median-of-nine network, the three channels in the lanes of one vector.
    private func medianPixel(x: Int, y: Int) -> SIMD3<Int32> {
        func at(_ dx: Int, _ dy: Int) -> SIMD3<Int32> {
            let p = pixel(x: min(max(x + dx, 0), width - 1), y: min(max(y + dy, 0), height - 1))
            return SIMD3(Int32(p[0]), Int32(p[1]), Int32(p[2]))
        }
        var p0 = at(-1, -1), p1 = at(0, -1), p2 = at(1, -1), p3 = at(-1, 0), p4 = at(0, 0), p5 = at(1, 0)
        var p6 = at(-1, 1), p7 = at(0, 1), p8 = at(1, 1)
        func order(_ a: inout SIMD3<Int32>, _ b: inout SIMD3<Int32>) { (a, b) = (pointwiseMin(a, b), pointwiseMax(a, b)) }
        order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
        order(&p0, &p1); order(&p3, &p4); order(&p6, &p7)
        order(&p1, &p2); order(&p4, &p5); order(&p7, &p8)
        order(&p0, &p3); order(&p5, &p8); order(&p4, &p7)
        order(&p3, &p6); order(&p1, &p4); order(&p2, &p5)
        order(&p4, &p7); order(&p4, &p2); order(&p6, &p4)
        order(&p4, &p2)
        return p4
    }
}
