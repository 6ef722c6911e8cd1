import CFrostCodecs
import FrostCore

/// Writes an animated WebP through libwebpmux's animation encoder: frames added in order, each
/// shown for its delay; the encoder stores each as the rectangle that changed since the one
/// before, lossless (exact: straight RGBA kept bit for bit) or lossy at `options.webpQuality`,
/// with `options.compressionLevel` as the effort. Plays `options.loops` times (forever by default). The file is opened aside at once
/// (a folder that cannot take it fails before any encoding) and renamed into place by `finish()`;
/// an unfinished animation leaves nothing behind.
public final class AnimatedWebPWriter {
    /// The canvas's width.
    public let width: Int
    /// The canvas's height.
    public let height: Int
    private let file: any FileSink
    private var encoder: OpaquePointer?
    private var milliseconds = 0.0
    private var finished = false

    /// Writes into `file`: `MemoryFile()` for the animation's bytes in memory. `iccProfile`: the
    /// colour profile the frames are in (an ICCP chunk), none for sRGB.
    public convenience init(into file: any FileSink, width: Int, height: Int, hasAlpha: Bool, options: EncodeOptions = EncodeOptions(),
                            iccProfile: [UInt8]? = nil) throws {
        try self.init(into: file, width: width, height: height, webp: try options.webp(hasAlpha: hasAlpha), iccProfile: iccProfile)
    }

    private init(into file: any FileSink, width: Int, height: Int, webp: frost_webp_write_options, iccProfile: [UInt8]?) throws {
        var webpOptions = webp
        self.file = file
        self.width = width
        self.height = height
        var error = frost_error()
        var created: OpaquePointer?
        let status = (iccProfile ?? []).withUnsafeBufferPointer { icc in
            webpOptions.icc = icc.baseAddress
            webpOptions.icc_length = UInt32(icc.count)
            return frost_webp_animation_new(UInt32(width), UInt32(height), &webpOptions, &created, &error)
        }
        try check(status, error, .webp)
        encoder = created
    }

    deinit { frost_webp_animation_free(encoder) }

    /// Adds the next frame, shown for `delay` seconds (kept to the millisecond from the start, so
    /// rounding does not add up).
    public func append(_ frame: Image, delay: Double) throws {
        guard !finished else { throw CodecError(.encode, "the animation is already finished") }
        guard frame.width == width, frame.height == height else {
            throw CodecError(.encode, "a frame is \(frame.width)×\(frame.height), not \(width)×\(height)")
        }
        let straight = frame.isPremultiplied ? frame.unpremultiplied() : frame
        var error = frost_error()
        let start = Int32(milliseconds.rounded())
        let status = straight.pixels.withUnsafeBufferPointer {
            frost_webp_animation_add(encoder, $0.baseAddress, width * 4, start, &error)
        }
        try check(status, error, .webp)
        milliseconds += max(delay, 0) * 1000
    }

    /// Assembles the file and renames it into place.
    public func finish() throws {
        guard !finished else { throw CodecError(.encode, "the animation is already finished") }
        finished = true
        let end = max(Int32(milliseconds.rounded()), 1)
        try file.append(try encoderOutput(.webp) { frost_webp_animation_assemble(encoder, end, $0, $1, $2) })
        try file.commit()
    }
}

/// An animated WebP read back: every frame composed on the canvas (straight RGBA) and how long
/// each shows, in seconds. `options.maxPixels` bounds all the frames together.
public struct AnimatedWebPFrames: Sendable {
    /// The frames as shown, straight RGBA.
    public let frames: [Image]
    /// How long each frame shows, in seconds.
    public let delays: [Double]

    /// Reads an animated (or still) WebP.
    public init(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws {
        self = try bytes.withUnsafeBufferPointer { try AnimatedWebPFrames($0, options: options, first: 0, count: 0) }
    }

    /// Frames `first` to `first + count − 1` (count 0: to the end); the earlier ones are decoded
    /// onto the canvas and passed over.
    init(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions, first: Int, count: Int) throws {
        var error = frost_error()
        var width: UInt32 = 0, height: UInt32 = 0, kept: UInt32 = 0
        var rgba: UnsafeMutablePointer<UInt8>?
        var milliseconds: UnsafeMutablePointer<Int32>?
        defer { frost_free(rgba); frost_free(milliseconds) }
        let status = frost_webp_animation_decode(bytes.baseAddress, bytes.count, UInt64(max(options.maxPixels, 0)), UInt32(clamping: first),
                                                 UInt32(clamping: count), &width, &height, &kept, &rgba, &milliseconds, &error)
        try check(status, error, .webp)
        let (w, h, n) = (Int(width), Int(height), Int(kept))
        frames = (0..<n).map { k in
            Image(width: w, height: h, pixels: Array(UnsafeBufferPointer(start: rgba! + k * w * h * 4, count: w * h * 4)))
        }
        delays = (0..<n).map { k in Double(milliseconds![k]) / 1000 }
    }
}
