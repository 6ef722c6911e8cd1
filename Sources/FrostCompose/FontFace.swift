import CFreeType
import FrostCore

/// One font file opened with FreeType at one pixel size: metrics, advances, kerning and glyph
/// coverage bitmaps. Glyphs are unhinted (as iOS and macOS draw text) and positioned to a quarter
/// pixel, so layout is the same at every scale. Not thread-safe: one face per text layer.
final class FontFace {
    /// A rendered glyph: 8-bit coverage rows, placed relative to the pen on the baseline.
    struct Glyph {
        let left: Int
        let top: Int
        let width: Int
        let rows: Int
        let coverage: [UInt8]
    }

    private var library: FT_Library?
    private var face: FT_Face?
    private let fontBytes: UnsafeMutableBufferPointer<UInt8>
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var advances: [UInt32: Double] = [:]

    private struct GlyphKey: Hashable {
        let index: UInt32
        let quarter: Int
    }

    /// Opens the font in `bytes` at `pixelSize` pixels per em. `name` labels errors.
    init(bytes: [UInt8], name: String, pixelSize: Double) throws(ComposeError) {
        fontBytes = .allocate(capacity: max(1, bytes.count))
        _ = fontBytes.initialize(from: bytes)
        guard FT_Init_FreeType(&library) == 0 else {
            fontBytes.deallocate()
            throw ComposeError(name, "FreeType could not start")
        }
        let status = FT_New_Memory_Face(library, fontBytes.baseAddress, FT_Long(bytes.count), 0, &face)
        guard status == 0, let face else {
            FT_Done_FreeType(library)
            fontBytes.deallocate()
            throw ComposeError(name, "not a font FreeType can read (FreeType error \(status))")
        }
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            fontBytes.deallocate()
            throw ComposeError(name, "cannot set the font to \(pixelSize) pixels")
        }
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
        fontBytes.deallocate()
    }

    /// Baseline below the top of a line, in pixels.
    var ascender: Double { Double(face!.pointee.size.pointee.metrics.ascender) / 64 }
    /// The font's baseline-to-baseline distance, in pixels.
    var lineHeight: Double { Double(face!.pointee.size.pointee.metrics.height) / 64 }

    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
        UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
    }

    /// The unhinted advance of a glyph, in pixels.
    func advance(_ index: UInt32) -> Double {
        if let known = advances[index] { return known }
        var value = 0.0
        if FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_NO_HINTING)) == 0 {
            value = Double(face!.pointee.glyph.pointee.linearHoriAdvance) / 65536
        }
        advances[index] = value
        return value
    }

    /// Horizontal kerning between two glyphs, in pixels (0 for fonts without a kern table).
    func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard face!.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0 else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_UNFITTED.rawValue), &delta) == 0 else { return 0 }
        return Double(delta.x) / 64
    }

    /// The coverage bitmap of a glyph whose pen sits `fraction` (0..<1) pixels right of a pixel edge.
    func glyph(_ index: UInt32, fraction: Double) -> Glyph {
        let quarter = min(3, max(0, Int(fraction * 4)))
        let key = GlyphKey(index: index, quarter: quarter)
        if let known = glyphs[key] { return known }
        var shift = FT_Vector(x: FT_Pos(quarter * 16), y: 0)
        FT_Set_Transform(face, nil, &shift)
        var glyph = Glyph(left: 0, top: 0, width: 0, rows: 0, coverage: [])
        if FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER | FT_LOAD_NO_HINTING)) == 0 {
            let slot = face!.pointee.glyph.pointee
            let bitmap = slot.bitmap
            let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), width > 0, rows > 0, let buffer = bitmap.buffer {
                var coverage = [UInt8](repeating: 0, count: width * rows)
                for y in 0..<rows {
                    for x in 0..<width { coverage[y * width + x] = buffer[y * pitch + x] }
                }
                glyph = Glyph(left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), width: width, rows: rows, coverage: coverage)
            }
        }
        FT_Set_Transform(face, nil, nil)
        glyphs[key] = glyph
        return glyph
    }
}
