import CFrostCodecs
import FrostCore

/// Writes an animated PNG (APNG 1.0: acTL, fcTL, fdAT) frame by frame into a file (an
/// `AtomicFile`) or into memory (`MemoryFile`).
///
/// Each frame is encoded lossless by the PNG encoder; its IDAT stream is kept as the first
/// frame's IDAT (the default image, shown by viewers without APNG support) or re-wrapped as fdAT
/// chunks with their sequence numbers. The first frame covers the canvas; each later one only
/// the rectangle where it differs from the frame before (what APNG optimisers such as apngopt
/// do: a time animation whose background holds still stores the moving part), and replaces what
/// was there (blend_op SOURCE, dispose_op NONE). The file plays `options.loops` times (forever by default). Every frame must have
/// the first one's size; the color type is fixed by `hasAlpha` so that every frame's IHDR agrees.
public final class AnimatedPNGWriter {
    /// A frame ready to append: the PNG of the part that changed, and where that part lies.
    public struct EncodedFrame: Sendable {
        /// The PNG of the changed part.
        public let png: [UInt8]
        /// Where the part lies on the canvas.
        public let region: PixelBounds
    }

    /// The canvas's width.
    public let width: Int
    /// The canvas's height.
    public let height: Int
    /// The frames the file will hold (its acTL says so up front).
    public let frameCount: Int
    private let hasAlpha: Bool
    private let options: EncodeOptions
    private let file: any FileSink
    private var sequence: UInt32 = 0
    private var written = 0
    private var header: [UInt8]?
    private var previous: Image?
    private let iccProfile: [UInt8]?

    /// Writes into `file`: `MemoryFile()` for the animation's bytes in memory. `iccProfile`: the
    /// colour profile the frames are in (an iCCP chunk), none for sRGB.
    public init(into file: any FileSink, width: Int, height: Int, frameCount: Int, hasAlpha: Bool, options: EncodeOptions = EncodeOptions(),
                iccProfile: [UInt8]? = nil) throws {
        guard frameCount >= 1, frameCount <= Int(UInt32.max) else { throw CodecError(.encode, "an APNG needs at least one frame") }
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
        // Every frame must have the first one's colour type: true colour (a palette would differ per frame).
        var trueColour = options
        trueColour.colors = nil
        self.options = trueColour
        self.file = file
        self.iccProfile = iccProfile
    }

    /// Adds the next frame, shown for `delay` seconds (as a fraction of at most 65535/65535).
    public func append(_ frame: Image, delay: Double) throws {
        try append(try encode(frame, after: previous), delay: delay)
        previous = frame
    }

    /// A frame as `append(_:delay:)` takes it: the rectangle where it differs from `previous`
    /// (the whole frame without one), encoded with or without alpha as the animation is, never
    /// gray. Safe to call for several frames at once on several threads; each frame on the calling
    /// thread alone.
    public func encode(_ frame: Image, after previous: Image?) throws -> EncodedFrame {
        guard frame.width == width, frame.height == height else {
            throw CodecError(.encode, "a frame is \(frame.width)×\(frame.height), not \(width)×\(height)")
        }
        let region = previous.map { frame.changedRegion(since: $0) } ?? frame.bounds
        var image = frame
        image.hasAlpha = hasAlpha
        image.isGray = false
        // Every frame carries the profile; the file keeps the first one's iCCP chunk.
        image.iccProfile = iccProfile
        // The rectangle is encoded where it lies in the frame (a copy of it was 7% of `frost animate`).
        return EncodedFrame(png: try image.encodedPNG(options, threads: 1, region: region), region: region)
    }

