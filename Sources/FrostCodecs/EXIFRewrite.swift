import FrostColor

/// EXIF made to describe the pixels it is written with (as libvips updates it on save): the
/// Exif IFD's PixelXDimension and PixelYDimension (0xA002, 0xA003) set to the written size, and
/// IFD1, the embedded thumbnail of the original encoding, dropped: IFD0's link to it is cleared, and
/// where IFD1 or its thumbnail lies after everything else the other IFDs point at (the usual layout),
/// the block is cut there (a phone photo's EXIF is mostly its thumbnail). Anything malformed is left
/// as it is.
enum EXIFRewrite {
    static func fitted(_ tiff: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = tiff
        guard let numbers = TIFFNumbers(tiff) else { return tiff }
        let (u16, u32, little) = (numbers.u16, numbers.u32, numbers.little)
        func put(_ value: Int, at: Int, bytes: Int) {
            for k in 0..<bytes {
                out[at + (little ? k : bytes - 1 - k)] = UInt8(truncatingIfNeeded: value >> (8 * k))
            }
        }
        /// Bytes of one value of each TIFF type (1 BYTE … 12 DOUBLE).
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        guard u16(2) == 42, let ifd0 = u32(4) else { return tiff }
        var end = 8                      // the furthest byte IFD0, Exif, GPS and Interop reach
        var visited = Set<Int>()
        /// Walks an IFD (and the IFDs it links to), noting how far it reaches; nil when malformed.
        func walk(_ ifd: Int) -> Bool {
            guard visited.insert(ifd).inserted, let count = u16(ifd), ifd + 2 + count * 12 + 4 <= tiff.count else { return false }
            end = max(end, ifd + 2 + count * 12 + 4)
            for entry in 0..<count {
                let at = ifd + 2 + entry * 12
                guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4), let size = sizes[type] else { return false }
                let bytes = n * size
                if bytes > 4 {
                    guard let offset = u32(at + 8), offset + bytes <= tiff.count else { return false }
                    end = max(end, offset + bytes)
                }
                switch tag {
                case 0x8769, 0x8825, 0xA005:   // Exif, GPS, Interop IFDs
                    guard let link = u32(at + 8), walk(link) else { return false }
                case 0xA002 where n == 1, 0xA003 where n == 1:
                    let value = tag == 0xA002 ? width : height
                    if type == 3, value <= 0xFFFF { put(value, at: at + 8, bytes: 2) }
                    if type == 4 { put(value, at: at + 8, bytes: 4) }
                default: break
                }
            }
            return true
        }
        guard walk(ifd0), let count = u16(ifd0) else { return tiff }
        let link = ifd0 + 2 + count * 12
        guard let ifd1 = u32(link), ifd1 != 0 else { return out }
        put(0, at: link, bytes: 4)
        // What lies after everything the other IFDs reach, IFD1 or its thumbnail (JPEGInterchangeFormat),
        // is cut off (at an even length, as TIFF aligns).
        var thumbnail: Int?
        if let n = u16(ifd1) {
            for entry in 0..<n where u16(ifd1 + 2 + entry * 12) == 0x0201 { thumbnail = u32(ifd1 + 2 + entry * 12 + 8) }
        }
        if let cut = [ifd1, thumbnail ?? -1].filter({ $0 >= end }).min() {
            out.removeSubrange(min(cut + cut % 2, out.count)...)
        }
        return out
    }
}

/// The colour space EXIF says where no profile is embedded (EXIF 2.3, ColorSpace 0xA001, and DCF's
/// interoperability index 0x0001): 1 is sRGB (nothing to add); "uncalibrated" (0xFFFF) with the
/// index "R03" is Adobe RGB, as cameras set to Adobe RGB write it (and some write ColorSpace 2).
enum EXIFColorSpace {
    static func impliedProfile(_ tiff: [UInt8]) -> [UInt8]? {
        guard let numbers = TIFFNumbers(tiff) else { return nil }
        let (u16, u32) = (numbers.u16, numbers.u32)
        /// The entry of `tag` in the IFD at `ifd`: its offset, or nil.
        func entry(_ tag: Int, in ifd: Int) -> Int? {
            guard let count = u16(ifd), count < 1000 else { return nil }
            return (0..<count).map { ifd + 2 + $0 * 12 }.first { u16($0) == tag }
        }
        guard u16(2) == 42, let ifd0 = u32(4), let exifEntry = entry(0x8769, in: ifd0), let exif = u32(exifEntry + 8),
              let spaceEntry = entry(0xA001, in: exif), let space = u16(spaceEntry + 8) else { return nil }
        if space == 2 { return ColorProfile.adobeRGB }
        guard space == 0xFFFF, let interopEntry = entry(0xA005, in: exif), let interop = u32(interopEntry + 8),
              let index = entry(0x0001, in: interop), u32(index + 4) == 4 else { return nil }
        // Four ASCII bytes (with the NUL) fit in the entry itself.
        let value = tiff[(index + 8)..<min(index + 11, tiff.count)]
        return Array(value) == Array("R03".utf8) ? ColorProfile.adobeRGB : nil
    }
}
