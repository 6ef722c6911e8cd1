import Foundation
import FrostFiles

// Images from and to `Data` and file URLs. Errors are `CodecError`s whose description is the line
// the `frost` tool prints (`photo.jpg: invalid JPEG: …`); a URL names the file in it.

extension Image {
    /// Decodes PNG, JPEG, WebP, AVIF or HEIC data (the format is read from the content), within `options`'
    /// limits (pixels, bytes).
    public init(data: Data, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        guard data.count <= options.maxFileBytes else {
            throw CodecError(.tooLarge, "\(data.count) bytes, more than the limit of \(options.maxFileBytes)")
        }
        do { try self.init(decoding: [UInt8](data), options: options) } catch { throw CodecError(error) }
    }

    /// Reads a PNG, JPEG, WebP, AVIF or HEIC file.
    public init(contentsOf url: URL, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let path = try Self.filePath(url)
        do { try self.init(contentsOfFile: path, options: options) } catch { throw CodecError(error).about(url.relativePath) }
    }

    /// The image as a file's bytes: `encoding` says the format and its settings. `threads`: at
    /// most this many (nil: as the `ComputeBudget` allows); the bytes are the same on any number.
    public func encoded(_ encoding: ImageEncoding, threads: Int? = nil) throws(CodecError) -> Data {
        do { return Data(try encoded(as: encoding.format, options: encoding.options, threads: threads)) } catch { throw CodecError(error) }
    }

    /// Writes the image to a file atomically (a temporary file beside it, then a rename: a failure
    /// never leaves half a file). Without `encoding`, the format's defaults for the URL's
    /// extension (.png, .jpg, .jpeg, .webp, .avif).
    public func write(to url: URL, _ encoding: ImageEncoding? = nil, threads: Int? = nil) throws(CodecError) {
        let path = try Self.filePath(url)
        do {
            try write(toFile: path, format: encoding?.format, options: encoding?.options ?? EncodeOptions(), threads: threads)
        } catch {
            throw CodecError(error).about(url.relativePath)
        }
    }

    /// A file URL's path; any other URL is refused (Frost reads no network).
    static func filePath(_ url: URL) throws(CodecError) -> String {
        guard url.isFileURL else { throw CodecError(.io, "not a file URL", file: url.absoluteString) }
        return url.path
    }
}

extension ImageInfo {
    /// Reads only the header: size, format, color model, orientation.
    public init(data: Data) throws(CodecError) {
        do { try self.init(bytes: [UInt8](data)) } catch { throw CodecError(error) }
    }

    /// Reads only a file's header.
    public init(contentsOf url: URL) throws(CodecError) {
        let path = try Image.filePath(url)
        do { try self.init(contentsOfFile: path) } catch { throw CodecError(error).about(url.relativePath) }
    }
}

/// An animation's frames in order with how long each shows, written as an animated PNG or an
/// animated WebP, in memory or to a file.
public struct Animation: Sendable {
    /// The frames, all of one size.
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

    /// The animation as an APNG (`.png`, lossless: each frame stores only the rectangle that
    /// changed) or an animated WebP (`.webp`, lossless or lossy); JPEG has no animations.
    public func encoded(_ encoding: ImageEncoding) throws(CodecError) -> Data {
        let memory = MemoryFile()
        try write(into: memory, encoding)
        return Data(memory.bytes)
    }

    /// Writes the animation to a file atomically (format from `encoding` or the URL's extension).
    public func write(to url: URL, _ encoding: ImageEncoding? = nil) throws(CodecError) {
        let path = try Image.filePath(url)
        guard let encoding = encoding ?? ImageEncoding(pathExtension: path) else {
            throw CodecError(.encode, "unknown output format (use a .png or .webp name)", file: url.relativePath)
        }
        do { try write(into: try AtomicFile(path), encoding) } catch { throw CodecError(error).about(url.relativePath) }
    }

    private func write(into file: any FileSink, _ encoding: ImageEncoding) throws(CodecError) {
        guard let first = frames.first, frames.count == delays.count else {
            throw CodecError(.encode, frames.isEmpty ? "an animation needs at least one frame" : "\(frames.count) frames but \(delays.count) delays")
        }
        let hasAlpha = frames.contains { $0.hasAlpha && $0.containsTransparency }
        do {
            switch encoding {
            case .png:
                let writer = try AnimatedPNGWriter(into: file, width: first.width, height: first.height, frameCount: frames.count,
                                                   hasAlpha: hasAlpha, options: encoding.options)
                for (frame, delay) in zip(frames, delays) { try writer.append(frame, delay: delay) }
                try writer.finish()
            case .webp:
                let writer = try AnimatedWebPWriter(into: file, width: first.width, height: first.height, hasAlpha: hasAlpha,
                                                    options: encoding.options)
                for (frame, delay) in zip(frames, delays) { try writer.append(frame, delay: delay) }
                try writer.finish()
            case .jpeg, .avif:
                throw CodecError(.unsupported, "Frost writes animations as APNG or WebP (use .png or .webp), not \(encoding.format.displayName)")
            }
        } catch {
            throw CodecError(error)
        }
    }
}