    /// Adds the next frame from `encode(_:after:)`; the first must cover the canvas.
    public func append(_ frame: EncodedFrame, delay: Double) throws {
        guard written < frameCount else { throw CodecError(.encode, "more frames than the \(frameCount) announced") }
        let r = frame.region
        guard r.x >= 0, r.y >= 0, r.width >= 1, r.height >= 1, r.x + r.width <= width, r.y + r.height <= height,
              written > 0 || r == PixelBounds(x: 0, y: 0, width: width, height: height) else {
            throw CodecError(.encode, "frame \(written)'s rectangle does not lie on the canvas")
        }
        let chunks = Self.chunks(frame.png)
        // Bit depth, color type and the methods must agree; the size is the rectangle's.
        guard let ihdr = chunks.first(where: { $0.type == "IHDR" }).map({ Array($0.data) }), ihdr.count == 13,
              ihdr[0..<8] == (Self.be32(UInt32(r.width)) + Self.be32(UInt32(r.height)))[...],
              ihdr[8...] == (header ?? ihdr)[8...] else {
            throw CodecError(.encode, "frame \(written) encoded with another PNG header")
        }
        var out: [UInt8] = []
        out.reserveCapacity(frame.png.count + 128)
        if header == nil {
            header = ihdr
            out = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            Self.chunk("IHDR", ihdr, into: &out)
            for data in chunks where data.type == "iCCP" { Self.chunk("iCCP", Array(data.data), into: &out) }
            Self.chunk("acTL", Self.be32(UInt32(frameCount)) + Self.be32(UInt32(clamping: options.loops ?? 0)), into: &out)
        }
        let (num, den) = Self.fraction(delay)
        var control = Self.be32(sequence) + Self.be32(UInt32(r.width)) + Self.be32(UInt32(r.height))
        control += Self.be32(UInt32(r.x)) + Self.be32(UInt32(r.y))
        control += [UInt8(num >> 8), UInt8(num & 0xFF), UInt8(den >> 8), UInt8(den & 0xFF), 0, 0]
        Self.chunk("fcTL", control, into: &out)
        sequence += 1
        for data in chunks where data.type == "IDAT" {
            if written == 0 {
                Self.chunk("IDAT", [], data.data, into: &out)
            } else {
                Self.chunk("fdAT", Self.be32(sequence), data.data, into: &out)
                sequence += 1
            }
        }
        try file.append(out)
        written += 1
    }

    /// Ends the file and renames it into place; the announced number of frames must be there.
    public func finish() throws {
        guard written == frameCount else { throw CodecError(.encode, "\(written) frames written of the \(frameCount) announced") }
        var out: [UInt8] = []
        Self.chunk("IEND", [], into: &out)
        try file.append(out)
        try file.commit()
    }

    /// A delay in seconds as delay_num / delay_den: milliseconds, or a whole fraction of a second
    /// (1/60, 1/120) where that is exact.
    static func fraction(_ seconds: Double) -> (UInt16, UInt16) {
        let perSecond = 1 / seconds
        if perSecond == perSecond.rounded(), perSecond >= 1, perSecond <= 65535 { return (1, UInt16(perSecond)) }
        let ms = min(max((seconds * 1000).rounded(), 0), 65535)
        return (UInt16(ms), 1000)
    }

    /// The chunks of a PNG this encoder wrote (well formed by construction), their data in place.
    static func chunks(_ png: [UInt8]) -> [(type: String, data: ArraySlice<UInt8>)] {
        var out: [(String, ArraySlice<UInt8>)] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            out.append((type, png[(at + 8)..<(at + 8 + length)]))
            at += 12 + length
        }
        return out
    }

    /// A chunk of `data` then `more` (PNG specification §5.3): length, type, data, and the CRC of
    /// the type and data, taken from where they were appended.
    static func chunk(_ type: String, _ data: [UInt8], _ more: ArraySlice<UInt8> = [], into out: inout [UInt8]) {
        out += be32(UInt32(data.count + more.count))
        let start = out.count
        out += type.utf8
        out += data
        out += more
        out += be32(out.withUnsafeBufferPointer { frost_crc32($0.baseAddress! + start, $0.count - start) })
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
}
