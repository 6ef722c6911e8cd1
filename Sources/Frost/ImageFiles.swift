import Foundation
import FrostFiles

// Images from and to `Data` and file URLs. Errors are `CodecError`s whose description is the line
// the `frost` tool prints (`photo.jpg: invalid JPEG: …`); a URL names the file in it.

extension Image {
    /// Decodes PNG, JPEG, WebP, AVIF or HEIC data (the format is read from the content), within `options`'
    /// limits (pixels, bytes).
    public init(data: Data, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        do { try self.init(decoding: try Self.bytes(data, options), options: options) } catch { throw CodecError(error) }
    }

    /// `data` as bytes, refused above `options.maxFileBytes`.
    static func bytes(_ data: Data, _ options: DecodeOptions) throws(CodecError) -> [UInt8] {
        guard data.count <= options.maxFileBytes else {
            throw CodecError(.tooLarge, "\(data.count) bytes, more than the limit of \(options.maxFileBytes)")
        }
        return [UInt8](data)
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

extension Animation {
    /// Reads every frame of GIF, APNG or WebP data (a still image is one frame), within `options`'
    /// limits (frames, the pixels of all frames, bytes).
    public init(data: Data, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        do { try self.init(decoding: try Image.bytes(data, options), options: options) } catch { throw CodecError(error) }
    }

    /// Reads every frame of a GIF, APNG or WebP file.
    public init(contentsOf url: URL, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let path = try Image.filePath(url)
        do {
            try self.init(decoding: try FileIO.read(path, maxBytes: options.maxFileBytes), options: options)
        } catch {
            throw CodecError(error).about(url.relativePath)
        }
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
            throw CodecError(.encode, "unknown output format (use a .png, .webp or .gif name)", file: url.relativePath)
        }
        do { try write(into: try AtomicFile(path), encoding) } catch { throw CodecError(error).about(url.relativePath) }
    }
}
