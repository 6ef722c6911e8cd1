import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// Animations in: every filter applies to every frame of a GIF, APNG or animated WebP and writes an
/// animation where the output holds one; `--frame` takes one; `info` counts frames and time.
@Suite struct AnimationInputTests {
    static let gif = Corpus.repository + "/Tests/Fixtures/animation/disposal.gif"

    static func animation(_ path: String) throws -> Animation { try Animation(decoding: try FileIO.read(path)) }

    @Test func everyFilterAppliesToEveryFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try Self.animation(Self.gif)
        let converted = try FrostRun.run(["convert", Self.gif, folder.file("anim.webp"), "--lossless"])
        #expect(converted.status == 0 && converted.stderr.isEmpty, "\(converted.stderr)")
        let webp = try Self.animation(folder.file("anim.webp"))
        #expect(webp.delays == source.delays && zip(webp.frames, source.frames).allSatisfy { identical($0, $1) })

        let resized = try FrostRun.run(["resize", Self.gif, "-o", folder.file("small.webp"), "--width", "32"])
        #expect(resized.status == 0, "\(resized.stderr)")
        let small = try Self.animation(folder.file("small.webp"))
        #expect(small.frames.count == 5 && small.frames.allSatisfy { $0.width == 32 && $0.height == 24 })

