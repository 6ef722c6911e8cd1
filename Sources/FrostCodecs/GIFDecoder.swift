import CFrostCodecs
import FrostCore

/// Reads GIF through CFrostCodecs (giflib): every frame composed on the canvas as browsers show it
/// (disposal, transparency, interlace). The header walk counts the frames without decompressing
/// any, so the frame and pixel limits hold before pixel memory exists. A still read gives
/// `options.frame` (the first by default).
enum GIFDecoder {
    struct Header {
        let raw: frost_gif_info

        /// A file broken after whole frames is read as far as it holds them where `needed` frames
        /// (nil: all) lie before the break, or with `allowTruncated`; otherwise its error stands.
        init(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions, needed: Int? = nil) throws {
            var info = frost_gif_info(), error = frost_error()
            let status = frost_gif_read_header(bytes.baseAddress, bytes.count, UInt32(clamping: options.maxFrames), &info, &error)
            let usable = info.broken != 0 && (options.allowTruncated || needed.map { $0 <= Int(info.frames) } ?? false)
            if !usable { try check(status, error, .gif) }
            raw = info
        }

        var info: ImageInfo {
            let alpha = raw.has_alpha != 0
            var info = ImageInfo(format: .gif, width: Int(raw.width), height: Int(raw.height), channels: alpha ? 4 : 3,
                                 bitDepth: 8, hasAlpha: alpha, hasICCProfile: false, orientation: 1, colorModel: "palette",
                                 interlaced: raw.interlaced != 0, frames: Int(raw.frames))
            info.duration = Double(raw.duration_ms) / 1000
            // No NETSCAPE2.0 block: the frames play once.
            info.loops = raw.frames > 1 ? (raw.loops < 0 ? 1 : Int(raw.loops)) : 0
            return info
        }
    }

    /// The header, every frame counted (the walk reads no pixels, so no frame limit applies).
    static func info(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ImageInfo {
        var unlimited = DecodeOptions()
        unlimited.maxFrames = Int(UInt32.max)
        return try Header(bytes, options: unlimited).info
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> Image {
        let header = try Header(bytes, options: options, needed: options.requiresEveryFrame ? nil : options.frame + 1)
        let frame = try options.frameIndex(of: Int(header.raw.frames))
        return try frames(bytes, header: header, range: frame..<(frame + 1), options: options).frames[0]
    }

    /// Every frame, within `options`' limits: the pixels of all frames together at most `maxPixels`.
    static func animation(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> (frames: [Image], delays: [Double]) {
        let header = try Header(bytes, options: options)
        let info = header.info
        try options.checkBudget(width: info.width, height: info.height)
        try options.checkFrames(info.frames, of: info.width, by: info.height)
        return try frames(bytes, header: header, range: 0..<info.frames, options: options)
    }

    private static func frames(_ bytes: UnsafeBufferPointer<UInt8>, header: Header, range: Range<Int>,
                               options: DecodeOptions) throws -> (frames: [Image], delays: [Double]) {
        let (width, height) = (Int(header.raw.width), Int(header.raw.height))
        try options.checkBudget(width: width, height: height)
        // A frame's rectangle may reach past the canvas; all of it is decompressed before clipping.
        try options.checkPixels(width: Int(header.raw.largest_width), height: Int(header.raw.largest_height), of: "a frame of")
        let size = width * height * 4
        // Frames inside the canvas decompress at most a canvas each; rectangles reaching past it
        // are bounded by the pixel limit (a 1×1 canvas of 256 frames of 7000×7000 took a minute).
        let drawable = UInt64(max(options.maxPixels, width * height * range.upperBound))
        var delays = [Int32](repeating: 0, count: range.count)
        let pixels: [UInt8] = try decodedSamples(count: size * range.count) { buffer in
            var error = frost_error()
            try check(delays.withUnsafeMutableBufferPointer {
                frost_gif_decode(bytes.baseAddress, bytes.count, UInt32(range.lowerBound), UInt32(range.count), drawable,
                                 buffer.baseAddress, $0.baseAddress, &error)
            }, error, .gif)
        }
        let alpha = header.raw.has_alpha != 0
        let frames = (0..<range.count).map { k in
            Image(width: width, height: height, pixels: Array(pixels[(k * size)..<((k + 1) * size)]), hasAlpha: alpha)
        }
        return (frames, delays.map { Double($0) / 1000 })
    }
}
