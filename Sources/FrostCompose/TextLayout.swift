@_spi(Kernels) import FrostCore

/// Text broken into lines of glyphs: paragraphs at "\n", lines at spaces to stay within a width
/// (greedy, as UILabel's word wrapping), inside a word only when the word alone is too wide.
struct TextLayout {
    struct Line {
        var glyphs: [UInt32]
        var width: Double
    }

    let lines: [Line]

    init(_ text: String, face: FontFace, maxWidth: Double?) {
        let space = face.glyphIndex(" ")
        var lines: [Line] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current: [UInt32] = []
            for word in paragraph.split(separator: " ") {
                var glyphs = word.unicodeScalars.map(face.glyphIndex)
                let joined = current.isEmpty ? glyphs : current + [space] + glyphs
                if maxWidth == nil || Self.measure(joined, face) <= maxWidth! {
                    current = joined
                    continue
                }
                if !current.isEmpty { lines.append(Line(glyphs: current, width: Self.measure(current, face))) }
                // A word wider than the line is cut where it stops fitting (at least one glyph a line).
                while let maxWidth, Self.measure(glyphs, face) > maxWidth, glyphs.count > 1 {
                    var n = 1
                    while n < glyphs.count, Self.measure(Array(glyphs[..<(n + 1)]), face) <= maxWidth { n += 1 }
                    lines.append(Line(glyphs: Array(glyphs[..<n]), width: Self.measure(Array(glyphs[..<n]), face)))
                    glyphs.removeFirst(n)
                }
                current = glyphs
            }
            lines.append(Line(glyphs: current, width: Self.measure(current, face)))
        }
        self.lines = lines
    }

    /// Advance width of a run of glyphs with kerning, in pixels.
    static func measure(_ glyphs: [UInt32], _ face: FontFace) -> Double {
        var width = 0.0
        for (i, g) in glyphs.enumerated() {
            width += face.advance(g)
            if i > 0 { width += face.kerning(glyphs[i - 1], g) }
        }
        return width
    }

    /// The text's coverage (0…255) over the pixels of `bounds`: lines from the top of `rect`,
    /// `lineHeight` pixels apart, aligned within its width. Overlapping glyphs combine as a union.
    func coverage(face: FontFace, in rect: Rect, alignment: TextAlignment, lineHeight: Double, bounds: PixelBounds) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: bounds.width * bounds.height)
        for (n, line) in lines.enumerated() {
            let baseline = Int((rect.y + face.ascender + Double(n) * lineHeight).rounded())
            var pen: Double
            switch alignment {
            case .left: pen = rect.x
            case .center: pen = rect.x + (rect.width - line.width) / 2
            case .right: pen = rect.maxX - line.width
            }
            for (i, index) in line.glyphs.enumerated() {
                if i > 0 { pen += face.kerning(line.glyphs[i - 1], index) }
                let whole = pen.rounded(.down)
                let glyph = face.glyph(index, fraction: pen - whole)
                let x0 = Int(whole) + glyph.left - bounds.x, y0 = baseline - glyph.top - bounds.y
                for gy in 0..<glyph.rows where (0..<bounds.height).contains(y0 + gy) {
                    for gx in 0..<glyph.width where (0..<bounds.width).contains(x0 + gx) {
                        let a = UInt32(glyph.coverage[gy * glyph.width + gx])
                        let o = (y0 + gy) * bounds.width + x0 + gx
                        let b = UInt32(out[o])
                        out[o] = UInt8(a + b - divideBy255(a * b))
                    }
                }
                pen += face.advance(index)
            }
        }
        return out
    }
}