        let blurred = try FrostRun.run(["blur", Self.gif, folder.file("blurred.png"), "--sigma", "1.5"])
        #expect(blurred.status == 0, "\(blurred.stderr)")
        let apng = try Self.animation(folder.file("blurred.png"))
        #expect(try ImageInfo(contentsOfFile: folder.file("blurred.png")).frames == 5 && apng.delays == source.delays)
        // Each frame is the still blur of that frame.
        var third = DecodeOptions()
        third.frame = 2
        #expect(try FrostRun.run(["blur", Self.gif, folder.file("third.png"), "--sigma", "1.5", "--frame", "2"]).status == 0)
        #expect(identical(apng.frames[2], try Image(contentsOfFile: folder.file("third.png"))))
        #expect(identical(try Image(contentsOfFile: folder.file("third.png")),
                          try Image(contentsOfFile: folder.file("blurred.png"), options: third)))

        // An AVIF sequence's frames go through as well; an AVIF output is a still, with a note.
        let sequence = Corpus.repository + "/Tests/Fixtures/heif/sequence.avif"
        let fromAVIF = try FrostRun.run(["resize", sequence, folder.file("sequence.webp"), "--width", "32"])
        #expect(fromAVIF.status == 0 && fromAVIF.stderr.isEmpty, "\(fromAVIF.stderr)")
        let sequenceFrames = try Self.animation(folder.file("sequence.webp"))
        #expect(sequenceFrames.frames.count == 5 && sequenceFrames.delays == [0.1, 0.2, 0.3, 0.5, 0.1])
        let toAVIF = try FrostRun.run(["convert", sequence, folder.file("still.avif")])
        #expect(toAVIF.status == 0 && toAVIF.stderr == "frost: \(sequence): note: 5 frames; Frost writes AVIF as a still: the first is written (--frame K chooses)\n", "\(toAVIF.stderr)")

        let chained = try FrostRun.run(["run", Self.gif, folder.file("chain.webp"), "blur:sigma=1", "resize:width=16"])
        #expect(chained.status == 0, "\(chained.stderr)")
        #expect(try Self.animation(folder.file("chain.webp")).frames.allSatisfy { $0.width == 16 })

        // GIF in, GIF out, 32 colours: five frames, the delays kept.
        let gif = try FrostRun.run(["resize", Self.gif, folder.file("small.gif"), "--width", "32", "--colors", "32"])
        #expect(gif.status == 0, "\(gif.stderr)")
        let small32 = try Self.animation(folder.file("small.gif"))
        #expect(small32.frames.count == 5 && small32.delays == source.delays && small32.frames[0].width == 32)
        let refused = try FrostRun.run(["convert", Self.gif, folder.file("q.gif"), "--quality", "50"])
        #expect(refused.status == 64 && refused.stderr.contains("--quality does not apply to GIF output"))
        let dither = try FrostRun.run(["convert", Self.gif, folder.file("d.png"), "--dither", "0.5"])
        #expect(dither.status == 64 && dither.stderr.contains("--dither does not apply to PNG output without --colors"))
    }

    @Test func aStillOutputTakesOneFrameAndSaysSo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["convert", Self.gif, folder.file("still.jpg")])
        #expect(run.status == 0)
        #expect(run.stderr == "frost: \(Self.gif): note: 5 frames; JPEG holds one: the first is written (--frame K chooses)\n")
        let chosen = try FrostRun.run(["convert", Self.gif, folder.file("fourth.png"), "--frame", "3"])
        #expect(chosen.status == 0 && chosen.stderr.isEmpty)
        #expect(try ImageInfo(contentsOfFile: folder.file("fourth.png")).frames == 1)
        #expect(identical(try Image(contentsOfFile: folder.file("fourth.png")), try Self.animation(Self.gif).frames[3]))
        let past = try FrostRun.run(["convert", Self.gif, folder.file("x.png"), "--frame", "5"])
        #expect(past.status == 1 && past.stderr == "frost: \(Self.gif): there is no frame 5: the file has 5 (--frame counts from 0)\n")
    }

    @Test func limitsAndInfo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let many = try FrostRun.run(["convert", Self.gif, folder.file("a.webp"), "--max-frames", "4"])
        #expect(many.status == 1 && many.errorLines.count == 1 && many.stderr.contains("more than 4 frames (see --max-frames)"), "\(many.stderr)")
        let pixels = try FrostRun.run(["convert", Self.gif, folder.file("a.webp"), "--max-pixels", "10000"])
        #expect(pixels.status == 1 && pixels.stderr.contains("the 5 frames of 64×48 are"), "\(pixels.stderr)")
        #expect(folder.contents().isEmpty)
        let info = try FrostRun.run(["info", "--json", Self.gif])
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
        #expect(object["format"] as? String == "gif" && object["frames"] as? Int == 5 && object["duration"] as? Double == 1.2)
        let text = try FrostRun.run(["info", Self.gif])
        #expect(text.stdout.hasSuffix("frames=5 duration=1.2s loops=forever\n"), "\(text.stdout)")
        // GIFs into a folder stay GIFs, an animation an animation.
        let batch = try FrostRun.run(["convert", Self.gif, Corpus.repository + "/Tests/Fixtures/animation/still.gif", "-o", folder.file("out/")])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(try ImageInfo(contentsOfFile: folder.file("out/disposal.gif")).frames == 5)
        #expect(try ImageInfo(contentsOfFile: folder.file("out/still.gif")).frames == 1)
    }

    /// ffmpeg's decoding of `path` as premultiplied-over-black RGB frames, and its frame rate.
    static func videoFrames(_ path: String, width: Int, height: Int) throws -> (frames: [[UInt8]], rate: String) {
        func output(_ tool: String, _ arguments: [String]) throws -> Data {
            let process = Process(), pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        let raw = [UInt8](try output("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        let size = width * height * 3
        let rate = String(decoding: try output("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=r_frame_rate", "-of", "csv=p=0", path]), as: UTF8.self)
        return (stride(from: 0, to: raw.count - size + 1, by: size).map { Array(raw[$0..<$0 + size]) }, rate.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Mean absolute difference of RGB bytes and an RGBA image over black.
    static func meanError(_ rgb: [UInt8], _ image: Image) -> Double {
        let shown = image.premultiplied().pixels
        var sum = 0
        for i in 0..<rgb.count / 3 {
            for c in 0..<3 { sum += abs(Int(rgb[3 * i + c]) - Int(shown[4 * i + c])) }
        }
        return Double(sum) / Double(rgb.count)
    }

    @Test func framesAsFilesAndAsVideo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try Self.animation(Self.gif)
        // One file per frame, counted from 0, each the still filter of its frame.
        let files = try FrostRun.run(["resize", Self.gif, "-o", folder.file("frames/%03d.png"), "--width", "32"])
        #expect(files.status == 0 && files.stderr.isEmpty, "\(files.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("frames")).sorted() == (0..<5).map { String(format: "%03d.png", $0) })
        #expect(try FrostRun.run(["resize", Self.gif, "-o", folder.file("third.png"), "--width", "32", "--frame", "2"]).status == 0)
        #expect(identical(try Image(contentsOfFile: folder.file("frames/002.png")), try Image(contentsOfFile: folder.file("third.png"))))
        let jpegs = try FrostRun.run(["convert", Self.gif, folder.file("j-%d.jpg"), "--quality", "80"])
        #expect(jpegs.status == 0 && (0..<5).allSatisfy { FileManager.default.fileExists(atPath: folder.file("j-\($0).jpg")) })

        let refusals: [([String], String)] = [
            (["convert", Self.gif, folder.file("a.mp4"), "--quality", "50"], "--quality does not apply to MP4 output"),
            (["convert", Self.gif, folder.file("a.mp4"), "--format", "png"], "--format does not apply to MP4 output"),
            (["convert", Self.gif, folder.file("f%d.png"), "--frame", "1"], "--frame takes one frame"),
        ]
        for (arguments, message) in refusals {
            let run = try FrostRun.run(arguments)
            #expect(run.status == 64 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let still = try FrostRun.run(["convert", Corpus.repository + "/SampleImages/coffee.png", folder.file("still.mp4")])
        #expect(still.status == 1 && still.stderr.hasSuffix("coffee.png: a still image: an MP4 is written from an animation (GIF, APNG, animated WebP or AVIF sequence)\n"), "\(still.stderr)")
        #expect(!folder.contents().contains { $0.contains(".mp4") })

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("ffmpeg is not installed: MP4 output was checked only for its refusals (Debian: apt-get install ffmpeg)")
            return
        }
        // Delays of 0.1, 0.2, 0.3, 0.5 and 0.1 s: ten frames a second, each frame shown for its ticks.
        let video = try FrostRun.run(["convert", Self.gif, folder.file("anim.mp4")])
        #expect(video.status == 0 && video.stderr.isEmpty, "\(video.stderr)")
        let (ticks, rate) = try Self.videoFrames(folder.file("anim.mp4"), width: 64, height: 48)
        #expect(rate == "10/1" && ticks.count == 12, "\(rate), \(ticks.count) frames")
        let expected = [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4]
        for (k, tick) in ticks.enumerated() where k < expected.count {
            let errors = source.frames.map { Self.meanError(tick, $0) }
            #expect(errors.firstIndex(of: errors.min()!) == expected[k] && errors[expected[k]] < 10, "tick \(k): \(errors)")
        }

        // Delays without a common rate at or under 60 frames a second: the 60 grid, each frame at its nearest tick.
        let odd = Animation(frames: source.frames, delays: [0.007, 0.013, 0.05, 0.1, 0.03])
        let memory = MemoryFile()
        try odd.write(into: memory, as: .webp, options: EncodeOptions())
        try FileIO.writeAtomically(memory.bytes, to: folder.file("odd.webp"))
        #expect(try FrostRun.run(["convert", folder.file("odd.webp"), folder.file("odd.mp4")]).status == 0)
        let (oddTicks, oddRate) = try Self.videoFrames(folder.file("odd.mp4"), width: 64, height: 48)
        // Starts at 0, 7, 20, 70, 170 ms, ending at 200: ticks 0, 0, 1, 4, 10, ending at 12.
        #expect(oddRate == "60/1" && oddTicks.count == 12, "\(oddRate), \(oddTicks.count) frames")
        let oddExpected = [1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4]
        for (k, tick) in oddTicks.enumerated() where k < oddExpected.count {
            let errors = source.frames.map { Self.meanError(tick, $0) }
            #expect(errors.firstIndex(of: errors.min()!) == oddExpected[k], "tick \(k): \(errors)")
        }
    }
}
