import CFrostCodecs
import FrostColor
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
    /// The profile the rows are in: none for a gray file under a Gray profile, whose rows are
    /// converted to sRGB as they are read (`gray`), as the whole decode converts them.
    package let iccProfile: [UInt8]?
    /// A gray file's Gray profile to sRGB, by the decode's intent.
    private let gray: RowColorTransform?
    /// One channel in the file, and still gray after its profile (every gray to a neutral one).
    package var isGray: Bool { info.channels == 1 && (gray?.keepsGray ?? true) }
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
        DecodeWarnings.ignoredProfile(session.ignoredProfile, cmyk: session.isCMYK)
        if info.channels == 1, let profile = session.iccProfile, ColorProfile.colorSpace(of: profile) == "GRAY" {
            do {
                gray = try RowColorTransform(from: profile, layout: Int(FROST_COLOUR_GRAY), to: .sRGB, intent: options.intent)
            } catch {
                throw CodecError(.unsupported, "its Gray profile cannot be used: \(error.description)")
            }
            iccProfile = nil
        } else {
            (gray, iccProfile) = (nil, session.iccProfile)
        }
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
        if let gray {
            for k in 0..<count where !gray.apply(rows[k]!, into: rows[k]!, width: width, rows: 1, rowBytes: 4 * width) {
                throw CodecError(.outOfMemory, "out of memory")
            }
        }
        rowsRead += count
        if rowsRead == height { try session.finish() }
    }
}
