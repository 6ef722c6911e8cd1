import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `--linear` on every verb the issue names (blur, resize with every --fit, run, compose, animate,
/// fade): half black and half white comes out as half the light, 188, where sRGB arithmetic gives 128.
@Suite struct LinearLightCommandTests {
    /// 1-pixel black and white rows, RGB.
    static func lines(_ size: Int) -> Image {
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        for y in stride(from: 1, to: size, by: 2) {
            for x in 0..<size { for c in 0..<3 { pixels[(y * size + x) * 4 + c] = 0 } }
        }
        return Image(width: size, height: size, pixels: pixels, hasAlpha: false)
    }

    /// The red values of the interior pixels (away from the edges, where filters repeat a line).
    static func interior(_ path: String) throws -> Set<UInt8> {
        let image = try Image(contentsOfFile: path).unpremultiplied()
        var values = Set<UInt8>()
        for y in 3..<(image.height - 3) { for x in 3..<(image.width - 3) { values.insert(image.pixel(x: x, y: y)[0]) } }
        return values
    }

    @Test func resizeAndRunShrinkLinesToHalfTheLight() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let png = folder.file("lines.png")
        try Self.lines(64).write(toFile: png)
        for fit in ["contain", "cover", "fill", "pad"] {
            let out = folder.file("\(fit).png")
            let run = try FrostRun.run(["resize", png, out, "--width", "32", "--height", "24", "--fit", fit, "--linear"])
            #expect(run.status == 0, "\(run.stderr)")
            var image = try Image(contentsOfFile: out).unpremultiplied()
            if fit == "pad" { image = image.cropped(x: 4, y: 0, width: 24, height: 24) }
            let values = Set((0..<(image.width * image.height)).compactMap { p -> UInt8? in
                let (x, y) = (p % image.width, p / image.width)
                return (3..<(image.width - 3)).contains(x) && (3..<(image.height - 3)).contains(y) ? image.pixels[4 * p] : nil
            })
            #expect(values.isSubset(of: [187, 188]), "--fit \(fit): \(values.sorted())")
        }
        let gamma = folder.file("gamma.png")
        #expect(try FrostRun.run(["resize", png, gamma, "--width", "32"]).status == 0)
        #expect(try Self.interior(gamma) == [128])
        for arguments in [["run", "--linear", png, folder.file("a.png"), "resize:width=32"],
                          ["run", png, folder.file("b.png"), "resize:width=32,linear"]] {
            #expect(try FrostRun.run(arguments).status == 0)
            #expect(try Self.interior(arguments[arguments.count - 2]).isSubset(of: [187, 188]), "\(arguments)")
        }
        let box = try FrostRun.run(["run", "--linear", png, folder.file("c.png"), "blur:box=2"])
        #expect(box.status != 0 && box.stderr.contains("--linear"), "\(box.stderr)")
        #expect(try FrostRun.run(["blur", png, folder.file("d.png"), "--box", "2", "--linear"]).status != 0)
    }

    /// A JPEG large enough for shrink on load (a 4× shrink) is decoded whole under --linear: the
    /// DCT's reduction would average gamma-encoded values.
    @Test func linearResizesOfJPEGsSkipTheReducedDecode() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let jpeg = folder.file("lines.jpg")
        try Self.lines(256).write(toFile: jpeg, options: EncodeOptions(quality: 100))
        let out = folder.file("small.png")
        #expect(try FrostRun.run(["resize", jpeg, out, "--width", "64", "--linear"]).status == 0)
        let values = try Self.interior(out)
        #expect(values.allSatisfy { (184...191).contains($0) }, "\(values.sorted())")
    }

    @Test func blurSpreadsLight() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // One white column on black: blurred in light, its neighbours are brighter.
        var pixels = [UInt8](repeating: 0, count: 48 * 16 * 4)
        for y in 0..<16 { for c in 0..<4 { pixels[(y * 48 + 24) * 4 + c] = 255 }; for x in 0..<48 { pixels[(y * 48 + x) * 4 + 3] = 255 } }
        let input = folder.file("column.png")
        try Image(width: 48, height: 16, pixels: pixels, hasAlpha: false).write(toFile: input)
        let (gamma, linear) = (folder.file("g.png"), folder.file("l.png"))
        #expect(try FrostRun.run(["blur", input, gamma, "--sigma", "3"]).status == 0)
        #expect(try FrostRun.run(["blur", input, linear, "--sigma", "3", "--linear"]).status == 0)
        let g = try Image(contentsOfFile: gamma), l = try Image(contentsOfFile: linear)
        for x in [20, 22, 27] { #expect(l.pixel(x: x, y: 8)[0] > g.pixel(x: x, y: 8)[0] + 10, "x \(x)") }
    }

    @Test func fadeBlendsLight() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let black = folder.file("black.png"), white = folder.file("white.png"), out = folder.file("half.png")
        try Image(width: 8, height: 8, filledWith: (0, 0, 0, 255)).write(toFile: black)
        try Image(width: 8, height: 8, filledWith: (255, 255, 255, 255)).write(toFile: white)
        #expect(try FrostRun.run(["fade", black, white, "--fraction", "0.5", "--linear", "-o", out]).status == 0)
        #expect(try Image(contentsOfFile: out).pixel(x: 3, y: 3)[0] == 188)
    }

    /// A white layer at half opacity over black lets half the light through; an animation's frame
    /// under --linear is the still `compose --linear` renders at its driver value.
    @Test func composeAndAnimateBlendLight() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = folder.file("scene.json")
        try Data(##"{"width": 16, "height": 16, "scale": 1, "background": "#000000", "layers": [{"type": "color", "frame": [0, 0, 16, 16], "color": "#ffffff", "opacity": 0.5}]}"##.utf8)
            .write(to: URL(fileURLWithPath: scene))
        for (flags, expected) in [([String](), UInt8(128)), (["--linear"], UInt8(188))] {
            let out = folder.file("still\(flags.count).png")
            #expect(try FrostRun.run(["compose", scene, "-o", out] + flags).status == 0)
            #expect(try Image(contentsOfFile: out).pixel(x: 5, y: 5)[0] == expected, "\(flags)")
        }
        let motion = Corpus.repository + "/SampleImages/motion/secret-viewer.json"
        let frames = folder.file("frames"), still = folder.file("still.png")
        #expect(try FrostRun.run(["animate", motion, "-o", frames, "--scale", "0.25", "--linear", "--frames", "0/1000"]).status == 0)
        // Frame 0 is at the timeline's first scroll offset, -80.
        #expect(try FrostRun.run(["compose", motion, "-o", still, "--scale", "0.25", "--linear", "--scroll=-80"]).status == 0)
        let frame = try Image(contentsOfFile: frames + "/frame-0000.png"), composed = try Image(contentsOfFile: still)
        #expect(frame.pixels == composed.pixels, "frame 0 differs from the still")
        let gamma = folder.file("gamma.png")
        #expect(try FrostRun.run(["compose", motion, "-o", gamma, "--scale", "0.25", "--scroll=-80"]).status == 0)
        #expect(try Image(contentsOfFile: gamma).pixels != composed.pixels, "--linear changed nothing")
    }
}
