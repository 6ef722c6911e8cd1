import CFrostCodecs
import FrostColor
import FrostCore

/// Writes a GIF frame by frame in two passes over the frames, so that an animation need not be held
/// in memory: every frame `sample`d first (one palette for all of them, libimagequant, at most
/// `options.colors` or 256 entries), then every frame `append`ed in order (dithered to the palette at
/// `options.dither`; an opaque animation stores each frame as the rectangle that changed, its still
/// pixels transparent). Alpha below 128 is transparent, the rest opaque. Plays `options.loops` times (forever by default). Nothing is
/// written to `file` before `finish()`.
public final class AnimatedGIFWriter {
    /// The canvas's width.
    public let width: Int
    /// The canvas's height.
    public let height: Int
    private let file: any FileSink
    /// The C writer, which also refuses its passes out of order and a second finish.
    private var writer: OpaquePointer?

    /// Writes into `file` (`MemoryFile()` for the GIF's bytes in memory). `animated`: more than one
    /// frame will be appended.
    public init(into file: any FileSink, width: Int, height: Int, animated: Bool, options: EncodeOptions = EncodeOptions()) throws {
        guard width > 0, height > 0 else { throw CodecError(.encode, "cannot write an empty image") }
        let colors = options.colors ?? 256
        try checkPaletteSize(colors)
        self.file = file
        self.width = width
        self.height = height
        var gifOptions = frost_gif_write_options(colors: Int32(colors), dither: Float(min(max(options.dither, 0), 1)), speed: 4, loops: Int32(clamping: options.loops ?? 0))
        var error = frost_error()
        var created: OpaquePointer?
        let status = frost_gif_writer_create(UInt32(width), UInt32(height), animated ? 1 : 0, &gifOptions, &created, &error)
        guard status == FROST_OK else {
            frost_gif_writer_free(created)
            throw CodecError(status, error, format: .gif)
        }
        writer = created
    }

    deinit { frost_gif_writer_free(writer) }

    /// The first pass: a frame's colours counted for the palette (every frame, before any is appended).
    public func sample(_ frame: Image) throws {
        try withStraightPixels(frame) { pixels, error in frost_gif_writer_sample(writer, pixels, error) }
    }

    /// The second pass: the next frame, shown for `hundredths` of a second (GIF's unit).
    public func append(_ frame: Image, hundredths: Int) throws {
        let delay = Int32(min(max(hundredths, 0), 65_535))
        try withStraightPixels(frame) { pixels, error in frost_gif_writer_add(writer, pixels, delay, error) }
    }

    /// Writes the GIF into the file and commits it.
    public func finish() throws {
        try file.append(try encoderOutput(.gif) { frost_gif_writer_finish(writer, $0, $1, $2) })
        try file.commit()
    }

    private func withStraightPixels(_ frame: Image,
                                    _ call: (UnsafePointer<UInt8>?, UnsafeMutablePointer<frost_error>) -> frost_status) throws {
        guard frame.width == width, frame.height == height else {
            throw CodecError(.encode, "a frame is \(frame.width)×\(frame.height), not \(width)×\(height)")
        }
        // A GIF holds no profile: what it shows is read as sRGB, so a tagged frame is converted.
        let straight = (frame.isPremultiplied ? frame.unpremultiplied() : frame).inSRGB(threads: 1)
        var error = frost_error()
        let status = straight.pixels.withUnsafeBufferPointer { call($0.baseAddress, &error) }
        try check(status, error, .gif)
    }

    /// The frames a GIF keeps of frames shown for `delays` seconds, and how long each of those shows
    /// in hundredths. GIF counts time in hundredths and browsers show 0 and 1 as 10: each frame
    /// starts at its own time rounded to a hundredth, and a frame that would start less than 2
    /// hundredths after the one kept before it is left out (a 60 fps animation plays at its speed,
    /// at 50 fps or less).
    public static func timeline(delays: [Double]) -> (kept: [Int], hundredths: [Int]) {
        guard delays.count > 1 else { return (delays.isEmpty ? [] : [0], delays.isEmpty ? [] : [0]) }
        var starts: [Int] = [], time = 0.0
        for delay in delays {
            starts.append(Int((time * 100).rounded()))
            time += max(delay, 0)
        }
        let end = Int((time * 100).rounded())
        var kept = [0]
        for k in 1..<delays.count where starts[k] - starts[kept.last!] >= 2 && end - starts[k] >= 1 { kept.append(k) }
        let hundredths = kept.indices.map { i in min(max((i + 1 < kept.count ? starts[kept[i + 1]] : end) - starts[kept[i]], 2), 65535) }
        return (kept, hundredths)
    }
}
