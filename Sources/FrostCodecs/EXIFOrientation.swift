/// Reads the Orientation tag (0x0112) from an EXIF/TIFF block (the bytes after "Exif\0\0").
///
/// Anything malformed — wrong byte-order mark, offsets out of range, wrong type — counts as no tag,
/// and so does a value outside 1...8: the caller gets 1 (upright).
enum EXIFOrientation {
    static func read(_ tiff: UnsafeBufferPointer<UInt8>) -> Int {
        guard let (at, little) = valueOffset(tiff) else { return 1 }
        let value = little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        return (1...8).contains(value) ? value : 1
    }

    /// `tiff` with its Orientation set to 1 (upright), for pixels that were turned; unchanged
    /// without the tag.
    static func settingUpright(_ tiff: [UInt8]) -> [UInt8] {
        var out = tiff
        guard let (at, little) = tiff.withUnsafeBufferPointer({ valueOffset($0) }) else { return tiff }
        (out[at], out[at + 1]) = little ? (1, 0) : (0, 1)
        return out
    }

    /// Where IFD0's Orientation value (a SHORT) lies, and the byte order; nil when absent or malformed.
    private static func valueOffset(_ tiff: UnsafeBufferPointer<UInt8>) -> (Int, little: Bool)? {
        guard let numbers = TIFFNumbers(tiff) else { return nil }
        let (u16, u32, little) = (numbers.u16, numbers.u32, numbers.little)
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112 {
                guard u16(at + 2) == 3, u16(at + 8) != nil else { return nil }  // type SHORT
                return (at + 8, little)
            }
        }
        return nil
    }

    static func read(_ pointer: UnsafePointer<UInt8>?, count: Int) -> Int {
        guard let pointer, count > 0 else { return 1 }
        return read(UnsafeBufferPointer(start: pointer, count: count))
    }
}

/// A TIFF block's byte order ("II" little-endian, "MM" big) and its 16- and 32-bit numbers at a
/// byte offset (nil out of range): what EXIF's readers and its rewrite share.
struct TIFFNumbers<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes
    let little: Bool

    init?(_ bytes: Bytes) {
        guard bytes.count >= 8 else { return nil }
        let (a, b) = (bytes[bytes.startIndex], bytes[bytes.startIndex + 1])
        guard a == b, a == 0x49 || a == 0x4D else { return nil }
        (self.bytes, little) = (bytes, a == 0x49)
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = Int(bytes[bytes.startIndex + at]), b = Int(bytes[bytes.startIndex + at + 1])
        return little ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
        return lo | hi << 16
    }
}
