import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// The colour policy on the command line (issue 57's contract): `info` says what a profile is,
/// `--colorspace`/`--intent` convert, and what holds no profile (GIF, placeholders) shows a tagged
/// picture's colours.
@Suite struct ColourCommandTests {
    /// SampleImages/rocket.jpg: a photo tagged Adobe RGB (1998).
    static let adobe = Corpus.repository + "/SampleImages/rocket.jpg"

    static func mean(_ image: Image) -> [Double] {
        let straight = image.isPremultiplied ? image.unpremultiplied() : image
        return (0..<3).map { c in
            stride(from: c, to: straight.pixels.count, by: 4).reduce(0.0) { $0 + Double(straight.pixels[$1]) } / Double(straight.width * straight.height)
        }
    }

    static func far(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).map { abs($0 - $1) }.max()! }

    @Test func infoSaysWhatTheProfileIs() throws {
        let json = try FrostRun.run(["info", Self.adobe, "--json"])
        #expect(json.stdout.contains(#""icc_description": "Adobe RGB (1998)", "icc_color_space": "RGB""#), "\(json.stdout)")
        let text = try FrostRun.run(["info", Self.adobe])
        #expect(text.stdout.contains(#"icc=yes ("Adobe RGB (1998)", RGB)"#), "\(text.stdout)")
        let untagged = try FrostRun.run(["info", Corpus.path("pillow/jpeg/hopper.jpg"), "--json"])
        #expect(untagged.stdout.contains(#""icc_description": null"#))
    }

    /// A P3 picture and its sRGB conversion: placeholders whose average colours agree within 3
    /// levels, and a GIF that shows the picture's colours within 3 (the raw P3 values are farther).
    @Test func placeholdersAndGIFsShowATaggedPicturesColours() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let p3 = folder.file("p3.png"), srgb = folder.file("srgb.png")
        #expect(try FrostRun.run(["convert", Self.adobe, p3, "--colorspace", "p3"]).status == 0)
        #expect(try FrostRun.run(["convert", Self.adobe, srgb, "--colorspace", "srgb"]).status == 0)
        #expect(try ImageInfo(contentsOfFile: p3).hasICCProfile && !ImageInfo(contentsOfFile: srgb).hasICCProfile)
        let reference = Self.mean(try Image(contentsOfFile: srgb))
        var raw = try Image(contentsOfFile: p3)
        raw.iccProfile = nil
        #expect(Self.far(Self.mean(raw), reference) > 3, "the test can tell: P3 values read as sRGB are off")

        // A BlurHash's average colour is its DC term: characters 2–5, base 83, 8-bit sRGB each.
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")
        var averages: [[Double]] = []
        for file in [p3, srgb] {
            let line = try FrostRun.run(["placeholder", file, "--kind", "blurhash"])
            let hash = Array(line.stdout.split(separator: " ").last!.dropLast())
            let dc = hash[2..<6].reduce(0) { $0 * 83 + digits.firstIndex(of: $1)! }
            averages.append([Double(dc >> 16), Double(dc >> 8 & 255), Double(dc & 255)])
        }
        #expect(Self.far(averages[0], averages[1]) <= 3, "\(averages)")
        var thumbs: [String] = []
        for file in [p3, srgb] { thumbs.append(try FrostRun.run(["placeholder", file, "--kind", "thumbhash"]).stdout.split(separator: " ").last.map(String.init) ?? "") }
        #expect(thumbs[0] == thumbs[1], "\(thumbs)")
        #expect(try FrostRun.run(["convert", p3, folder.file("p3.gif")]).status == 0)
        #expect(Self.far(Self.mean(try Image(contentsOfFile: folder.file("p3.gif"))), reference) <= 3)
    }

    /// A scene composites in sRGB (a tagged layer converted on load); `fade A B` of two pictures in
    /// different spaces blends them in sRGB.
    @Test func scenesAndFadesWorkInOneSpace() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let srgb = folder.file("srgb.png")
        #expect(try FrostRun.run(["convert", Self.adobe, srgb, "--colorspace", "srgb"]).status == 0)
        let reference = try Image(contentsOfFile: srgb)
        try FileManager.default.copyItem(atPath: Self.adobe, toPath: folder.file("rocket.jpg"))
        try Data(#"{"width": 640, "height": 427, "layers": [{"type": "image", "file": "rocket.jpg"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.file("scene.json")))
        let composed = try FrostRun.run(["compose", folder.file("scene.json"), "-o", folder.file("scene.png")])
        #expect(composed.status == 0, "\(composed.stderr)")
        let scene = try Image(contentsOfFile: folder.file("scene.png"))
        #expect(scene.iccProfile == nil && PixelDifference(scene, reference, channels: 3).max <= 1, "\(PixelDifference(scene, reference, channels: 3))")
        // rocket.jpg (Adobe RGB) faded with its own sRGB conversion: the same colours at every fraction.
        let faded = try FrostRun.run(["fade", Self.adobe, srgb, "--fraction", "0.5", "-o", folder.file("fade.png")])
        #expect(faded.status == 0, "\(faded.stderr)")
        let fade = try Image(contentsOfFile: folder.file("fade.png"))
        #expect(fade.iccProfile == nil && PixelDifference(fade, reference, channels: 3).max <= 2, "\(PixelDifference(fade, reference, channels: 3))")
    }

    /// --strip writes no profile: a tagged picture is converted to sRGB first. An MP4 is tagged BT.709.
    @Test func strippedAndVideoOutputsSaySRGB() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(try FrostRun.run(["convert", Self.adobe, folder.file("s.png"), "--strip"]).status == 0)
        #expect(try FrostRun.run(["convert", Self.adobe, folder.file("c.png"), "--colorspace", "srgb"]).status == 0)
        #expect(try !ImageInfo(contentsOfFile: folder.file("s.png")).hasICCProfile)
        #expect(try Image(contentsOfFile: folder.file("s.png")).pixels == Image(contentsOfFile: folder.file("c.png")).pixels)
        #expect(try FrostRun.run(["convert", Corpus.repository + "/Tests/Fixtures/animation/disposal.gif", folder.file("a.mp4")]).status == 0)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe") {
            let probe = try FrostRun.run(["-v", "error", "-show_streams", folder.file("a.mp4")], executable: "/usr/bin/ffprobe")
            for tag in ["color_space=bt709", "color_transfer=bt709", "color_primaries=bt709"] { #expect(probe.stdout.contains(tag), "\(tag)") }
        }
    }

    /// A streamed command converts by rows, after the shrink: the pixels of the whole-image path
    /// (standard input is never streamed), and its output tagged as the whole path tags it.
    @Test func streamedConversionsEqualWholeOnes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.adobe))
        for space in ["srgb", "p3"] {
            let file = try FrostRun.run(["resize", Self.adobe, folder.file("f-\(space).png"), "--width", "300", "--colorspace", space])
            let piped = try FrostRun.run(["resize", "-", folder.file("p-\(space).png"), "--width", "300", "--colorspace", space], stdin: bytes)
            #expect(file.status == 0 && piped.status == 0, "\(file.stderr) \(piped.stderr)")
            let (a, b) = (try Image(contentsOfFile: folder.file("f-\(space).png")), try Image(contentsOfFile: folder.file("p-\(space).png")))
            #expect(a.pixels == b.pixels && a.iccProfile == b.iccProfile, "\(space)")
        }
    }

    @Test func colorspaceRefusals() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.file("o.png")
        let bad = try FrostRun.run(["convert", Self.adobe, out, "--colorspace", "rec2020"])
        #expect(bad.status == 64 && bad.stderr.contains("keep, srgb, p3, PROFILE.icc"), "\(bad.stderr)")
        let cmyk = try FrostRun.run(["convert", Self.adobe, out, "--colorspace", "/usr/share/color/icc/ghostscript/default_cmyk.icc"])
        #expect(cmyk.status == 64 && cmyk.stderr.contains("CMYK profile"), "\(cmyk.stderr)")
        // --intent alone converts to sRGB with that intent.
        #expect(try FrostRun.run(["convert", Self.adobe, out, "--intent", "perceptual"]).status == 0)
        #expect(try !ImageInfo(contentsOfFile: out).hasICCProfile)
        let wide = try FrostRun.run(["convert", Self.adobe, out, "--colorspace", "/usr/share/color/icc/colord/WideGamutRGB.icc", "--intent", "perceptual"])
        #expect(wide.status == 0, "\(wide.stderr)")
        #expect(try ImageInfo(contentsOfFile: out).iccProfile == FileIO.read("/usr/share/color/icc/colord/WideGamutRGB.icc"))
        // The default keeps the file's pixels and profile: the same bytes as before this policy.
        #expect(try FrostRun.run(["convert", Self.adobe, folder.file("kept.png")]).status == 0)
        #expect(try FrostRun.run(["convert", Self.adobe, folder.file("keep.png"), "--colorspace", "keep"]).status == 0)
        #expect(try FileIO.read(folder.file("kept.png")) == FileIO.read(folder.file("keep.png")))
        #expect(try Image(contentsOfFile: folder.file("kept.png")).iccProfile == Image(contentsOfFile: Self.adobe).iccProfile)
    }

    /// `animate --colorspace p3`: every frame converted from the sRGB it is drawn in and the file
    /// tagged (APNG, animated WebP, PNG frames); a GIF or MP4, which hold sRGB only, refuse it.
    @Test func animationsWriteTheSpaceAskedFor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let motion = Corpus.repository + "/SampleImages/motion/secret-viewer.json"
        let common = ["--scale", "0.25"]
        let apng = folder.file("p3.png"), webp = folder.file("p3.webp"), frames = folder.file("frames"), still = folder.file("still.png")
        for out in [apng, webp, frames] {
            let run = try FrostRun.run(["animate", motion, "-o", out, "--colorspace", "p3"] + common)
            #expect(run.status == 0, "\(run.stderr)")
        }
        for file in [apng, webp, frames + "/frame-0000.png"] {
            #expect(try FrostRun.run(["info", file]).stdout.contains(#"icc=yes ("Display P3", RGB)"#), "\(file)")
        }
        // Frame 0 (scroll -80) shown in sRGB is the sRGB still, within a level of rounding.
        #expect(try FrostRun.run(["compose", motion, "-o", still, "--scroll=-80"] + common).status == 0)
        let reference = try Image(contentsOfFile: still)
        for file in [apng, frames + "/frame-0000.png"] {
            let shown = try Image(contentsOfFile: file).inSRGB()
            let far = zip(shown.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(far <= 2, "\(file): \(far) levels off")
            var raw = try Image(contentsOfFile: file)
            raw.iccProfile = nil
            #expect(raw.pixels != reference.pixels, "\(file): not converted")
        }
        let gif = try FrostRun.run(["animate", motion, "-o", folder.file("a.gif"), "--colorspace", "p3"] + common)
        #expect(gif.status == 64 && gif.stderr.contains("sRGB only"), "\(gif.stderr)")
        #expect(try FrostRun.run(["animate", motion, "-o", folder.file("b.gif"), "--colorspace", "srgb"] + common).status == 0)
    }

    /// `cache --colorspace srgb` converts the source once and blurs its levels from that: the cache
    /// of the converted picture, level for level, untagged; the manifest records the space, and a
    /// batch resumes only caches made in the space asked for.
    @Test func cachesRenderTheSpaceAskedFor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let srgb = folder.file("srgb.png")
        #expect(try FrostRun.run(["convert", Self.adobe, srgb, "--colorspace", "srgb"]).status == 0)
        let converted = try FrostRun.run(["cache", Self.adobe, "-o", folder.file("a"), "--levels", "3", "--colorspace", "srgb"])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try FrostRun.run(["cache", srgb, "-o", folder.file("b"), "--levels", "3"]).status == 0)
        for level in 0...3 {
            let name = "/level-0\(level).png"
            let (a, b) = (try Image(contentsOfFile: folder.file("a") + name), try Image(contentsOfFile: folder.file("b") + name))
            #expect(a.iccProfile == nil && a.pixels == b.pixels, "level \(level)")
        }
        let manifest = try String(contentsOfFile: folder.file("a/manifest.json"), encoding: .utf8)
        #expect(manifest.contains(#""colorspace" : "srgb""#) && manifest.contains(#""intent" : "relative""#))
        let kept = try String(contentsOfFile: folder.file("b/manifest.json"), encoding: .utf8)
        #expect(!kept.contains("colorspace"), "the default manifest is as it was")

        let inputs = folder.file("in")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.adobe, toPath: inputs + "/rocket.jpg")
        func batch(_ extra: [String]) throws -> String {
            let run = try FrostRun.run(["cache", "--batch", inputs, "-o", folder.file("out"), "--levels", "2"] + extra)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout + run.stderr
        }
        #expect(try batch(["--colorspace", "p3"]).contains("built 1"))
        #expect(try batch(["--colorspace", "p3"]).contains("skipped 1"))
        #expect(try batch(["--colorspace", "p3", "--intent", "perceptual"]).contains("built 1"))
        #expect(try batch([]).contains("built 1"))
        #expect(try FrostRun.run(["info", folder.file("out/rocket.jpg.frost/level-01.png")]).stdout.contains(#""Adobe RGB (1998)""#))
    }

    /// A drawn hash is sRGB, converted and tagged when another space is asked for; a hash printed
    /// from a picture is sRGB whatever is asked.
    @Test func drawnPlaceholdersTakeTheSpaceAskedFor() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let hash = "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
        #expect(try FrostRun.run(["placeholder", "--decode", hash, "-o", folder.file("s.png")]).status == 0)
        #expect(try FrostRun.run(["placeholder", "--decode", hash, "-o", folder.file("p.png"), "--colorspace", "p3"]).status == 0)
        let (s, p) = (try Image(contentsOfFile: folder.file("s.png")), try Image(contentsOfFile: folder.file("p.png")))
        #expect(s.iccProfile == nil && p.iccProfile != nil && s.pixels != p.pixels)
        let shown = p.inSRGB()
        #expect(zip(shown.pixels, s.pixels).map { abs(Int($0) - Int($1)) }.max()! <= 2)
        let refused = try FrostRun.run(["placeholder", Self.adobe, "--colorspace", "p3"])
        #expect(refused.status == 64 && refused.stderr.contains("placeholders are sRGB"), "\(refused.stderr)")
        #expect(try FrostRun.run(["placeholder", Self.adobe, "--colorspace", "srgb"]).status == 0)
    }
}
