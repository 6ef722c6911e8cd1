import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Animations as inputs: GIF (giflib), APNG and animated WebP read as frames composed on the
/// canvas, against the frames other tools show (Tests/Fixtures/animation, made by its make.sh:
/// ImageMagick's coalesced GIF frames, ffmpeg's APNG decoding); their limits and broken files.
@Suite struct AnimationTests {
    static func fixture(_ name: String) -> String { Corpus.repository + "/Tests/Fixtures/animation/" + name }

    static func references(_ stem: String, count: Int) throws -> [Image] {
        try (0..<count).map { try Image(contentsOfFile: fixture("\(stem)-\($0).png")) }
    }

    /// Frames equal where they show anything: the colour under a transparent pixel is no one's.
    static func sameShown(_ a: Image, _ b: Image) -> Bool {
        a.width == b.width && a.height == b.height && PixelDifference(a.premultiplied(), b.premultiplied()).max == 0
    }

    /// Every disposal (none, background, previous), a transparent index, local colour tables,
    /// interlaced rows and gifsicle's -O3 cuts: the frames ImageMagick coalesces.
    @Test(arguments: [("disposal.gif", "disposal", 5), ("interlaced.gif", "disposal", 5), ("optimized.gif", "disposal", 5),
                      ("local-tables.gif", "local-tables", 2), ("still.gif", "still", 1),
                      ("ffmpeg.apng.png", "ffmpeg.apng", 5), ("img2webp.webp", "disposal", 5)])
    func framesAreTheReferenceTools(file: String, reference: String, count: Int) throws {
        let animation = try Animation(decoding: try FileIO.read(Self.fixture(file)))
        let expected = try Self.references(reference, count: count)
        #expect(animation.frames.count == count, "\(file)")
        for (k, (mine, theirs)) in zip(animation.frames, expected).enumerated() {
            #expect(Self.sameShown(mine, theirs), "\(file) frame \(k)")
        }
    }

    @Test func delaysAndHeaders() throws {
        let gif = try FileIO.read(Self.fixture("disposal.gif"))
        // 0 hundredths shows for 0.1 s, as browsers show it.
        #expect(try Animation(decoding: gif).delays == [0.1, 0.2, 0.3, 0.5, 0.1])
        let info = try ImageInfo(bytes: gif)
        #expect(info.format == .gif && info.frames == 5 && info.duration == 1.2 && info.hasAlpha && info.colorModel == "palette")
        #expect(try !info.interlaced && ImageInfo(contentsOfFile: Self.fixture("interlaced.gif")).interlaced)
        #expect(try ImageInfo(contentsOfFile: Self.fixture("local-tables.gif")).hasAlpha == false)
        let apng = try ImageInfo(contentsOfFile: Self.fixture("ffmpeg.apng.png"))
        #expect(apng.frames == 5 && abs(apng.duration - 1.6) < 1e-9)
        #expect(try Animation(decoding: try FileIO.read(Self.fixture("ffmpeg.apng.png"))).delays == [0.1, 0.2, 0.3, 0.5, 0.5])
        let webp = try ImageInfo(contentsOfFile: Self.fixture("img2webp.webp"))
        #expect(webp.frames == 5 && abs(webp.duration - 1.2) < 1e-9)
        #expect(try ImageInfo(contentsOfFile: Self.fixture("still.gif")).frames == 1)
    }

