import FrostCodecs
@_spi(Kernels) import FrostCore

/// Reads an animated PNG back frame by frame, independently of Frost's writer: the chunks are
/// walked by hand (their CRCs checked), each frame's IDAT or fdAT data is put back into a plain
/// PNG with the file's IHDR at the frame's size, decoded by Frost's reader (libpng or the direct
/// read) and put at its offset over the frame before. Only what Frost writes is supported: a first
/// frame covering the canvas, rectangles inside it, blend SOURCE, dispose NONE.
public struct APNGFrames {
    public let frameCount: Int
    public let plays: Int
    /// delay_num / delay_den of every frame.
    public let delays: [Double]
    /// Every frame composed on the canvas.
    public let frames: [Image]
    /// The rectangle each frame stores (the first the whole canvas).
    public let regions: [PixelBounds]

    public init(_ bytes: [UInt8]) throws {
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        struct Failure: Error, CustomStringConvertible { let description: String }
        guard bytes.count > 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Failure(description: "not a PNG") }
        var at = 8, ihdr: [UInt8] = [], count = 0, plays = 0, sequence = 0
        var delays: [Double] = [], streams: [[UInt8]] = [], regions: [PixelBounds] = []
        while at + 12 <= bytes.count {
            let length = u32(at), type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = Array(bytes[(at + 8)..<(at + 8 + length)])
            guard crc32(Array(bytes[(at + 4)..<(at + 8 + length)])) == UInt32(u32(at + 8 + length)) else {
                throw Failure(description: "bad CRC in \(type)")
            }
            func seq() throws {
                let n = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                guard n == sequence else { throw Failure(description: "sequence \(n), expected \(sequence)") }
                sequence += 1
            }
            switch type {
            case "IHDR": ihdr = body
            case "acTL":
                count = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                plays = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
            case "fcTL":
                try seq()
                let region = PixelBounds(x: u32(at + 8 + 12), y: u32(at + 8 + 16), width: u32(at + 8 + 4), height: u32(at + 8 + 8))
                let canvas = PixelBounds(x: 0, y: 0, width: Int(u32(16)), height: Int(u32(20)))
                guard body[24] == 0, body[25] == 0, region.width > 0, region.height > 0,
                      region.intersection(canvas) == region, !regions.isEmpty || region == canvas else {
                    throw Failure(description: "a frame outside the canvas, a first frame that does not cover it, or not dispose NONE, blend SOURCE")
                }
                let num = Double(Int(body[20]) << 8 | Int(body[21])), den = Double(Int(body[22]) << 8 | Int(body[23]))
                delays.append(num / (den == 0 ? 100 : den))
                streams.append([])
                regions.append(region)
            case "IDAT":
                guard !streams.isEmpty else { throw Failure(description: "IDAT before fcTL: the default image is not a frame") }
                streams[streams.count - 1] += body
            case "fdAT":
                try seq()
                streams[streams.count - 1] += body[4...]
            default: break
            }
            at += 12 + length
        }
        guard streams.count == count else { throw Failure(description: "acTL says \(count) frames, \(streams.count) found") }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data, crc = crc32(body)
            return [UInt8(data.count >> 24), UInt8((data.count >> 16) & 255), UInt8((data.count >> 8) & 255), UInt8(data.count & 255)]
                + body + [UInt8(crc >> 24), UInt8((crc >> 16) & 255), UInt8((crc >> 8) & 255), UInt8(crc & 255)]
        }
        frameCount = count
        self.plays = plays
        self.delays = delays
        // Each frame's rectangle decoded as a PNG of its size and put in place over the frame before.
        var canvas: Image?
        frames = try zip(streams, regions).map { data, region in
            let size = [UInt8]([24, 16, 8, 0].map { UInt8((region.width >> $0) & 255) } + [24, 16, 8, 0].map { UInt8((region.height >> $0) & 255) })
            let part = try Image(decoding: Array(bytes[0..<8]) + chunk("IHDR", size + ihdr[8...]) + chunk("IDAT", data) + chunk("IEND", []))
            canvas?.paste(part, x: region.x, y: region.y)
            canvas = canvas ?? part
            return canvas!
        }
        self.regions = regions
    }
}
