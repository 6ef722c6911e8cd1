import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading and writing image files: format by content on read, by extension on write.
extension Image {
    /// Decodes PNG, JPEG or WebP bytes (the format is sniffed from the content).
    public init(decoding bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws {
        guard let format = ImageFormat(sniffing: bytes) else {
            throw CodecError(.unknownFormat, bytes.isEmpty ? "empty file" : "not a PNG, JPEG or WebP file")
        }
        self = try bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .png: return try PNGDecoder.decode(buffer, options: options)
            case .jpeg: return try JPEGDecoder.decode(buffer, options: options)
            case .webp: return try WebPDecoder.decode(buffer, options: options)
            }
        }
    }

    /// Decodes PNG bytes with libpng reading every pixel: the reference the direct read (Frost's own
    /// unfiltering, used for most 8-bit files) is held to by the tests and the fuzzers.
    public init(decodingPNGWithLibpng bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws {
        guard ImageFormat(sniffing: bytes) == .png else { throw CodecError(.unknownFormat, "not a PNG file") }
        self = try bytes.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: options, libpngOnly: true).image }
    }

    /// Reads a PNG, JPEG or WebP file.
    public init(contentsOfFile path: String, options: DecodeOptions = DecodeOptions()) throws {
        try self.init(decoding: try FileIO.read(path, maxBytes: options.maxFileBytes), options: options)
    }

    /// Writes the image atomically (temporary file in the same folder, then rename). The format
    /// comes from `format`, or else from the path's extension; `threads` as for `encoded`.
    public func write(toFile path: String, format: ImageFormat? = nil,
                      options: EncodeOptions = EncodeOptions(), threads: Int? = nil) throws {
        guard let format = format ?? ImageFormat(pathExtension: path) else {
            throw CodecError(.encode, "unknown output format (use a .png, .jpg, .jpeg or .webp name)")
        }
        try FileIO.writeAtomically(try encoded(as: format, options: options, threads: threads), to: path)
    }
}

extension ImageInfo {
    /// Reads only the header of a PNG, JPEG or WebP file.
    public init(contentsOfFile path: String) throws {
        try self.init(bytes: try FileIO.read(path))
    }

    public init(bytes: [UInt8]) throws {
        guard let format = ImageFormat(sniffing: bytes) else {
            throw CodecError(.unknownFormat, bytes.isEmpty ? "empty file" : "not a PNG, JPEG or WebP file")
        }
        self = try bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .png: return try PNGDecoder.info(buffer)
            case .jpeg: return try JPEGDecoder.info(buffer)
            case .webp: return try WebPDecoder.info(buffer)
            }
        }
    }
}
