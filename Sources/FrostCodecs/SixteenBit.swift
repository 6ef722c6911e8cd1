import CFrostCodecs

/// 16 → 8 bit sample reduction by rounding, v8 = (v16 · 255 + 32767) / 65535 (docs/design.md, Pixels),
/// rather than libpng's strip (high byte) which is biased upward by up to half a level.
@inlinable @inline(__always)
func reduceSample16(_ v: UInt16) -> UInt8 {
    UInt8((UInt32(v) &* 255 &+ 32767) / 65535)
}

/// Reduces RGBA16 samples to RGBA8.
func reduce16To8(_ wide: UnsafeBufferPointer<UInt16>, into narrow: UnsafeMutableBufferPointer<UInt8>) {
    for i in 0..<wide.count { narrow[i] = reduceSample16(wide[i]) }
}

/// A 16-bit PNG's samples kept at 16 bits, for a conversion to PNG that changes no pixel
/// (`frost convert`): Frost's operations work on 8 bits, and any of them reduces the samples by
/// rounding (`reduceSample16`); a PNG that only changes its container need not lose the low byte.
public struct SixteenBitPNG: Sendable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// PNG channels: 1 gray, 2 gray and alpha, 3 RGB, 4 RGBA.
    public let channels: Int
    /// RGBA16, straight alpha, native-endian, rows packed.
    public let samples: [UInt16]
    /// The file's ICC profile, written back unchanged.
    public let iccProfile: [UInt8]?

    /// The file's samples when `bytes` are a still 16-bit PNG stored upright (or read with
    /// `autoOrient` off), else nil: those, and an APNG's frames, go through the 8-bit image.
    public init?(bytes: [UInt8], options: DecodeOptions) throws {
        // The bit depth from the IHDR chunk, which comes first (byte 24), without a header read
        // of its own: the 8-bit files that most conversions are then read once, by their decoder.
        guard ImageFormat(sniffing: bytes) == .png, bytes.count > 24, bytes[12..<16].elementsEqual("IHDR".utf8),
              bytes[24] == 16, bytes.withUnsafeBufferPointer({ PNGStructure.firstChunk(PNGStructure.tag("acTL"), in: $0) }) == nil
        else { return nil }
        let (info, samples, icc) = try bytes.withUnsafeBufferPointer { try PNGDecoder.decode16($0, options: options) }
        guard info.orientation == 1 || !options.autoOrient else { return nil }
        (width, height, channels, self.samples, iccProfile) = (info.width, info.height, info.channels, samples, icc)
    }

    /// A 16-bit PNG of the same channels, at `options.compressionLevel` (zlib, libpng's adaptive
    /// filters), with `options.metadata`.
    public func encoded(options: EncodeOptions = EncodeOptions()) throws -> [UInt8] {
        let bytes = try samples.withUnsafeBufferPointer { wide in
            try (iccProfile ?? []).withUnsafeBufferPointer { icc in
                try encoderOutput(.png) {
                    frost_png_encode16(wide.baseAddress, UInt32(width), UInt32(height), Int32(channels), Int32(options.compressionLevel ?? EncodeOptions.defaultPNGLevel),
                                       iccProfile == nil ? nil : icc.baseAddress, UInt32(icc.count), $0, $1, $2)
                }
            }
        }
        return options.metadata?.inserted(into: bytes, as: .png, hasAlpha: channels % 2 == 0, width: width, height: height) ?? bytes
    }
}
