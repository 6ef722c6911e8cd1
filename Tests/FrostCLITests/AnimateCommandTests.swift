import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `frost animate` and `frost compose --scroll/--time` as a user runs them.
@Suite struct AnimateCommandTests {
    static let samples = Corpus.repository + "/SampleImages/motion"

    /// A small scroll scene: a sticky, fading, parallax header over a moving list, with a blurred photo.
    static let scene = #"""
    { "width": 120, "height": 160, "scale": 1, "background": "white",
      "timeline": { "driver": "scroll", "from": -20, "to": 60, "frames": 9 },
      "layers": [
        { "type": "group", "frame": [0, 60, 120, 200], "animate": { "frame.y": { "keys": [[-20, 80], [60, 0]] } },
          "layers": [ { "type": "text", "text": "row one", "size": 11, "frame": [8, 8, 100, 16] },
                      { "type": "color", "color": "peony", "frame": [8, 30, 20, 20], "cornerRadius": 10 } ] },
        { "type": "image", "file": "photo.png", "contentMode": "aspect-fill", "frame": [0, 0, 120, 60],
          "blur": { "levels": 4, "max-sigma": 6, "mode": "blend" },
          "animate": { "blur.progress": { "keys": [[0, 0], [40, 1]] },
                       "transform.translate": { "keys": [[0, [0, 0]], [60, [0, -30]]], "ease": "ease-out" } } },
        { "type": "text", "text": "Title", "size": 14, "color": "white", "frame": [8, 36, 104, 20],
          "animate": { "opacity": { "keys": [[0, 1], [30, 0]], "ease": "ease-in-out" } } } ] }
    """#

    static func prepare(_ folder: TemporaryFolder) throws -> String {
        try noiseImage(width: 80, height: 50, opaque: true).write(toFile: folder.file("photo.png"))
        try Data(scene.utf8).write(to: URL(fileURLWithPath: folder.file("scene.json")))
        return folder.file("scene.json")
    }

    /// The scene's nine frames, rendered into a folder of PNGs and read back.
    static func frames(_ scene: String, _ folder: TemporaryFolder) throws -> [Image] {
        #expect(try FrostRun.run(["animate", scene, "-o", folder.file("frames")]).status == 0)
        return try (0..<9).map { try Image(contentsOfFile: folder.file(String(format: "frames/frame-%04d.png", $0))) }
    }

    static func frameFiles(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix("frame-") }.sorted()
    }

    @Test func everyFrameEqualsTheStillAtItsOffsetAndTheAPNGHoldsThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try Self.prepare(folder)
        let run = try FrostRun.run(["animate", scene, "-o", folder.file("frames"), "--strip", folder.file("strip.png"), "--strip-every", "4"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("9 of 9 frames 120x160"))
        #expect(Self.frameFiles(folder.file("frames")) == (0..<9).map { String(format: "frame-%04d.png", $0) })
        let apng = try FrostRun.run(["animate", scene, "-o", folder.file("anim.png"), "--fps", "30"])
        #expect(apng.status == 0, "\(apng.stderr)")
        let read = try APNGFrames(try FileIO.read(folder.file("anim.png")))
        #expect(read.frameCount == 9 && read.delays.allSatisfy { abs($0 - 1.0 / 30) < 1e-12 })
        #expect(try FrostRun.run(["info", folder.file("anim.png")]).stdout.hasSuffix(" frames=9 duration=0.3s loops=forever\n"))
        for k in 0..<9 {
            let y = -20 + 10 * k
            let still = try FrostRun.run(["compose", scene, "--scroll", String(y), "-o", folder.file("still.png")])
            #expect(still.status == 0, "\(still.stderr)")
            let expected = try Image(contentsOfFile: folder.file("still.png"))
            #expect(try Image(contentsOfFile: folder.file("frames/frame-000\(k).png")).pixels == expected.pixels, "frame \(k)")
            #expect(read.frames[k].pixels == expected.pixels, "APNG frame \(k)")
        }
        // An independent reader: ffmpeg's APNG decoder composes every frame (each stores only the
        // rectangle that changed).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") {
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = ["-v", "error", "-i", folder.file("anim.png"), "-fps_mode", "passthrough", "-y", folder.file("ff-%d.png")]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            #expect(ffmpeg.terminationStatus == 0)
            for k in 0..<9 {
                let same = try identical(Image(contentsOfFile: folder.file("ff-\(k + 1).png")), read.frames[k])
                #expect(same, "ffmpeg's frame \(k)")
            }
            #expect(read.regions.dropFirst().contains { $0 != PixelBounds(x: 0, y: 0, width: 120, height: 160) })
        } else {
            print("ffmpeg is not installed: the APNG was read back by Frost's chunk walk only (Debian: apt-get install ffmpeg)")
        }
        // The pull-down, the blur and the fade happen: frames differ from one another.
        #expect(Set(read.frames.map(\.pixels)).count == 9)
        let strip = try ImageInfo(contentsOfFile: folder.file("strip.png"))
        // Frames 0, 4, 8, each labelled under it ("frame 4 · scroll 20 pt": one line of 10-pixel text).
        #expect(strip.width == 3 * 120 + 4 * 8 && strip.height > 160 + 16 && strip.height <= 160 + 16 + 16, "\(strip)")
    }

    @Test func slicesAreDisjointAndComplete() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try Self.prepare(folder)
        var seen: [String] = []
        for k in 0..<3 {
            let run = try FrostRun.run(["animate", scene, "-o", folder.file("slice\(k)"), "--frames", "\(k)/3"])
            #expect(run.status == 0, "\(run.stderr)")
            let files = Self.frameFiles(folder.file("slice\(k)"))
            #expect(files == stride(from: k, to: 9, by: 3).map { String(format: "frame-%04d.png", $0) })
            seen += files
        }
        #expect(seen.sorted() == (0..<9).map { String(format: "frame-%04d.png", $0) })
        let whole = try FrostRun.run(["animate", scene, "-o", folder.file("whole")])
        #expect(whole.status == 0)
        for name in Self.frameFiles(folder.file("whole")) {
            let k = Int(name.dropFirst(6).prefix(4))! % 3
            #expect(try FileIO.read(folder.file("whole/\(name)")) == FileIO.read(folder.file("slice\(k)/\(name)")))
        }
    }

    @Test func timeScenesTakeTheirOwnRateAndHeldValues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = #"{"width": 40, "height": 30, "background": "black", "timeline": {"driver": "time", "duration": 0.25, "fps": 12},"#
            + #""layers": [{"type": "color", "color": "white", "frame": [0, 0, 10, 10], "animate": {"#
            + #""frame.x": {"by": "time", "keys": [[0, 0], [0.25, 30]], "ease": {"spring": {"response": 0.2, "dampingFraction": 0.5}}},"#
            + #""frame.y": {"by": "scroll", "keys": [[0, 0], [20, 20]]}}}]}"#
        try Data(scene.utf8).write(to: URL(fileURLWithPath: folder.file("t.json")))
        let run = try FrostRun.run(["animate", folder.file("t.json"), "-o", folder.file("t.png"), "--scroll", "-10"])
        #expect(run.status == 0, "\(run.stderr)")
        let read = try APNGFrames(try FileIO.read(folder.file("t.png")))
        #expect(read.frameCount == 4)   // t = 0, 1/12, 2/12 and the duration 0.25
        #expect(abs(read.delays[0] - 1.0 / 12) < 1e-12 && abs(read.delays[2] - (0.25 - 2.0 / 12)) < 0.001)
        let still = try FrostRun.run(["compose", folder.file("t.json"), "--time", "0.25", "--scroll", "-10", "-o", folder.file("s.png")])
        #expect(still.status == 0, "\(still.stderr)")
        #expect(try Image(contentsOfFile: folder.file("s.png")).pixels == read.frames[3].pixels)
        // The square moved right by its spring and not down (the scroll is held at -10, below the first key).
        #expect(read.frames[3].pixel(x: 35, y: 5) == SIMD4(255, 255, 255, 255) && read.frames[0].pixel(x: 5, y: 5)[0] == 255)
    }

    /// An animated WebP holds the frames the folder holds: lossless exactly, lossy as close as a
    /// lossy still, each at its time (libwebp's encoder folds a frame equal to the one before into
    /// that one's duration, so frames are matched by the time they show). webpmux (Debian's webp)
    /// reads the file too.
    @Test func animatedWebPsHoldTheFramesAtTheirTimes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try Self.prepare(folder)
        let stills = try Self.frames(scene, folder)
        for quality in [nil, 80] {
            let path = folder.file("anim-\(quality ?? 0).webp")
            let run = try FrostRun.run(["animate", scene, "-o", path, "--fps", "30"] + (quality.map { ["--quality", "\($0)"] } ?? ["--lossless"]))
            #expect(run.status == 0, "\(run.stderr)")
            let read = try AnimatedWebPFrames(try FileIO.read(path))
            #expect(abs(read.delays.reduce(0, +) - 0.3) < 0.0015 && read.frames.count <= 9, "\(read.delays)")
            #expect(try ImageInfo(contentsOfFile: path).frames == read.frames.count)
            let ends = read.delays.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
            for (k, still) in stills.enumerated() {
                let shown = read.frames[ends.firstIndex { $0 > Double(k) / 30 + 0.0005 }!]
                let difference = PixelDifference(shown, still, channels: 3)
                if quality == nil {
                    #expect(identical(shown, still), "lossless frame \(k): \(difference)")
                } else {
                    // As close as the still itself written as a lossy WebP at that quality (the photo is noise: far).
                    let alone = try Image(decoding: still.encoded(as: .webp, options: EncodeOptions(webpQuality: quality)))
                    let bound = PixelDifference(alone, still, channels: 3).mean * 1.5 + 1
                    #expect(difference.mean <= bound, "lossy frame \(k): \(difference), a lossy still \(bound)")
                }
            }
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/webpmux") {
                let info = try FrostRun.run(["-info", path], executable: "/usr/bin/webpmux")
                #expect(info.status == 0 && info.stdout.contains("Canvas size: 120 x 160") && info.stdout.contains("Loop Count : 0"), "\(info.stdout)")
            }
        }
        let lossless = try FileIO.read(folder.file("anim-0.webp")).count, lossy = try FileIO.read(folder.file("anim-80.webp")).count
        #expect(lossy < lossless, "lossy \(lossy) bytes, lossless \(lossless)")
    }

    /// A GIF holds the folder's frames in one palette (about as close as each still written as a
    /// GIF alone), each at its time; frames closer than GIF's two hundredths are left out, a clear
    /// background stays transparent, and --colors bounds the palette.
    @Test func gifsHoldTheFramesInOnePalette() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try Self.prepare(folder)
        let stills = try Self.frames(scene, folder)
        let run = try FrostRun.run(["animate", scene, "-o", folder.file("anim.gif"), "--fps", "30"])
        #expect(run.status == 0 && run.stdout.contains("9 of 9 frames 120x160"), "\(run.stderr)")
        let read = try Animation(decoding: try FileIO.read(folder.file("anim.gif")))
        #expect(abs(read.duration - 0.3) < 1e-9 && read.frames.count <= 9, "\(read.delays)")
        let ends = read.delays.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
        for (k, still) in stills.enumerated() {
            let shown = read.frames[ends.firstIndex { $0 > (Double(k) / 30 * 100).rounded() / 100 + 0.001 }!]
            let alone = try Image(decoding: still.encoded(as: .gif))
            let bound = PixelDifference(alone, still, channels: 3).mean * 2 + 2
            #expect(PixelDifference(shown, still, channels: 3).mean <= bound, "frame \(k): \(PixelDifference(shown, still, channels: 3)), alone \(bound)")
        }
        // 60 frames a second: the frames starting at 0, 2, 5, 7, 10 and 12 hundredths are kept; the
        // filmstrip still shows every second frame (those left out drawn for it), in true colour.
        let fast = try FrostRun.run(["animate", scene, "-o", folder.file("fast.gif"), "--fps", "60", "--colors", "16", "--dither", "0",
                                     "--strip", folder.file("fast-strip.png"), "--strip-every", "2"])
        #expect(fast.status == 0 && fast.stdout.contains("6 of 9 frames"), "\(fast.stdout) \(fast.stderr)")
        #expect(try FrostRun.run(["animate", scene, "-o", folder.file("fast.png"), "--fps", "60", "--strip", folder.file("apng-strip.png"),
                                  "--strip-every", "2"]).status == 0)
        #expect(try Image(contentsOfFile: folder.file("fast-strip.png")).pixels == Image(contentsOfFile: folder.file("apng-strip.png")).pixels)
        let quick = try Animation(decoding: try FileIO.read(folder.file("fast.gif")))
        #expect(abs(quick.duration - 0.15) < 1e-9)
        #expect(Set(quick.frames.flatMap { frame in (0..<(frame.width * frame.height)).map { frame.pixel(x: $0 % frame.width, y: $0 / frame.width) } }).count <= 16)
        // A clear background: transparent where the frame is (every frame whole, cleared after showing).
        let clear = Self.scene.replacingOccurrences(of: #""background": "white""#, with: #""background": "clear""#)
        try Data(clear.utf8).write(to: URL(fileURLWithPath: folder.file("clear.json")))
        let see = try FrostRun.run(["animate", folder.file("clear.json"), "-o", folder.file("clear.gif"), "--fps", "30"])
        #expect(see.status == 0, "\(see.stderr)")
        let through = try Animation(decoding: try FileIO.read(folder.file("clear.gif")))
        #expect(through.frames.count == 9 && through.frames[8].pixel(x: 60, y: 150)[3] == 0 && stills[8].pixel(x: 60, y: 150)[3] == 255)
    }

    @Test func mp4GoesThroughFFmpegOrSaysItIsMissing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = try Self.prepare(folder)
        let missing = try FrostRun.run(["animate", scene, "-o", folder.file("a.mp4")], environment: ["PATH": "/nonexistent"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("frost: \(folder.file("a.mp4")): writing MP4 needs ffmpeg"), "\(missing.stderr)")
        #expect(!folder.contents().contains { $0.contains("a.mp4") })
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            print("ffmpeg is not installed: the MP4 path was checked only for its error (Debian: apt-get install ffmpeg)")
            return
        }
        let run = try FrostRun.run(["animate", scene, "-o", folder.file("a.mp4")])
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = try FileIO.read(folder.file("a.mp4"))
        #expect(bytes.count > 1000 && String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
        #expect(folder.contents().filter { $0.contains("a.mp4") } == ["a.mp4"])
    }

    @Test func badScenesAndOptionsFailWithOneLineAndNoOutput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cases: [(String, String)] = [
            (#"{"width": 10, "height": 10, "timeline": {"driver": "scroll", "from": 0, "to": 1, "frames": 0}}"#,
             "timeline.frames: expected a whole number from 1 to 100000"),
            (#"{"width": 10, "height": 10, "timeline": {"driver": "time", "duration": 1}, "layers": [{"type": "color", "color": "white", "animate": {"opacity": {"keys": [[1, 1], [0, 0]]}}}]}"#,
             "layers[0].animate.opacity.keys[1]: keys must ascend"),
            (#"{"width": 10, "height": 10, "layers": [{"type": "color", "color": "white"}]}"#,
             "timeline: missing: `frost animate` needs a timeline"),
            (#"{"width": 10, "height": 10, "timeline": {"driver": "time", "duration": 1}, "layers": [{"type": "image", "file": "x.png", "blur": {"cache": "nowhere"}}]}"#,
             "layers[0].file: cannot read"),
        ]
        for (json, expected) in cases {
            try Data(json.utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
            for out in ["out.png", "outdir"] {
                let run = try FrostRun.run(["animate", folder.file("bad.json"), "-o", folder.file(out)])
                #expect(run.status == 1, "\(json)")
                #expect(run.stderr.hasPrefix("frost: \(folder.file("bad.json")): \(expected)"), "\(run.stderr)")
                #expect(run.stderr.split(separator: "\n").count == 1)
                #expect(!folder.contents().contains { $0.contains("out") })
            }
        }
        let scene = try Self.prepare(folder)
        let usage = try FrostRun.run(["animate", scene, "-o", folder.file("x.png"), "--frames", "1/2"])
        #expect(usage.status == 64 && usage.stderr.contains("--frames needs a folder"))
        let slice = try FrostRun.run(["animate", scene, "-o", folder.file("d"), "--frames", "3/2"])
        #expect(slice.status == 64 && slice.stderr.contains("--frames must be K/N"))
    }

    /// The seed samples render as stills at any offset (a quick look at each at scale 0.5).
    @Test(arguments: ["secret-viewer.json", "twitter-profile.json", "twitter-profile-blend.json", "appstore-press.json", "appstore-tilt.json", "vesper-transition.json"])
    func samplesRenderAsStills(_ name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["compose", "\(Self.samples)/\(name)", "--scroll", "-40", "--time", "0.7", "--pitch", "0.2", "--roll", "-0.1", "--scale", "0.5", "-o", folder.file("s.png")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ImageInfo(contentsOfFile: folder.file("s.png")).width > 100)
    }
}
