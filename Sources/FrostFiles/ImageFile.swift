import FrostCodecs
import FrostCore
#if canImport(Glibc)
import Glibc
#endif

// Images, animations and decoders by file path: what the codecs do on bytes in memory, here
// read from and written atomically to files.

/// Reading and writing image files: format by content on read, by extension on write.
extension Image {
    /// Reads a PNG, JPEG, WebP, AVIF, HEIC or GIF file.
    public init(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws {
        try self.init(decoding: try FileIO.read(path, maxBytes: options.maxFileBytes), options: options)
    }

    /// Writes the image atomically (temporary file in the same folder, then rename). The format
    /// comes from `format`, or else from the path's extension; `threads` as for `encoded`.
    public func write(toFile path: String, format: ImageFormat? = nil,
                      options: EncodeOptions = EncodeOptions(), threads: Int? = nil) throws {
        guard let format = format ?? ImageFormat(pathExtension: path) else {
            throw CodecError(.encode, "unknown output format (use a .png, .jpg, .jpeg, .webp, .avif, .heic or .gif name)")
        }
        try FileIO.writeAtomically(try encoded(as: format, options: options, threads: threads), to: path)
    }
}

extension ImageInfo {
    /// Reads only the header of a PNG, JPEG, WebP, AVIF, HEIC or GIF file.
    public init(contentsOfFile path: String) throws {
        try self.init(bytes: try FileIO.read(path))
    }
}

extension AnimatedPNGWriter {
    /// Writes into a file at `path`, renamed into place when the last frame is added.
    public convenience init(path: String, width: Int, height: Int, frameCount: Int, hasAlpha: Bool, options: EncodeOptions = EncodeOptions(),
                            iccProfile: [UInt8]? = nil) throws {
        try self.init(into: try AtomicFile(path), width: width, height: height, frameCount: frameCount, hasAlpha: hasAlpha, options: options,
                      iccProfile: iccProfile)
    }
}

extension AnimatedGIFWriter {
    /// Writes into a file at `path`, renamed into place by `finish()`.
    public convenience init(path: String, width: Int, height: Int, animated: Bool, options: EncodeOptions = EncodeOptions()) throws {
        try self.init(into: try AtomicFile(path), width: width, height: height, animated: animated, options: options)
    }
}

extension AnimatedWebPWriter {
    /// Writes into a file at `path`, renamed into place by `finish()`.
    public convenience init(path: String, width: Int, height: Int, hasAlpha: Bool, options: EncodeOptions = EncodeOptions(),
                            iccProfile: [UInt8]? = nil) throws {
        try self.init(into: try AtomicFile(path), width: width, height: height, hasAlpha: hasAlpha, options: options, iccProfile: iccProfile)
    }
}

extension DecodeOptions {
    /// The path of a file that a scene or motion names, relative to `directory` (the scene file's
    /// folder); with `assetsRoot`, refused unless it resolves, links followed, inside that folder.
    public func assetPath(_ file: String, relativeTo directory: String) throws(CodecError) -> String {
        let path = FileIO.resolve(file, relativeTo: directory)
        guard let assetsRoot else { return path }
        guard let root = FileIO.realPath(assetsRoot) else { throw CodecError(.io, "the assets folder \(assetsRoot) does not exist") }
        // A file that does not resolve is missing: reading it reports that.
        guard let real = FileIO.realPath(path) else { return path }
        guard FileIO.isInside(real, root), real != root else {
            throw CodecError(.refused, "\(file) is outside the assets folder \(assetsRoot)")
        }
        return real
    }
}

extension JPEGRowReader {
    /// The JPEG at `path`, read as it decodes (refused past `options.maxFileBytes` or `options.maxPixels`).
    package convenience init(path: String, options: DecodeOptions) throws {
        let fd = try FileIO.openInput(path, maxBytes: options.maxFileBytes).descriptor
        guard let file = fdopen(fd, "rb") else {
            close(fd)
            throw CodecError(.outOfMemory, "cannot open a stream")
        }
        try self.init(file: file, options: options)
    }
}
