import CFrostCodecs
import FrostCore

/// Reads JPEG files through CFrostCodecs (libjpeg-turbo): baseline, progressive, arithmetic,
/// gray, CMYK/YCCK (converted to RGB), EXIF orientation, APP2 ICC profiles.
enum JPEGDecoder {
    private final class Session {
        let decoder: OpaquePointer
        var header = frost_jpeg_info()

        init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            guard let d = frost_jpeg_decoder_create(bytes.baseAddress, bytes.count) else {
                throw CodecError(.outOfMemory, "out of memory")
            }
            decoder = d
            var error = frost_error()
            try check(frost_jpeg_read_header(decoder, &header, &error), error, .jpeg)
        }

        deinit { frost_jpeg_decoder_destroy(decoder) }

        var info: ImageInfo {
            // libjpeg's J_COLOR_SPACE numbering: 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK.
            let models = [1: "gray", 2: "rgb", 3: "ycbcr", 4: "cmyk", 5: "ycck"]
            let gray = header.components == 1
            return ImageInfo(
                format: .jpeg, width: Int(header.width), height: Int(header.height),
                channels: gray ? 1 : 3, bitDepth: 8, hasAlpha: false,
                hasICCProfile: header.icc_length > 0,
                orientation: EXIFOrientation.read(header.exif, count: Int(header.exif_length)),
                colorModel: models[Int(header.color_space)] ?? "unknown",
                interlaced: header.progressive != 0)
        }

        var iccProfile: [UInt8]? { copiedBytes(header.icc, count: header.icc_length) }
    }

    static func info(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ImageInfo {
        try Session(bytes).info
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> Image {
        let session = try Session(bytes)
        let info = session.info
        try options.checkBudget(width: info.width, height: info.height)
        let count = info.width * info.height * 4
        let pixels: [UInt8] = try decodedSamples(count: count) { buffer in
            var error = frost_error()
            let status = frost_jpeg_read_pixels(session.decoder, buffer.baseAddress, info.width * 4,
                                                options.allowTruncated ? 1 : 0, &error)
            try check(status, error, .jpeg)
        }
        let image = Image(width: info.width, height: info.height, pixels: pixels, isPremultiplied: false,
                          hasAlpha: false, isGray: info.channels == 1, iccProfile: session.iccProfile)
        return options.autoOrient ? image.oriented(Orientation(exifValue: info.orientation)) : image
    }
}
