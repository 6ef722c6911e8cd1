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
        // An APNG's frame past the first, composed from those before it (its first is the default
        // image, read as any PNG; an animated WebP's frame is WebPDecoder's).
        if format == .png && options.frame > 0 {
            var all = options
            all.frame = 0
            let animation = try Animation(decoding: bytes, options: all)
            self = animation.frames[try options.frameIndex(of: animation.frames.count)]
            return
        }
        self = Self.withoutDeviceProfile(try bytes.withUnsafeBufferPointer { buffer in
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

    /// No Gray or CMYK profile stays on the RGBA pixels a decoder gives: a gray picture under a Gray
    /// profile is converted to sRGB through it (lcms2); a profile of another colour space (a CMYK
    /// profile on RGB pixels, a Lab one) describes no pixels here and is dropped. RGB profiles stay,
    /// and so do bytes whose header names no colour space Frost knows (passed on as they were).
    static func withoutDeviceProfile(_ image: Image) -> Image {
        guard let profile = image.iccProfile, let space = ColorProfile.colorSpace(of: profile),
              ["GRAY", "CMYK", "Lab", "XYZ"].contains(space) else { return image }
        if space == "GRAY", image.isGray, let converted = try? Image.fromDeviceSpace(image, profile: profile) {
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
        self = Self.withoutDeviceProfile(try bytes.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: options, libpngOnly: true).image })
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
