import CFrostCodecs
import FrostCore

/// An animation's frames in order with how long each shows: read from a GIF, an animated PNG or an
/// animated WebP (any other image is one frame), written as an animated PNG, an animated WebP or a GIF.
public struct Animation: Sendable {
    /// The frames as shown, all of one size.
    public var frames: [Image]
    /// Seconds each frame shows.
    public var delays: [Double]
    /// How many times the animation plays: 0 forever (the default), 1 once. Read from a GIF's
    /// NETSCAPE2.0 block (none: 1), an APNG's num_plays or a WebP's ANIM loop count, and written
    /// the same way (`EncodeOptions.loops`, when set, instead).
    public var loops = 0

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
                // Not `Image(decoding:)`, which reads an APNG's frames through here.
                (frames, delays) = ([try Image(decodingStill: bytes, format: .png, options: still)], [0])
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
        if frames.count > 1, let info = try? ImageInfo(bytes: bytes) { loops = info.loops }
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
        var options = options
        options.loops = options.loops ?? loops
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
                // The frames kept at GIF's hundredths of a second (AnimatedGIFWriter.timeline).
                let (kept, hundredths) = AnimatedGIFWriter.timeline(delays: delays)
                let writer = try AnimatedGIFWriter(into: file, width: first.width, height: first.height, animated: kept.count > 1,
                                                   options: options)
                for k in kept { try writer.sample(frames[k]) }
                for (k, delay) in zip(kept, hundredths) { try writer.append(frames[k], hundredths: delay) }
                try writer.finish()
            case .jpeg, .avif, .heic:
                throw CodecError(.unsupported, "Frost writes animations as APNG, WebP or GIF (use .png, .webp or .gif), not \(format.displayName)")
            }
        } catch {
            throw CodecError(error)
        }
    }
}
