import CFrostCodecs
import FrostColor
@_spi(Kernels) import FrostCore

/// Reads the primary image of a HEIF container through CFrostCodecs: AVIF with libavif, HEIC with
/// libheif. 10- and 12-bit files are read down to 8 bits; an AVIF sequence gives `options.frame`.
/// An AVIF's rotation and mirror (irot, imir) are applied as a JPEG's EXIF orientation is (libavif
/// leaves them to the caller); libheif applies a HEIC's itself, with its crop.
enum HEIFDecoder {
    /// A parsed container: its header read, no pixel memory taken; the C decoder freed with it.
    private final class Container {
        let format: ImageFormat
        let handle: OpaquePointer
        let raw: frost_heif_info

        /// `decoding`: the limits of a decode (an AVIF's frame is held to them as it is decoded);
        /// nil to read the header only.
        init(_ format: ImageFormat, _ bytes: UnsafeBufferPointer<UInt8>, decoding options: DecodeOptions? = nil) throws {
            var handle: OpaquePointer? = nil, info = frost_heif_info(), error = frost_error()
            let status = format == .avif
                ? frost_avif_open(bytes.baseAddress, bytes.count, Int32(RowBands.threads(nil)), UInt32(clamping: options?.maxPixels ?? 0),
                                  UInt32(clamping: options?.maxSide ?? 0), &handle, &info, &error)
                : frost_heic_open(bytes.baseAddress, bytes.count, options?.autoOrient ?? true ? 1 : 0, &handle, &info, &error)
            try check(status, error, format)
            (self.format, self.handle, self.raw) = (format, handle!, info)
        }

        deinit {
            if format == .avif { frost_avif_free(handle) } else { frost_heic_free(handle) }
        }

        var orientation: Orientation { Orientation(heifTurns: Int(raw.rotation), mirror: Int(raw.mirror)) }

        var info: ImageInfo {
            let alpha = raw.has_alpha != 0, gray = raw.chroma == 400
            var info = ImageInfo(format: format, width: Int(raw.width), height: Int(raw.height),
                                 channels: (gray ? 1 : 3) + (alpha ? 1 : 0), bitDepth: Int(raw.depth), hasAlpha: alpha,
                                 hasICCProfile: raw.icc_length > 0, orientation: orientation.rawValue,
                                 colorModel: raw.chroma == 0 ? "yuv" : gray ? "gray" : "yuv\(raw.chroma)",
                                 interlaced: false, frames: max(Int(raw.frames), 1))
            info.duration = raw.duration
            let profile = CarriedProfile(copiedBytes(raw.icc, count: raw.icc_length), for: gray ? .gray : .rgb)
            (info.iccProfile, info.ignoredProfile) = (profile.usable, profile.ignored)
            if raw.cicp_primaries > 0 {
                info.cicp = CICP(primaries: Int(raw.cicp_primaries), transfer: Int(raw.cicp_transfer), matrix: Int(raw.cicp_matrix))
            }
            return info
        }

        /// Seconds frame `frame` of a sequence shows, from the container.
        func duration(of frame: Int) throws -> Double {
            var seconds = 0.0, error = frost_error()
            try check(frost_avif_frame_duration(handle, UInt32(frame), &seconds, &error), error, format)
            return seconds
        }

        var metadata: ImageMetadata {
            ImageMetadata(exif: copiedBytes(raw.exif, count: raw.exif_length), xmp: copiedBytes(raw.xmp, count: raw.xmp_length))
        }

        func pixels(count: Int, rowBytes: Int, frame: Int) throws -> [UInt8] {
            try decodedSamples(count: count) { (buffer: UnsafeMutableBufferPointer<UInt8>) in
                var error = frost_error()
                let status = format == .avif
                    ? frost_avif_read_pixels(handle, UInt32(frame), buffer.baseAddress, rowBytes, &error)
                    : frost_heic_read_pixels(handle, buffer.baseAddress, rowBytes, &error)
                try check(status, error, format)
            }
        }
    }

    static func info(_ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat) throws -> ImageInfo {
        try Container(format, bytes).info
    }

    static func metadata(_ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat) -> ImageMetadata {
        (try? Container(format, bytes).metadata) ?? ImageMetadata()
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat, options: DecodeOptions) throws -> Image {
        let container = try Container(format, bytes, decoding: options)
        let info = container.info
        try options.checkBudget(width: info.width, height: info.height)
        return try image(container, info, frame: try options.frameIndex(of: info.frames), options: options)
    }

    /// Every frame of an AVIF sequence with its duration (a still AVIF is one frame of none); the
    /// frame count and the pixels of all frames together are checked before any is decoded.
    static func animation(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> (frames: [Image], delays: [Double]) {
        let container = try Container(.avif, bytes, decoding: options)
        let info = container.info
        try options.checkFrames(info.frames)
        try options.checkBudget(width: info.width, height: info.height)
        try options.checkFrames(info.frames, of: info.width, by: info.height)
        let delays = info.frames > 1 ? try (0..<info.frames).map { try container.duration(of: $0) } : [0]
        return (try (0..<info.frames).map { try image(container, info, frame: $0, options: options) }, delays)
    }

    private static func image(_ container: Container, _ info: ImageInfo, frame: Int, options: DecodeOptions) throws -> Image {
        DecodeWarnings.ignoredProfile(info.ignoredProfile)
        let profile = try colorProfile(info, gray: container.raw.chroma == 400)
        let pixels = try container.pixels(count: info.width * info.height * 4, rowBytes: info.width * 4, frame: frame)
        let image = Image(width: info.width, height: info.height, pixels: pixels,
                          isPremultiplied: container.raw.premultiplied != 0 && info.hasAlpha, hasAlpha: info.hasAlpha,
                          isGray: container.raw.chroma == 400, iccProfile: profile)
        return options.autoOrient && container.format == .avif ? image.oriented(container.orientation) : image
    }

    /// The profile the pixels are in: the ICC profile, else the one the CICP (nclx) says where it
    /// is not sRGB (a P3 or BT.2020 picture signalled the AVIF way; a Gray profile of its white and
    /// curve for a gray one), built by lcms2. A PQ or HLG (HDR) picture is refused: its 8-bit
    /// reading would be wrong and Frost has no tone map yet.
    private static func colorProfile(_ info: ImageInfo, gray: Bool) throws -> [UInt8]? {
        if let icc = info.iccProfile { return icc }
        guard let cicp = info.cicp else { return nil }
        if cicp.isHDR {
            throw CodecError(.unsupported, "an HDR picture (CICP transfer \(cicp.transfer), \(cicp.transfer == 16 ? "PQ" : "HLG")): Frost reads 8-bit SDR and has no tone map yet")
        }
        guard !cicp.isSRGB else { return nil }
        do {
            return try ColorProfile.forCICP(primaries: cicp.primaries, transfer: cicp.transfer, gray: gray)
        } catch {
            throw CodecError(.unsupported, "colours said by CICP \(cicp.primaries)/\(cicp.transfer)/\(cicp.matrix): \(error.description)")
        }
    }
}
