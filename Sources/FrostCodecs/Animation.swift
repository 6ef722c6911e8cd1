import CFrostCodecs
import FrostCore

/// An animation's frames in order with how long each shows: read from a GIF, an animated PNG or an
/// animated WebP (any other image is one frame), written as an animated PNG, an animated WebP or a GIF.
public struct Animation: Sendable {
    /// The frames as shown, all of one size.
    public var frames: [Image]
    /// Seconds each frame shows.
    public var delays: [Double]

    /// An animation of `frames`, each shown for its delay in seconds.
    public init(frames: [Image], delays: [Double]) {
        self.frames = frames
        self.delays = delays
    }

    /// Every frame shown for `delay` seconds.
    public init(frames: [Image], delay: Double) {
        self.init(frames: frames, delays: Array(repeating: delay, count: frames.count))
    }

    /// Reads every frame of a GIF, APNG, WebP or AVIF sequence, each composed on the canvas as browsers show it;
    /// a still image (of any format) is one frame of no delay. The frame count (`maxFrames`) and
    /// the pixels of all frames together (`maxPixels`) are checked before any frame is decoded.
    public init(decoding bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws {
        var still = options   // every frame is read: `options.frame` chooses none
        still.frame = 0
        switch ImageFormat(sniffing: bytes) {
        case .gif:
            (frames, delays) = try bytes.withUnsafeBufferPointer { try GIFDecoder.animation($0, options: options) }
        case .png:
            if let animation = try APNGDecoder.animation(bytes, options: options) {
                (frames, delays) = animation
            } else {
                (frames, delays) = ([try Image(decoding: bytes, options: still)], [0])
            }
        case .webp:
            let info = try ImageInfo(bytes: bytes)
            guard info.frames > 1 else {
                (frames, delays) = ([try Image(decoding: bytes, options: still)], [0])
                return
            }
            try options.checkFrames(info.frames)
            let webp = try AnimatedWebPFrames(bytes, options: options)
            (frames, delays) = (webp.frames, webp.delays)
        case .avif:
            (frames, delays) = try bytes.withUnsafeBufferPointer { try HEIFDecoder.animation($0, options: options) }
        default:
            (frames, delays) = ([try Image(decoding: bytes, options: still)], [0])
        }
    }

    /// How long the animation plays once, in seconds.
    public var duration: Double { delays.reduce(0, +) }

    /// Writes the animation into `file` (`MemoryFile()` for its bytes in memory): an APNG for
    /// `.png` (lossless: each frame stores only the rectangle that changed), an animated WebP for
    /// `.webp` (lossless or lossy), a GIF for `.gif` (one palette, dithered); the other formats hold
    /// no animations.
    public func write(into file: any FileSink, _ encoding: ImageEncoding) throws(CodecError) {
        try write(into: file, as: encoding.format, options: encoding.options)
    }

    /// The same, with the encoder's options as the command line gives them.
    public func write(into file: any FileSink, as format: ImageFormat, options: EncodeOptions) throws(CodecError) {
        guard let first = frames.first, frames.count == delays.count else {
            throw CodecError(.encode, frames.isEmpty ? "an animation needs at least one frame" : "\(frames.count) frames but \(delays.count) delays")
        }
        let hasAlpha = frames.contains { $0.hasAlpha && $0.containsTransparency }
        do {
            switch format {
            case .png:
                let writer = try AnimatedPNGWriter(into: file, width: first.width, height: first.height, frameCount: frames.count,
                                                   hasAlpha: hasAlpha, options: options)
                for (frame, delay) in zip(frames, delays) { try writer.append(frame, delay: delay) }
                try writer.finish()
            case .webp:
                let writer = try AnimatedWebPWriter(into: file, width: first.width, height: first.height, hasAlpha: hasAlpha,
                                                    options: options)
                for (frame, delay) in zip(frames, delays) { try writer.append(frame, delay: delay) }
                try writer.finish()
            case .gif:
                try file.append(try gif(options))
                try file.commit()
            case .jpeg, .avif, .heic:
                throw CodecError(.unsupported, "Frost writes animations as APNG, WebP or GIF (use .png, .webp or .gif), not \(format.displayName)")
            }
        } catch {
            throw CodecError(error)
        }
    }

    /// The frames as a GIF: one palette for all of them (libimagequant, `options.colors` or 256,
    /// dithered at `options.dither`), alpha below 128 transparent, looping forever. GIF counts
    /// time in hundredths and browsers show 0 and 1 as 10: each frame starts at its own time
    /// rounded to a hundredth, and a frame that would start less than 2 hundredths after the one
    /// kept before it is left out (a 60 fps animation plays at its speed, at 50 fps or less).
    /// There is a frame and a delay for each (as `write` checks).
    func gif(_ options: EncodeOptions) throws -> [UInt8] {
        let first = frames[0]
        guard first.width > 0, first.height > 0 else { throw CodecError(.encode, "cannot write an empty image") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else {
            throw CodecError(.encode, "the frames differ in size")
        }
        let colors = options.colors ?? 256
        try checkPaletteSize(colors)
        let (kept, hundredths) = gifTimeline()
        let pixels = kept.flatMap { frames[$0].isPremultiplied ? frames[$0].unpremultiplied().pixels : frames[$0].pixels }
        var gifOptions = frost_gif_write_options(colors: Int32(colors), dither: Float(min(max(options.dither, 0), 1)), speed: 4, loops: 0)
        return try pixels.withUnsafeBufferPointer { pixels in
            try hundredths.withUnsafeBufferPointer { hundredths in
                try encoderOutput(.gif) { out, size, error in
                    frost_gif_encode(pixels.baseAddress, UInt32(first.width), UInt32(first.height), UInt32(kept.count),
                                     hundredths.baseAddress, &gifOptions, out, size, error)
                }
            }
        }
    }

    /// The frames a GIF keeps and how long each shows, in hundredths (see `gif`).
    private func gifTimeline() -> (kept: [Int], hundredths: [Int32]) {
        guard frames.count > 1 else { return ([0], [0]) }
        var starts: [Int] = [], time = 0.0
        for delay in delays {
            starts.append(Int((time * 100).rounded()))
            time += max(delay, 0)
        }
        let end = Int((time * 100).rounded())
        var kept = [0]
        for k in 1..<frames.count where starts[k] - starts[kept.last!] >= 2 && end - starts[k] >= 1 { kept.append(k) }
        let hundredths = kept.indices.map { i in
            Int32(min(max((i + 1 < kept.count ? starts[kept[i + 1]] : end) - starts[kept[i]], 2), 65535))
        }
        return (kept, hundredths)
    }
}
