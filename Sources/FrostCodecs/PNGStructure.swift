import CFrostCodecs

/// A structural walk over a PNG's chunk list, before libpng sees the file.
///
/// libpng treats malformed ancillary chunks as "benign" and carries on; Frost rejects chunks that
/// break the PNG specification's structure (ISO/IEC 15948 §11): a length above 2³¹−1, a type that
/// is not four letters, a fixed-size chunk with the wrong length, an iCCP whose keyword or
/// compression method is invalid. Checksums stay libpng's job (critical chunk → error, ancillary
/// chunk → dropped), and so does the content of an ICC profile (a broken profile is dropped).
enum PNGStructure {
    /// Chunks whose length the specification fixes.
    static let fixedLengths: [UInt32: Int] = [
        tag("gAMA"): 4, tag("cHRM"): 32, tag("sRGB"): 1, tag("pHYs"): 9, tag("tIME"): 7,
        tag("oFFs"): 9, tag("sTER"): 1, tag("IEND"): 0,
    ]

    static func tag(_ name: StaticString) -> UInt32 {
        name.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    static func name(_ tag: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }

    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        func u32(_ at: Int) -> UInt32 {
            (UInt32(bytes[at]) << 24) | (UInt32(bytes[at + 1]) << 16) | (UInt32(bytes[at + 2]) << 8) | UInt32(bytes[at + 3])
        }
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = u32(offset + 4)
            guard length <= 0x7FFF_FFFF else {
                throw CodecError(.corrupt, "invalid PNG: chunk length \(length) at byte \(offset) exceeds 2^31-1")
            }
            let isLetters = (0..<4).allSatisfy { i in
                let c = bytes[offset + 4 + i] | 0x20
                return c >= 0x61 && c <= 0x7A
            }
            guard isLetters else { throw CodecError(.corrupt, "invalid PNG: bad chunk type at byte \(offset + 4)") }
            if let expected = fixedLengths[type], Int(length) != expected {
                throw CodecError(.corrupt, "invalid PNG: \(name(type)) chunk has length \(length) (must be \(expected))")
            }
            let body = offset + 8
            let end = body + Int(length)
            guard end + 4 <= bytes.count else { return }  // truncated: libpng reports where it runs out
            if type == tag("iCCP") { try checkICCP(bytes, from: body, to: end) }
            if type == tag("IEND") { return }
            offset = end + 4
        }
    }

    /// Walks the chunks from the first on, handing each one's type, its offset and its body to
    /// `visit` while it returns true, up to IEND or a chunk the bytes do not hold.
    private static func walk(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (_ type: UInt32, _ offset: Int, _ body: Range<Int>) -> Bool) {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = (offset + 4..<offset + 8).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[$1]) }
            let body = offset + 8
            guard length <= 0x7FFF_FFFF, body + length <= bytes.count, type != tag("IEND"),
                  visit(type, offset, body..<body + length) else { return }
            offset = body + length + 4
        }
    }

    /// The frame count an APNG's acTL announces (before the first IDAT), its plays (num_plays, 0:
    /// forever) and the sum of its frames' delays in seconds (fcTL), or 1, 0 and 0 for a still PNG.
    static func animation(_ bytes: UnsafeBufferPointer<UInt8>) -> (frames: Int, loops: Int, duration: Double) {
        var frames = 1, loops = 0, animated = false, duration = 0.0
        walk(bytes) { type, _, body in
            if type == tag("IDAT") && !animated { return false }
            let b = body.lowerBound
            if type == tag("acTL"), body.count == 8 {
                frames = max((b..<b + 4).reduce(0) { $0 << 8 | Int(bytes[$1]) }, 1)
                loops = (b + 4..<b + 8).reduce(0) { $0 << 8 | Int(bytes[$1]) }
                animated = true
            }
            if type == tag("fcTL"), body.count == 26 {
                let numerator = Int(bytes[b + 20]) << 8 | Int(bytes[b + 21]), denominator = Int(bytes[b + 22]) << 8 | Int(bytes[b + 23])
                duration += Double(numerator) / Double(denominator == 0 ? 100 : denominator)
            }
            return true
        }
        return (frames, frames > 1 ? loops : 0, duration)
    }

    /// The offset and body of the first chunk of `type` before the first IDAT.
    static func firstChunk(_ type: UInt32, in bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, body: Range<Int>)? {
        var found: (Int, Range<Int>)?
        walk(bytes) { chunk, offset, body in
            if chunk == type { found = (offset, body) }
            return found == nil && chunk != tag("IDAT")
        }
        return found
    }

    /// An animated PNG (an acTL of its 8 bytes) whose default image (the IDAT) is not its first
    /// frame: no fcTL comes before the IDAT (APNG 1.0, "the default image is not part of the
    /// animation").
    static func hidesDefaultImage(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstChunk(tag("acTL"), in: bytes)?.body.count == 8 && firstChunk(tag("fcTL"), in: bytes) == nil
    }

    /// The code points of a cICP chunk before the first IDAT (PNG, third edition, 11.3.2.6: colour
    /// primaries, transfer, matrix 0 (RGB), full range 1), its CRC checked (a bad one drops it, as
    /// libpng drops an ancillary chunk's); nil without one, or for one PNG does not allow.
    static func cicp(_ bytes: UnsafeBufferPointer<UInt8>) -> CICP? {
        guard let (offset, body) = firstChunk(tag("cICP"), in: bytes), body.count == 4, body.upperBound + 4 <= bytes.count,
              bytes[body.lowerBound + 2] == 0, bytes[body.lowerBound + 3] == 1,
              frost_crc32(bytes.baseAddress! + offset + 4, 8) == (body.upperBound..<body.upperBound + 4).reduce(UInt32(0), { $0 << 8 | UInt32(bytes[$1]) })
        else { return nil }
        return CICP(primaries: Int(bytes[body.lowerBound]), transfer: Int(bytes[body.lowerBound + 1]), matrix: 0)
    }

    /// iCCP: a 1–79 byte keyword, a NUL, compression method 0, then the zlib stream.
    private static func checkICCP(_ bytes: UnsafeBufferPointer<UInt8>, from body: Int, to end: Int) throws {
        guard let nul = (body..<min(end, body + 80)).first(where: { bytes[$0] == 0 }), nul > body else {
            throw CodecError(.corrupt, "invalid PNG: iCCP chunk has no valid profile name")
        }
        guard nul + 1 < end, bytes[nul + 1] == 0 else {
            throw CodecError(.corrupt, "invalid PNG: iCCP chunk has an unknown compression method")
        }
    }
}
