import CFrostCodecs
import FrostCore

/// What a file says about its picture besides the pixels and the ICC profile: EXIF (camera, time,
/// orientation, copyright), XMP, IPTC and the resolution. Read from the container of any format
/// Frost reads and written back into any it writes, so that a filter keeps them as libvips does.
///
/// Where each goes: EXIF in JPEG APP1, PNG eXIf, WebP EXIF, AVIF's and HEIC's Exif item; XMP in JPEG
/// APP1, PNG iTXt `XML:com.adobe.xmp`, WebP `XMP `, AVIF's and HEIC's XMP item; IPTC in JPEG APP13
/// only (the others have no place for it); the resolution in JPEG's JFIF header and PNG pHYs (WebP,
/// AVIF and HEIC have none).
public struct ImageMetadata: Sendable, Equatable {
    /// TIFF-structured EXIF data (without JPEG's "Exif\0\0").
    public var exif: [UInt8]?
    /// An XMP packet (XML text).
    public var xmp: [UInt8]?
    /// A JPEG APP13 payload ("Photoshop 3.0" resources holding the IPTC record).
    public var iptc: [UInt8]?
    /// Pixels per inch across and down.
    public var density: (x: Double, y: Double)?

    /// Metadata to write; nil parts are left out.
    public init(exif: [UInt8]? = nil, xmp: [UInt8]? = nil, iptc: [UInt8]? = nil, density: (x: Double, y: Double)? = nil) {
        (self.exif, self.xmp, self.iptc, self.density) = (exif, xmp, iptc, density)
    }

    /// True when there is nothing to write.
    public var isEmpty: Bool { exif == nil && xmp == nil && iptc == nil && density == nil }

    public static func == (a: ImageMetadata, b: ImageMetadata) -> Bool {
        a.exif == b.exif && a.xmp == b.xmp && a.iptc == b.iptc && a.density?.x == b.density?.x && a.density?.y == b.density?.y
    }

    static let exifPrefix: [UInt8] = Array("Exif\0\0".utf8)
    static let xmpNamespace: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let xmpKeyword: [UInt8] = Array("XML:com.adobe.xmp".utf8)

    /// The metadata in a file's bytes (nothing for a format or a file without any). Malformed
    /// containers give what was found before the damage: the pixels' decoder reports the damage.
    public init(reading bytes: [UInt8]) {
        self.init()
        switch ImageFormat(sniffing: bytes) {
        case .jpeg: readJPEG(bytes)
        case .png: readPNG(bytes)
        case .webp: readWebP(bytes)
        case .avif: self = bytes.withUnsafeBufferPointer { HEIFDecoder.metadata($0, format: .avif) }
        case .heic: self = bytes.withUnsafeBufferPointer { HEIFDecoder.metadata($0, format: .heic) }
        case .gif, nil: break
        }
    }

    /// The EXIF orientation (up without EXIF or without the tag).
    var orientation: Orientation {
        Orientation(exifValue: (exif ?? []).withUnsafeBufferPointer { EXIFOrientation.read($0) })
    }

    /// The same metadata for pixels of `width` × `height` newly encoded: the EXIF's pixel
    /// dimensions say so and its thumbnail of the old encoding is gone (`EXIFRewrite`).
    func fitted(width: Int, height: Int) -> ImageMetadata {
        var out = self
        out.exif = exif.map { EXIFRewrite.fitted($0, width: width, height: height) }
        return out
    }

    /// The same metadata for pixels that were turned upright: the EXIF orientation says 1.
    public func uprighted() -> ImageMetadata {
        var out = self
        out.exif = exif.map(EXIFOrientation.settingUpright)
        return out
    }

    // MARK: Reading

