import CFrostCodecs

/// Why an image could not be read or written. `description` is one readable line, the one the
/// `frost` tool prints: `photo.jpg: invalid JPEG: …` when the error concerns a file.
public struct CodecError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, for callers that act on it.
    public enum Kind: Sendable, Equatable {
        /// Not a PNG, JPEG, WebP, AVIF or HEIC (or empty).
        case unknownFormat
        /// The data breaks its format's rules.
        case corrupt
        /// The data ends early.
        case truncated
        /// Valid, but a feature Frost does not read (a CMYK JPEG's Adobe transform, say).
        case unsupported
        /// Past a limit: pixels, file size, frames.
        case tooLarge
        /// An allocation failed.
        case outOfMemory
        /// Encoding failed, or the output cannot be written in that format.
        case encode
        /// Reading or writing a file failed.
        case io
        /// Refused by policy: a path that would leave its folder, a link out of an input folder, a
        /// scene's file outside its assets folder.
        case refused
        /// The work was told to stop (`StopFlag`: a server's request past its deadline, or whose
        /// client went away); nobody reads the result.
        case stopped
    }
    /// What went wrong.
    public let kind: Kind
    /// The reason alone.
    public let message: String
    /// The file it concerns, when a call was given one (a URL); nil for bytes in memory.
    public var file: String?

    /// An error of `kind`, optionally about `file`.
    public init(_ kind: Kind, _ message: String, file: String? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
    }

    public var description: String { file.map { "\($0): \(message)" } ?? message }

    /// The same error about `file` (one it already names stays).
    public func about(_ file: String) -> CodecError {
        var error = self
        error.file = error.file ?? file
        return error
    }

    /// Any error a codec call let through as a CodecError: codec errors as they are, anything
    /// else (none is expected) as an I/O error with its own description.
    public init(_ error: any Error) {
        self = error as? CodecError ?? CodecError(.io, String(describing: error))
    }

    /// Maps a C status plus libpng/libjpeg/libwebp's own message.
    init(_ status: frost_status, _ error: frost_error, format: ImageFormat) {
        let text = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let name = format.displayName
        switch status {
        case FROST_ERR_UNSUPPORTED: self.init(.unsupported, text)
        case FROST_ERR_TRUNCATED: self.init(.truncated, text)
        case FROST_ERR_MEMORY: self.init(.outOfMemory, "out of memory")
        case FROST_ERR_TOO_LARGE: self.init(.tooLarge, "image too large: \(text)")
        case FROST_ERR_ENCODE: self.init(.encode, "\(name) encoder: \(text)")
        case FROST_ERR_STOPPED: self.init(.stopped, "stopped")
        default: self.init(.corrupt, "invalid \(name): \(text)")
        }
    }
}

/// Throws the CodecError for a failed C call.
@inline(__always)
func check(_ status: frost_status, _ error: frost_error, _ format: ImageFormat) throws(CodecError) {
    if status != FROST_OK { throw CodecError(status, error, format: format) }
}

/// The file a C encoder wrote into a buffer of its own (`call` is handed where to put the buffer,
/// its size and the error), copied out and the buffer freed, or the encoder's failure thrown.
func encoderOutput(_ format: ImageFormat,
                   _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
                            UnsafeMutablePointer<frost_error>) -> frost_status) throws(CodecError) -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>? = nil, size = 0, error = frost_error()
    defer { frost_free(out) }
    try check(call(&out, &size, &error), error, format)
    return Array(UnsafeBufferPointer(start: out, count: size))
}
