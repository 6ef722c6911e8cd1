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
        let converted = try FrostRun.run(["convert", Self.gif, folder.file("anim.webp")])
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
        #expect(text.stdout.hasSuffix("frames=5 duration=1.2s\n"), "\(text.stdout)")
        // GIFs into a folder stay GIFs, an animation an animation.
        let batch = try FrostRun.run(["convert", Self.gif, Corpus.repository + "/Tests/Fixtures/animation/still.gif", "-o", folder.file("out/")])
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(try ImageInfo(contentsOfFile: folder.file("out/disposal.gif")).frames == 5)
        #expect(try ImageInfo(contentsOfFile: folder.file("out/still.gif")).frames == 1)
    }
}