    private mutating func readJPEG(_ b: [UInt8]) {
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return }   // the scan: no metadata after it
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return }
            let payload = b[(i + 4)..<(i + 2 + length)]
            switch marker {
            case 0xE0 where payload.starts(with: Array("JFIF\0".utf8)) && payload.count >= 12:
                // Units 1: dots per inch, 2: per centimetre (0: an aspect ratio only).
                let p = Array(payload), units: [UInt8: Double] = [1: 1, 2: 2.54]
                density = Self.density(x: Int(p[8]) << 8 | Int(p[9]), y: Int(p[10]) << 8 | Int(p[11]), unitsPerInch: units[p[7]])
            case 0xE1 where payload.starts(with: Self.exifPrefix) && exif == nil:
                exif = Array(payload.dropFirst(6))
            case 0xE1 where payload.starts(with: Self.xmpNamespace) && xmp == nil:
                // The gain map (a second image) is never written: its description goes too.
                xmp = GainMapXMP.removed(from: Array(payload.dropFirst(Self.xmpNamespace.count)))
            case 0xED where payload.starts(with: Array("Photoshop 3.0\0".utf8)) && iptc == nil:
                iptc = Array(payload)
            default: break
            }
            i += 2 + length
        }
    }

    private mutating func readPNG(_ b: [UInt8]) {
        var i = 8
        while i + 12 <= b.count {
            let length = Int(Self.bigEndian32(b, i)), type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length <= b.count - i - 12 else { return }
            // Only the chunks read here are copied (not the image data).
            var data: [UInt8] { Array(b[(i + 8)..<(i + 8 + length)]) }
            switch type {
            case "eXIf" where exif == nil: exif = data
            case "pHYs" where length == 9:
                // Unit 1: pixels per metre (0: an aspect ratio only).
                let data = data
                density = Self.density(x: Int(Self.bigEndian32(data, 0)), y: Int(Self.bigEndian32(data, 4)),
                                       unitsPerInch: data[8] == 1 ? 0.0254 : nil)
            case "iTXt" where b[(i + 8)...].starts(with: Self.xmpKeyword + [0]) && xmp == nil:
                // keyword \0, compression flag, method, language \0, translated keyword \0, text.
                let data = data
                var j = Self.xmpKeyword.count + 1
                guard j + 2 <= data.count, data[j] == 0 else { break }   // compressed XMP is left out
                j += 2
                for _ in 0..<2 {
                    guard let end = data[j...].firstIndex(of: 0) else { break }
                    j = end + 1
                }
                if j <= data.count { xmp = Array(data[j...]) }
            case "IEND": return
            default: break
            }
            i += 12 + length
        }
    }

    private mutating func readWebP(_ b: [UInt8]) {
        var i = 12
        while i + 8 <= b.count {
            let fourcc = String(decoding: b[i..<(i + 4)], as: UTF8.self), size = Int(Self.littleEndian32(b, i + 4))
            guard size <= b.count - i - 8 else { return }
            let data = b[(i + 8)..<(i + 8 + size)]
            if fourcc == "EXIF", exif == nil { exif = Array(data.starts(with: Self.exifPrefix) ? data.dropFirst(6) : data) }
            if fourcc == "XMP ", xmp == nil { xmp = Array(data) }
            i += 8 + size + (size & 1)
        }
    }

    /// Pixels per inch from pixels per unit (a unit being 1/unitsPerInch of an inch); nil without an
    /// absolute unit or for a 0.
    private static func density(x: Int, y: Int, unitsPerInch: Double?) -> (x: Double, y: Double)? {
        guard let unitsPerInch, x > 0, y > 0 else { return nil }
        return (Double(x) * unitsPerInch, Double(y) * unitsPerInch)
    }

    // MARK: Writing

    /// `encoded` (a file Frost's encoders just wrote, which holds none of this) with the metadata
    /// put where its format keeps it.
    func inserted(into encoded: [UInt8], as format: ImageFormat, hasAlpha: Bool, width: Int, height: Int) -> [UInt8] {
        guard !isEmpty else { return encoded }
        let fitted = fitted(width: width, height: height)
        switch format {
        case .jpeg: return fitted.insertedJPEG(encoded)
        case .png: return fitted.insertedPNG(encoded)
        case .webp: return fitted.insertedWebP(encoded, hasAlpha: hasAlpha, width: width, height: height)
        case .avif, .heic, .gif: return encoded   // the HEIF encoders write them themselves; GIF keeps none
        }
    }

    /// After SOI and the JFIF APP0 (its density set): APP1 EXIF, APP1 XMP, APP13. A segment holds
    /// at most 65533 bytes: a longer block is left out (EXIF's own limit in JPEG).
    private func insertedJPEG(_ b: [UInt8]) -> [UInt8] {
        var head = Array(b[0..<2]), rest = b[2...]
        if b.count > 20, b[2] == 0xFF, b[3] == 0xE0, b[6...10].elementsEqual(Array("JFIF\0".utf8)) {
            let length = Int(b[4]) << 8 | Int(b[5])
            var app0 = Array(b[2..<(4 + length)])
            if let density, density.x.rounded() <= 65535, density.y.rounded() <= 65535 {
                let x = Int(density.x.rounded()), y = Int(density.y.rounded())
                app0[11] = 1   // dots per inch
                (app0[12], app0[13], app0[14], app0[15]) = (UInt8(x >> 8), UInt8(x & 0xFF), UInt8(y >> 8), UInt8(y & 0xFF))
            }
            head += app0
            rest = b[(4 + length)...]
        }
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            guard payload.count + 2 <= 65535 else { return [] }
            return [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        var segments: [UInt8] = []
        if let exif { segments += segment(0xE1, Self.exifPrefix + exif) }
        if let xmp { segments += segment(0xE1, Self.xmpNamespace + xmp) }
        if let iptc { segments += segment(0xED, iptc) }
        return head + segments + rest
    }

    /// Before the first IDAT: pHYs, eXIf and an uncompressed iTXt for XMP.
    private func insertedPNG(_ b: [UInt8]) -> [UInt8] {
        var i = 8
        while i + 12 <= b.count, String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self) != "IDAT" {
            i += 12 + Int(Self.bigEndian32(b, i))
        }
        guard i + 12 <= b.count else { return b }
        return Array(b[..<i]) + pngChunks() + b[i...]
    }

    /// pHYs, eXIf and iTXt (XMP) chunks, as they go before a PNG's first IDAT.
    func pngChunks() -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return Self.bigEndianBytes(UInt32(data.count)) + body + Self.bigEndianBytes(body.withUnsafeBufferPointer { frost_crc32($0.baseAddress, $0.count) })
        }
        var chunks: [UInt8] = []
        if let density {
            let x = UInt32(min(density.x / 0.0254, 4e9).rounded()), y = UInt32(min(density.y / 0.0254, 4e9).rounded())
            chunks += chunk("pHYs", Self.bigEndianBytes(x) + Self.bigEndianBytes(y) + [1])
        }
        if let exif { chunks += chunk("eXIf", exif) }
        if let xmp { chunks += chunk("iTXt", Self.xmpKeyword + [0, 0, 0, 0, 0] + xmp) }
        return chunks
    }

    /// The extended container (VP8X, made from a simple one when needed) with EXIF and XMP chunks
    /// after the image data and their flags set.
    private func insertedWebP(_ b: [UInt8], hasAlpha: Bool, width: Int, height: Int) -> [UInt8] {
        guard exif != nil || xmp != nil, b.count >= 20 else { return b }
        var body = Array(b[12...])
        let flags: UInt8 = (exif != nil ? 0x08 : 0) | (xmp != nil ? 0x04 : 0)
        if String(decoding: body[0..<4], as: UTF8.self) == "VP8X" {
            body[8] |= flags
        } else {
            // A lossless bitstream says whether it uses alpha (VP8L header bit 28); lossy without
            // an ALPH chunk has none.
            let isLossless = String(decoding: body[0..<4], as: UTF8.self) == "VP8L"
            let alpha = isLossless && body.count >= 13 && (Self.littleEndian32(body, 9) >> 28) & 1 == 1
            let w = UInt32(width - 1), h = UInt32(height - 1)
            var vp8x: [UInt8] = Array("VP8X".utf8) + Self.littleEndianBytes(10) + [flags | (alpha && hasAlpha ? 0x10 : 0), 0, 0, 0]
            vp8x += [UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF), UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF)]
            body = vp8x + body
        }
        func chunk(_ fourcc: String, _ data: [UInt8]) -> [UInt8] {
            Array(fourcc.utf8) + Self.littleEndianBytes(UInt32(data.count)) + data + (data.count & 1 == 1 ? [0] : [])
        }
        if let exif { body += chunk("EXIF", exif) }
        if let xmp { body += chunk("XMP ", xmp) }
        return Array("RIFF".utf8) + Self.littleEndianBytes(UInt32(body.count + 4)) + Array("WEBP".utf8) + body
    }

    // MARK: Bytes

    private static func bigEndian32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func littleEndian32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    private static func bigEndianBytes(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func littleEndianBytes(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}
