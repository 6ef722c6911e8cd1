import CFrostCodecs
import FrostCore

/// An opaque PNG decoded a few rows at a time as they are asked for (libpng's row reading, the
/// transforms of a whole read): what a streamed command reads (package FrostStream). The file's
/// bytes are held (a PNG's are a fraction of its pixels); the image never is.
package final class PNGRowReader {
    /// libpng's session over a copy of the file's bytes that stays put, freed after it.
    private final class Held {
        let storage: UnsafeMutableBufferPointer<UInt8>
        var session: PNGDecoder.Session?

        init(_ bytes: [UInt8]) {
            storage = .allocate(capacity: bytes.count)
            _ = storage.initialize(from: bytes)
        }

        deinit {
            session = nil   // the decoder first, then the bytes it reads
            storage.deallocate()
        }
    }

    private let held: Held
    private var session: PNGDecoder.Session { held.session! }
    /// The file's header.
    package let info: ImageInfo
    package var width: Int { info.width }
    package var height: Int { info.height }
    /// Rows handed out so far.
    package private(set) var rowsRead = 0
    package let iccProfile: [UInt8]?
    package let metadata: ImageMetadata

    /// Whether a PNG of `info` can be read row by row into the streamed steps: one frame, 8 bits
    /// or fewer, not interlaced, no transparency (the row operations work on opaque rows), and not
    /// gray under a profile (an iCCP Gray profile or gAMA), which the whole read converts to sRGB.
    package static func streams(_ info: ImageInfo) -> Bool {
        info.format == .png && info.frames == 1 && info.bitDepth <= 8 && !info.interlaced && !info.hasAlpha
            && !(info.channels == 1 && info.iccProfile != nil)
    }

    /// Below this many pixels (128 MiB as RGBA) a PNG is read whole: the direct read (libdeflate's
    /// inflate and Frost's unfiltering) is 1.5–2× faster than libpng's rows over zlib's inflate,
    /// which is the serial floor of a streamed command (a 4096² PNG blurred to PNG: 358 ms whole,
    /// 556 streamed). Above it the memory matters more: a 16384² blur took 2.4 GB whole (8.9 s),
    /// 134 MB streamed (5.1 s); a resize 1.9 GB (2.4 s) against 106 MB (5.1 s).
    package static let streamedPixels = 1 << 25

    /// The pixels a PNG's IHDR announces, from the file's first 24 bytes (signature, IHDR's length
    /// and type, width, height; 0 when shorter): a small PNG is left to the whole read before its
    /// file is read. The two numbers are untrusted (up to 2³² − 1 each, so their product can pass
    /// Int.max): an overflowing product is Int.max, and the decoder refuses the file.
    package static func announcedPixels(_ head: [UInt8]) -> Int {
        guard head.count >= 24 else { return 0 }
        let number = { (bytes: ArraySlice<UInt8>) in bytes.reduce(0) { $0 << 8 | Int($1) } }
        let (pixels, overflow) = number(head[16..<20]).multipliedReportingOverflow(by: number(head[20..<24]))
        return overflow ? .max : pixels
    }

    /// The PNG in `bytes` (`streams(info)` must hold), started.
    package init(bytes: [UInt8], options: DecodeOptions) throws {
        held = Held(bytes)
        held.session = try PNGDecoder.Session(UnsafeBufferPointer(held.storage))
        info = held.session!.info
        precondition(Self.streams(info), "a PNG read row by row is opaque, 8-bit, not interlaced")
        _ = try options.frameIndex(of: 1)
        try options.checkBudget(width: info.width, height: info.height)
        DecodeWarnings.ignoredProfile(info.ignoredProfile)
        iccProfile = held.session!.iccProfile
        metadata = ImageMetadata(reading: bytes)
        var error = frost_error()
        try check(frost_png_start_rows(held.session!.decoder, &error), error, .png)
    }

    /// The next `count` rows into `rows[0]` … (RGBA8); after the last row the end of the file is
    /// checked (a truncated file fails here or before).
    package func read(_ rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws {
        precondition(rowsRead + count <= height, "past the last row")
        var error = frost_error()
        try check(frost_png_read_rows(session.decoder, rows, UInt32(count), rowsRead + count == height ? 1 : 0, &error), error, .png)
        rowsRead += count
    }
}
