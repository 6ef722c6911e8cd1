import FrostCore

extension Gradient {
    /// Premultiplied RGBA8 over the pixels of `bounds`, the gradient's unit square spanning `rect`.
    ///
    /// t = ((p − start)·(end − start)) / |end − start|² at each pixel center, clamped to 0…1 (pad),
    /// looked up in a 1024-entry table: t = 0 and t = 1 give the end stops' colors exactly, and
    /// neighbouring entries differ by less than ¼ level.
    func pixels(in rect: Rect, bounds: PixelBounds) -> [UInt8] {
        let table = colorTable(entries: 1024)
        let sx = rect.x + startX * rect.width, sy = rect.y + startY * rect.height
        let dx = (endX - startX) * rect.width, dy = (endY - startY) * rect.height
        let length2 = dx * dx + dy * dy
        let (ux, uy) = length2 > 0 ? (dx / length2, dy / length2) : (0, 0)
        return [UInt8](unsafeUninitializedCapacity: bounds.width * bounds.height * 4) { bytes, count in
            let words = UnsafeMutableRawPointer(bytes.baseAddress!).bindMemory(to: UInt32.self, capacity: bounds.width * bounds.height)
            for j in 0..<bounds.height {
                let py = Double(bounds.y + j) + 0.5
                let t0 = (Double(bounds.x) + 0.5 - sx) * ux + (py - sy) * uy
                let row = words + j * bounds.width
                if ux == 0 {
                    // A vertical gradient: one color per row.
                    row.initialize(repeating: table[Int((min(max(t0, 0), 1) * 1023).rounded())], count: bounds.width)
                    continue
                }
                for i in 0..<bounds.width {
                    row[i] = table[Int((min(max(t0 + Double(i) * ux, 0), 1) * 1023).rounded())]
                }
            }
            count = bounds.width * bounds.height * 4
        }
    }

    /// Premultiplied RGBA8 colors at t = i / (entries − 1), packed as little-endian words.
    private func colorTable(entries: Int) -> [UInt32] {
        let sorted = stops.sorted { $0.location < $1.location }
        return (0..<entries).map { i in PackedColor.word(color(at: Double(i) / Double(entries - 1), sorted)) }
    }

    /// The premultiplied color (0…255 scale) at t: stops interpolated linearly, padded at the ends.
    func color(at t: Double) -> SIMD4<Double> { color(at: t, stops.sorted { $0.location < $1.location }) }

    private func color(at t: Double, _ sorted: [GradientStop]) -> SIMD4<Double> {
        guard let first = sorted.first, let last = sorted.last else { return .zero }
        if t <= first.location { return first.color.premultiplied255 }
        if t >= last.location { return last.color.premultiplied255 }
        let upper = sorted.firstIndex { $0.location > t }!
        let a = sorted[upper - 1], b = sorted[upper]
        let f = (t - a.location) / (b.location - a.location)
        return a.color.premultiplied255 * (1 - f) + b.color.premultiplied255 * f
    }
}
