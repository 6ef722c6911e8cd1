import CFrostCodecs
import FrostCore

/// Reads an animated PNG's frames (APNG 1.0, https://wiki.mozilla.org/APNG_Specification): each
/// frame's data (the IDAT for a first frame that is the default image, fdAT after) is re-wrapped as
/// a PNG of the frame's size, with the file's palette and transparency, and decoded by the PNG
/// reader; then composed on the canvas by its blend (source or over) after the previous frame's
/// dispose (none, background: transparent, previous: as before it). The frame count in acTL is
/// checked against the limits before any frame is decoded.
enum APNGDecoder {
    private struct Chunk {
        let type: UInt32
        let body: Range<Int>
    }

    private struct FrameControl {
        let width, height, x, y: Int
        let delay: Double
        let dispose, blend: UInt8
        var data: [UInt8] = []
    }

    private static func be32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
    }

    /// The chunks in order (stops at IEND or where the file is cut short: the PNG reader reports that).
    private static func chunks(_ b: [UInt8]) -> [Chunk] {
        var out: [Chunk] = [], offset = 8
        while offset + 12 <= b.count {
            let length = be32(b, offset), type = UInt32(be32(b, offset + 4))
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= b.count else { break }
            out.append(Chunk(type: type, body: (offset + 8)..<(offset + 8 + length)))
            if type == PNGStructure.tag("IEND") { break }
            offset += 12 + length
        }
        return out
    }

    /// Every frame and its delay in seconds; nil for a PNG without acTL (a still image).
    static func animation(_ bytes: [UInt8], options: DecodeOptions) throws -> (frames: [Image], delays: [Double])? {
        let all = chunks(bytes)
        let tag = PNGStructure.tag
        guard let header = all.first, header.type == tag("IHDR"), header.body.count == 13,
              let actl = all.first(where: { $0.type == tag("acTL") }), actl.body.count == 8 else { return nil }
        let (width, height) = (be32(bytes, header.body.lowerBound), be32(bytes, header.body.lowerBound + 4))
        let announced = be32(bytes, actl.body.lowerBound)
        guard announced >= 1 else { throw CodecError(.corrupt, "invalid PNG: acTL announces no frames") }
        try options.checkFrames(announced)
        try options.checkBudget(width: width, height: height)
        try options.checkFrames(announced, of: width, by: height)

        // The chunks every frame's PNG carries: those between IHDR and the first IDAT that describe
        // the pixels (palette, transparency, colour), not the animation's own.
        let firstData = all.firstIndex { $0.type == tag("IDAT") } ?? all.count
        let shared = all[1..<firstData].filter { ![tag("acTL"), tag("fcTL"), tag("fdAT")].contains($0.type) }
        var controls: [FrameControl] = []
        for chunk in all {
            let b = chunk.body.lowerBound
            switch chunk.type {
            case tag("fcTL"):
                guard chunk.body.count == 26 else { throw CodecError(.corrupt, "invalid PNG: fcTL of \(chunk.body.count) bytes") }
                let numerator = Int(bytes[b + 20]) << 8 | Int(bytes[b + 21]), denominator = Int(bytes[b + 22]) << 8 | Int(bytes[b + 23])
                let control = FrameControl(width: be32(bytes, b + 4), height: be32(bytes, b + 8), x: be32(bytes, b + 12), y: be32(bytes, b + 16),
                                           delay: Double(numerator) / Double(denominator == 0 ? 100 : denominator),
                                           dispose: bytes[b + 24], blend: bytes[b + 25])
                guard control.width > 0, control.height > 0, control.x + control.width <= width, control.y + control.height <= height,
                      control.dispose <= 2, control.blend <= 1 else {
                    throw CodecError(.corrupt, "invalid PNG: frame \(controls.count + 1)'s region lies outside the canvas")
                }
                guard controls.count < announced else { throw CodecError(.corrupt, "invalid PNG: more frames than acTL announces") }
                controls.append(control)
            case tag("IDAT") where controls.count == 1:
                controls[0].data += bytes[chunk.body]   // an fcTL before IDAT: the default image is the first frame
            case tag("fdAT"):
                guard !controls.isEmpty, chunk.body.count >= 4 else { throw CodecError(.corrupt, "invalid PNG: fdAT before its fcTL") }
                controls[controls.count - 1].data += bytes[(b + 4)..<chunk.body.upperBound]
            default: break
            }
        }
        guard controls.count == announced, controls.allSatisfy({ !$0.data.isEmpty }) else {
            throw CodecError(.corrupt, "invalid PNG: acTL announces \(announced) frames, \(controls.filter { !$0.data.isEmpty }.count) have data")
        }

        var canvas = Image(width: width, height: height, filledWith: (0, 0, 0, 0))
        var frames: [Image] = [], delays: [Double] = []
        var frameOptions = options
        frameOptions.autoOrient = false
        for (k, control) in controls.enumerated() {
            let png = framePNG(bytes, header: header, shared: shared, control: control)
            let part = try png.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: frameOptions) }
            let before = control.dispose == 2 ? canvas : nil
            draw(part, onto: &canvas, at: control, over: control.blend == 1 && k > 0)
            frames.append(canvas)
            delays.append(control.delay)
            switch control.dispose {
            case 1: clear(&canvas, control)
            case 2: if let before { canvas = before }
            default: break
            }
        }
        let alpha = frames.contains { $0.containsTransparency }
        return (frames.map { Image(width: width, height: height, pixels: $0.pixels, hasAlpha: alpha) }, delays)
    }

    /// A PNG of one frame: the file's IHDR with the frame's size, the shared chunks, its data as one IDAT.
    private static func framePNG(_ bytes: [UInt8], header: Chunk, shared: [Chunk], control: FrameControl) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            let typed = Array(type.utf8) + body
            out += be32Bytes(body.count) + typed + be32Bytes(Int(typed.withUnsafeBufferPointer { frost_crc32($0.baseAddress, $0.count) }))
        }
        var ihdr = Array(bytes[header.body])
        ihdr.replaceSubrange(0..<8, with: be32Bytes(control.width) + be32Bytes(control.height))
        chunk("IHDR", ihdr)
        for c in shared { chunk(PNGStructure.name(c.type), Array(bytes[c.body])) }
        chunk("IDAT", control.data)
        chunk("IEND", [])
        return out
    }

    private static func be32Bytes(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }

    /// The frame's pixels into its region: replacing them (blend source), or over them (straight
    /// alpha, the APNG specification's formula, rounded).
    private static func draw(_ part: Image, onto canvas: inout Image, at c: FrameControl, over: Bool) {
        let width = canvas.width
        part.pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<c.height {
                    for x in 0..<c.width {
                        let s = (y * c.width + x) * 4, t = ((c.y + y) * width + c.x + x) * 4
                        let sa = Int(source[s + 3])
                        guard over, sa < 255 else {
                            for i in 0..<4 { target[t + i] = source[s + i] }
                            continue
                        }
                        guard sa > 0 else { continue }
                        let u = sa * 255, v = (255 - sa) * Int(target[t + 3]), a = u + v
                        for i in 0..<3 { target[t + i] = UInt8((Int(source[s + i]) * u + Int(target[t + i]) * v + a / 2) / a) }
                        target[t + 3] = UInt8((a + 127) / 255)
                    }
                }
            }
        }
    }

    private static func clear(_ canvas: inout Image, _ c: FrameControl) {
        let width = canvas.width
        canvas.pixels.withUnsafeMutableBufferPointer { target in
            for y in c.y..<(c.y + c.height) {
                for i in ((y * width + c.x) * 4)..<((y * width + c.x + c.width) * 4) { target[i] = 0 }
            }
        }
    }
}
