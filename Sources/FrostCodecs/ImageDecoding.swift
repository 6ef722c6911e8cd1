import FrostColor
import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// Decoding image bytes: the format is sniffed from the content.
extension Image {
    /// Decodes PNG, JPEG, WebP, AVIF, HEIC or GIF bytes (the format is sniffed from the content).
    public init(decoding bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws {
        guard let format = ImageFormat(sniffing: bytes) else {
            throw CodecError(.unknownFormat, bytes.isEmpty ? "empty file" : "not a PNG, JPEG, WebP, AVIF, HEIC or GIF file")
        }
        // An APNG's frame past the first, composed from those before it, or its first where that
        // is not the default image (which is then read as any PNG; an animated WebP's frame is
        // WebPDecoder's).
        if format == .png && (options.frame > 0 || bytes.withUnsafeBufferPointer(PNGStructure.hidesDefaultImage)) {
            var all = options
            all.frame = 0
            let animation = try Animation(decoding: bytes, options: all)
            self = animation.frames[try options.frameIndex(of: animation.frames.count)]
            return
        }
        self = try Self(decodingStill: bytes, format: format, options: options)
    }

    /// The file's one image (a PNG's default image, an animation's frame `options.frame` where
    /// its decoder picks one), its Gray profile converted.
    init(decodingStill bytes: [UInt8], format: ImageFormat, options: DecodeOptions) throws {
        self = Self.withoutDeviceProfile(intent: options.intent, try bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .png: return try PNGDecoder.decode(buffer, options: options)
            case .jpeg:
                _ = try options.frameIndex(of: 1)
                return try JPEGDecoder.decode(buffer, options: options)
            case .webp: return try WebPDecoder.decode(buffer, options: options)
            case .avif, .heic: return try HEIFDecoder.decode(buffer, format: format, options: options)
            case .gif: return try GIFDecoder.decode(buffer, options: options)
            }
        })
    }

    /// No Gray profile stays on the RGBA pixels a decoder gives: a gray picture under a Gray profile
    /// is converted to sRGB through it (lcms2, by `intent`). The decoders keep only profiles that
    /// describe their pixels (`CarriedProfile`); any other colour space left is dropped here.
    static func withoutDeviceProfile(intent: RenderingIntent, _ image: Image) -> Image {
        guard let profile = image.iccProfile, ColorProfile.colorSpace(of: profile) != "RGB" else { return image }
        if ColorProfile.colorSpace(of: profile) == "GRAY", image.isGray,
           let converted = try? Image.fromDeviceSpace(image, profile: profile, intent: intent) {
            return converted
        }
        var untagged = image
        untagged.iccProfile = nil
        return untagged
    }

    /// Decodes PNG bytes with libpng reading every pixel: the reference the direct read (Frost's own
    /// unfiltering, used for most 8-bit files) is held to by the tests and the fuzzers. A Gray
    /// profile (or a gray file's gAMA) is converted as `init(decoding:)` converts it.
    public init(decodingPNGWithLibpng bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws {
        guard ImageFormat(sniffing: bytes) == .png else { throw CodecError(.unknownFormat, "not a PNG file") }
        self = Self.withoutDeviceProfile(intent: options.intent,
                                         try bytes.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: options, libpngOnly: true).image })
    }
}

extension ImageInfo {
    /// Reads the header in `bytes` (PNG, JPEG, WebP, AVIF, HEIC or GIF).
    public init(bytes: [UInt8]) throws {
        guard let format = ImageFormat(sniffing: bytes) else {
            throw CodecError(.unknownFormat, bytes.isEmpty ? "empty file" : "not a PNG, JPEG, WebP, AVIF, HEIC or GIF file")
        }
        self = try bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .png: return try PNGDecoder.info(buffer)
            case .jpeg: return try JPEGDecoder.info(buffer)
            case .webp: return try WebPDecoder.info(buffer)
            case .avif, .heic: return try HEIFDecoder.info(buffer, format: format)
            case .gif: return try GIFDecoder.info(buffer)
            }
        }
    }
}