    /// `info` counts every frame of a GIF, past the frame limit (its walk decodes nothing); reading
    /// the animation is what the limit refuses.
    @Test func infoCountsPastTheFrameLimit() throws {
        // A 1×1 GIF of two colours, then 10 001 frames of one pixel each (LZW: clear, 0, end).
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for _ in 0...DecodeOptions.defaultMaxFrames { gif += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0] }
        gif.append(0x3B)
        #expect(try ImageInfo(bytes: gif).frames == DecodeOptions.defaultMaxFrames + 1)
        #expect(throws: CodecError.self) { try Animation(decoding: gif) }
    }

    /// A still read takes `frame` (the first by default) from any animated format; a frame past the
    /// end is an error that says how many there are.
    @Test(arguments: ["disposal.gif", "ffmpeg.apng.png", "img2webp.webp"])
    func oneFrameIsTaken(file: String) throws {
        let bytes = try FileIO.read(Self.fixture(file))
        let animation = try Animation(decoding: bytes)
        for k in [0, 2, 4] {
            var options = DecodeOptions()
            options.frame = k
            #expect(identical(try Image(decoding: bytes, options: options), animation.frames[k]), "\(file) frame \(k)")
        }
        var past = DecodeOptions()
        past.frame = 5
        #expect(throws: CodecError(.unsupported, "there is no frame 5: the file has 5 (--frame counts from 0)")) {
            try Image(decoding: bytes, options: past)
        }
        #expect(throws: CodecError.self) { try Image(decoding: try FileIO.read(Self.fixture("still-0.png")), options: past) }
    }

    /// The frame count and the pixels of all frames together are checked before any frame is
    /// decoded; one frame of the same file still reads within the pixel limit.
    @Test(arguments: ["disposal.gif", "ffmpeg.apng.png", "img2webp.webp"])
    func limitsHoldBeforeDecoding(file: String) throws {
        let bytes = try FileIO.read(Self.fixture(file))
        var frames = DecodeOptions()
        frames.maxFrames = 4
        #expect(throws: CodecError.self) { try Animation(decoding: bytes, options: frames) }
        let pixels = DecodeOptions(maxPixels: 64 * 48 * 4)
        #expect { try Animation(decoding: bytes, options: pixels) } throws: { ($0 as? CodecError)?.kind == .tooLarge }
        #expect(try Image(decoding: bytes, options: pixels).width == 64)
    }

    /// A frame's rectangle can claim far more than the canvas (65535² in a 64×48 GIF): all of it would
    /// be decompressed, so it is held to the pixel limit before any frame is.
    @Test func aFrameLargerThanTheLimitIsRefused() throws {
        var bytes = try FileIO.read(Self.fixture("disposal.gif"))
        // Walk past the header, the global colour table and the extensions to the first image descriptor.
        var at = 13 + (bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0)
        while bytes[at] == 0x21 {
            at += 2
            while bytes[at] != 0 { at += Int(bytes[at]) + 1 }
            at += 1
        }
        #expect(bytes[at] == 0x2C)
        for k in 5...8 { bytes[at + k] = 0xFF }   // width and height 65535
        #expect(throws: CodecError(.tooLarge, "a frame of 65535×65535, more than the limit of 1000000 pixels (see --max-pixels)")) {
            try Image(decoding: bytes, options: DecodeOptions(maxPixels: 1_000_000))
        }
        #expect(try ImageInfo(bytes: bytes).frames == 5)
    }

    /// Frames whose rectangles reach past the canvas are decompressed whole: the pixels decompressed
    /// are held to the pixel limit together, not just the canvas's (the five frames of disposal.gif,
    /// 3072 + 384 + 400 + 384 + 3072 pixels, on a canvas made 1×1: two frames of 7000² each on one
    /// pixel had taken a server a minute).
    @Test func framesPastTheCanvasAreHeldToThePixelLimitTogether() throws {
        var bytes = try FileIO.read(Self.fixture("disposal.gif"))
        bytes.replaceSubrange(6..<10, with: [1, 0, 1, 0])   // the logical screen: 1×1
        let limit = DecodeOptions(maxPixels: 4000)
        #expect(throws: CodecError(.tooLarge, "image too large: the frames' rectangles hold more than 4000 pixels together (see --max-pixels)")) {
            try Animation(decoding: bytes, options: limit)
        }
        #expect(try Image(decoding: bytes, options: limit).width == 1)   // the first frame alone is within it
        #expect(try Animation(decoding: bytes).frames.count == 5)
    }

    /// A GIF without its trailer plays every whole frame (as browsers do); cut anywhere else or
    /// with bytes flipped it is an error or frames of the canvas's size, never a crash.
    @Test(arguments: ["disposal.gif", "interlaced.gif", "optimized.gif", "ffmpeg.apng.png"])
    func brokenFilesFailCleanly(file: String) throws {
        let bytes = try FileIO.read(Self.fixture(file))
        if file.hasSuffix(".gif") {
            #expect(try Animation(decoding: Array(bytes.dropLast())).frames.count == 5)
        }
        for length in [6, 13, 20, 100, bytes.count / 3, bytes.count / 2, bytes.count - 20] {
            do {
                let animation = try Animation(decoding: Array(bytes.prefix(length)))
                #expect(animation.frames.allSatisfy { $0.width == 64 && $0.height == 48 }, "cut at \(length)")
            } catch {
                #expect(error is CodecError, "cut at \(length): \(error)")
            }
        }
        var random = XorShift64(seed: 5)
        for _ in 0..<200 {
            var broken = bytes
            for _ in 0..<3 { broken[13 + Int(random.next() % UInt64(bytes.count - 13))] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
            do {
                let animation = try Animation(decoding: broken)
                #expect(animation.frames.allSatisfy { $0.pixels.count == $0.width * $0.height * 4 })
            } catch {
                #expect(error is CodecError, "\(error)")
            }
        }
    }

    /// Decoded frames written as an APNG and an animated WebP and read back: the same frames and delays.
    @Test func framesRoundTripThroughTheWriters() throws {
        let animation = try Animation(decoding: try FileIO.read(Self.fixture("disposal.gif")))
        for format in [ImageFormat.png, .webp] {
            let memory = MemoryFile()
            try animation.write(into: memory, as: format, options: EncodeOptions())
            let back = try Animation(decoding: memory.bytes)
            #expect(back.delays == animation.delays, "\(format)")
            #expect(zip(back.frames, animation.frames).allSatisfy { Self.sameShown($0, $1) }, "\(format)")
        }
    }

    /// The GIF writer's two passes: frames sampled, then appended; out of order or of another size, refused.
    @Test func theGIFWriterTakesItsPassesInOrder() throws {
        let a = Image(width: 6, height: 4, filledWith: (200, 40, 40, 255)), b = Image(width: 6, height: 4, filledWith: (40, 40, 200, 255))
        let memory = MemoryFile()
        let writer = try AnimatedGIFWriter(into: memory, width: 6, height: 4, animated: true)
        try writer.sample(a)
        try writer.sample(b)
        #expect(throws: CodecError.self) { try writer.sample(Image(width: 5, height: 4, filledWith: (0, 0, 0, 255))) }
        try writer.append(a, hundredths: 10)
        #expect(throws: CodecError.self) { try writer.sample(b) }
        try writer.append(b, hundredths: 20)
        try writer.finish()
        #expect(throws: CodecError.self) { try writer.finish() }
        let back = try Animation(decoding: memory.bytes)
        #expect(back.delays == [0.1, 0.2])
        #expect(back.frames.map { $0.pixel(x: 3, y: 2) } == [SIMD4(200, 40, 40, 255), SIMD4(40, 40, 200, 255)])
        var one = EncodeOptions()
        one.colors = 1
        #expect(throws: CodecError.self) { try AnimatedGIFWriter(into: MemoryFile(), width: 6, height: 4, animated: true, options: one) }
    }

    /// An animated WebP whose canvas is over the budget is refused from its header, before
    /// libwebp's decoder allocates two canvases (a 16383² canvas over small frames asked the fuzzer
    /// for 4.3 GB): img2webp.webp's 64×48 canvas made 4096×4096.
    @Test func aWebPCanvasOverTheBudgetIsRefusedFromItsHeader() throws {
        var bytes = try FileIO.read(Self.fixture("img2webp.webp"))
        #expect(bytes[12..<16] == Array("VP8X".utf8)[...])
        for offset in [24, 27] { bytes.replaceSubrange(offset..<(offset + 3), with: [0xFF, 0x0F, 0x00]) }
        do {
            _ = try Animation(decoding: bytes, options: DecodeOptions(maxPixels: 1 << 20))
            Issue.record("a 4096×4096 canvas passed a budget of 1 Mpixel")
        } catch let error as CodecError {
            #expect(error.description.contains("a canvas of 4096x4096"), "\(error)")
        }
    }
}
