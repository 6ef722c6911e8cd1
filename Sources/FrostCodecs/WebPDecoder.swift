import CFrostCodecs
import FrostCore

/// Reads still WebP files through CFrostCodecs (libwebp): lossy with or without alpha, lossless,
/// the ICC profile and the EXIF orientation of the extended container (applied as a JPEG's is).
/// An animation's frame is read through libwebpdemux (`AnimatedWebPFrames`), its frames by `Animation`.
enum WebPDecoder {
    private struct Header {
        let raw: frost_webp_info

        init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            var info = frost_webp_info()
            var error = frost_error()
            try check(frost_webp_read_header(bytes.baseAddress, bytes.count, &info, &error), error, .webp)
            raw = info
        }

        var info: ImageInfo {
            let alpha = raw.has_alpha != 0
            var info = ImageInfo(format: .webp, width: Int(raw.width), height: Int(raw.height),
                             channels: alpha ? 4 : 3, bitDepth: 8, hasAlpha: alpha,
                             hasICCProfile: raw.icc_length > 0,
                             orientation: EXIFOrientation.read(raw.exif, count: Int(raw.exif_length)),
                             colorModel: raw.animated != 0 ? "animated" : raw.lossless != 0 ? "lossless" : "lossy",
                             interlaced: false, frames: max(Int(raw.frames), 1))
            info.duration = Double(raw.duration_ms) / 1000
            info.loops = info.frames > 1 ? Int(raw.loops) : 0
            info.iccProfile = profile.usable
            info.ignoredProfile = profile.ignored
            return info
        }

        /// The ICCP chunk's profile, checked against the RGB pixels.
        var profile: CarriedProfile { CarriedProfile(copiedBytes(raw.icc, count: raw.icc_length), for: .rgb) }
    }

    static func info(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ImageInfo {
        try Header(bytes).info
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> Image {
        let header = try Header(bytes)
        // An animation's frame, composed from those before it (the frames after it never decoded).
        if header.raw.animated != 0 {
            return try AnimatedWebPFrames(bytes, options: options, first: options.frame, count: 1).frames[0]
        }
        let info = header.info
        DecodeWarnings.ignoredProfile(info.ignoredProfile)
        _ = try options.frameIndex(of: 1)
        try options.checkBudget(width: info.width, height: info.height)
        // Shrunk on load as a JPEG's DCT scaling shrinks it: ⌈w/r⌉ × ⌈h/r⌉.
        let r = max(options.reduction, 1)
        let (width, height) = ((info.width + r - 1) / r, (info.height + r - 1) / r)
        let pixels: [UInt8] = try decodedSamples(count: width * height * 4) { buffer in
            var error = frost_error()
            try check(frost_webp_read_pixels(bytes.baseAddress, bytes.count, buffer.baseAddress, width * 4,
                                             UInt32(width), UInt32(height), &error), error, .webp)
        }
        let image = Image(width: width, height: height, pixels: pixels, isPremultiplied: false,
                          hasAlpha: info.hasAlpha, isGray: false, iccProfile: info.iccProfile)
        return options.autoOrient ? image.oriented(Orientation(exifValue: info.orientation)) : image
    }
}
