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
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return lo | hi << 16
        }
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
