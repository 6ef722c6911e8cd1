import CFrostCodecs
import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// A JPEG decoded a few rows at a time as they are asked for, from a file read as it decodes or
/// from bytes in memory: what a streamed command reads (package FrostStream). The whole file and
/// the whole image are never in memory at once.
package final class JPEGRowReader {
    private let session: JPEGDecoder.Session
    /// The file's header (its full size, orientation, color model).
    package let info: ImageInfo
    /// The rows' size: the file's, reduced by `reduction`.
    package private(set) var width = 0
    package private(set) var height = 0
    /// Rows handed out so far.
    package private(set) var rowsRead = 0
    package let iccProfile: [UInt8]?
    /// A CMYK or YCCK file, which is not read in rows (`start` refuses it).
    package var isCMYK: Bool { session.isCMYK }
    /// The file's EXIF, XMP, IPTC and density (read from its header segments).
    package let metadata: ImageMetadata

    /// The JPEG read from `file` as it decodes (the reader closes it).
    package convenience init(file: UnsafeMutablePointer<FILE>, options: DecodeOptions) throws {
        try self.init(session: JPEGDecoder.Session(file: file), options: options)
    }

    /// The JPEG in `bytes`.
    package convenience init(bytes: [UInt8], options: DecodeOptions) throws {
        try self.init(session: JPEGDecoder.Session(copying: bytes), options: options)
    }

    private let allowTruncated: Bool

    private init(session: JPEGDecoder.Session, options: DecodeOptions) throws {
        self.session = session
        info = session.info
        _ = try options.frameIndex(of: 1)
        try options.checkBudget(width: info.width, height: info.height)
        iccProfile = session.iccProfile
        metadata = ImageMetadata(reading: session.headerBytes)
        allowTruncated = options.allowTruncated
    }

    /// Starts decoding, at 1/`reduction` of the size (1, 2, 4 or 8: `width` and `height` then say
    /// the rows' size).
    package func start(reduction: Int = 1) throws {
        // Its rows would be CMYK samples, which only a whole image is converted from (JPEGDecoder).
        guard !isCMYK else { throw CodecError(.unsupported, "a CMYK JPEG is read whole, not in rows") }
        (width, height) = try session.start(reduction: reduction, allowTruncated: allowTruncated)
    }

    /// After `start`, the next `count` rows into `rows[0]` …, then, after the last row, the end of the file
    /// checked (a truncated file fails here or before).
    package func read(_ rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws {
        precondition(rowsRead + count <= height, "past the last row")
        try session.read(rows, count: count)
        rowsRead += count
        if rowsRead == height { try session.finish() }
    }
}
