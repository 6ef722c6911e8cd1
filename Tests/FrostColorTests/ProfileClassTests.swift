import Foundation
@testable import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// The classes of file issue 69 found converted wrong, each through the command line against lcms2
/// as Pillow's ImageCms calls it (Tests/References/colour.py, $FROST_REFERENCE_PYTHON): profiles
/// whose LUTs disagree with their matrix, gray JPEGs under a Gray profile, the rendering intent of a
/// CMYK JPEG, profiles that cannot describe the pixels, animations whose first frame is opaque, and
/// PNG's cICP. Fixtures: Tests/Fixtures/colour (README.md), and files the reference script writes.
@Suite(.enabled(if: ColorConversionTests.python != nil, "set FROST_REFERENCE_PYTHON (make check does)"))
struct ProfileClassTests {
    static let fixtures = Corpus.repository + "/Tests/Fixtures/colour/"
    static let script = Corpus.repository + "/Tests/References/colour.py"

    /// Runs the reference script; it must succeed.
    static func reference(_ arguments: [String]) throws {
        let run = try FrostRun.run([script] + arguments, executable: ColorConversionTests.python!)
        #expect(run.status == 0, "colour.py \(arguments): \(run.stderr)")
    }

    /// `frost` with `arguments`; it must succeed.
    @discardableResult
    static func frost(_ arguments: [String]) throws -> FrostRun {
        let run = try FrostRun.run(arguments)
        #expect(run.status == 0, "frost \(arguments): \(run.stderr)")
        return run
    }

    /// A 96×64 picture as a PNG: a photo's crop (the rocket) in the top half, saturated gradients
    /// (red across, green down, blue against red) below, where wide-gamut readings differ most.
    static func photo(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("photo.png")
        var image = try Image(contentsOfFile: Corpus.path("photos/rocket.jpg")).cropped(to: PixelBounds(x: 200, y: 300, width: 96, height: 64))
        image.iccProfile = nil
        for y in 32..<64 {
            for x in 0..<96 {
                let rgb = [UInt8(x * 255 / 95), UInt8((y - 32) * 255 / 31), UInt8((95 - x) * 255 / 95)]
                for c in 0..<3 { image.pixels[(y * 96 + x) * 4 + c] = rgb[c] }
            }
        }
        try image.write(toFile: path)
        return path
    }

    /// 1. A profile whose LUTs disagree with its matrix/TRC tags converts through the LUT lcms2
    /// reads for the intent, on every path a conversion takes: `--colorspace srgb` (either intent),
    /// `--strip`, `p3`, and GIF (which holds no profile).
    @Test(arguments: ["matrix-and-a2b0.icc", "matrix-and-a2b1.icc", "matrix-and-luts-v4.icc", "matrix-and-d2b0.icc"])
    func lutProfilesConvertAsLcms2Does(_ name: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let profile = Self.fixtures + "profiles/" + name, jpeg = folder.file("in.jpg")
        try Self.reference(["--embed", try Self.photo(in: folder), profile, jpeg])
        let p3 = folder.file("p3.icc")
        try FileIO.writeAtomically(try #require(ColorProfile.builtIn(.displayP3)), to: p3)
        let cases: [(arguments: [String], intent: Int, target: String?)] = [
            (["--colorspace", "srgb"], 1, nil), (["--intent", "perceptual"], 0, nil), (["--strip"], 1, nil),
            (["--colorspace", "p3"], 1, p3),
        ]
        for (k, c) in cases.enumerated() {
            let out = folder.file("out\(k).png"), ref = folder.file("ref\(k).png")
            try Self.frost(["convert", jpeg, out] + c.arguments)
            try Self.reference([jpeg, profile, ref, "\(c.intent)"] + (c.target.map { [$0] } ?? []))
            let difference = PixelDifference(try Image(contentsOfFile: out), try Image(contentsOfFile: ref), channels: 3)
            #expect(difference.max <= 2, "\(name) \(c.arguments): \(difference)")
        }
        // The LUT says Display P3: read through the matrix (sRGB, untouched), it is far from lcms2
        // (for D2B0, perceptual's; for the others, relative's).
        let lutIntent = name == "matrix-and-d2b0.icc" ? "0" : "1"
        try Self.reference([jpeg, profile, folder.file("lut.png"), lutIntent])
        var asStored = try Image(contentsOfFile: jpeg)
        asStored.iccProfile = nil
        let lut = try Image(contentsOfFile: folder.file("lut.png"))
        #expect(PixelDifference(asStored, lut, channels: 3).mean > 4)
        // A GIF holds sRGB: its palette's colours come from the LUT's conversion.
        try Self.frost(["convert", jpeg, folder.file("out.gif")] + (lutIntent == "0" ? ["--intent", "perceptual"] : []))
        let gif = try Image(contentsOfFile: folder.file("out.gif"))
        #expect(PixelDifference(gif, lut, channels: 3).mean < 3 && PixelDifference(asStored, gif, channels: 3).mean > 3)
        // As a target (`--colorspace PROFILE.icc`), a B2A0 is the way in.
        if name == "matrix-and-luts-v4.icc" {
            try Self.frost(["convert", try Self.photo(in: folder), folder.file("to.png"), "--colorspace", profile])
            try Self.reference([try Self.photo(in: folder), "/usr/share/color/icc/colord/sRGB.icc", folder.file("to-ref.png"), "1", profile])
            let difference = PixelDifference(try Image(contentsOfFile: folder.file("to.png")), try Image(contentsOfFile: folder.file("to-ref.png")), channels: 3)
            #expect(difference.max <= 2, "into \(name): \(difference)")
        }
    }

    /// 2. A gray JPEG under a Gray profile (sharp's concert.jpg, "Gray Gamma 2.2") is converted to
    /// sRGB on reading, as a gray PNG under the same profile is: `--colorspace srgb`, `p3` and
    /// `--strip` work, and no output of any format carries the Gray profile on its pixels.
    @Test func grayJPEGsUnderAGrayProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let jpeg = Self.fixtures + "concert.jpg"
        let gray = try #require(ImageInfo(contentsOfFile: jpeg).iccProfile)
        #expect(try ColorProfile(gray).colorSpace == "GRAY")
        let profile = folder.file("gray.icc"), p3 = folder.file("p3.icc")
        try FileIO.writeAtomically(gray, to: profile)
        try FileIO.writeAtomically(try #require(ColorProfile.builtIn(.displayP3)), to: p3)
        try Self.reference([jpeg, profile, folder.file("ref.png"), "1"])
        try Self.reference([jpeg, profile, folder.file("ref-p3.png"), "1", p3])
        let reference = try Image(contentsOfFile: folder.file("ref.png"))
        // Every way of asking for sRGB, streamed (a file) and whole (standard input) alike.
        for options in [["--colorspace", "srgb"], ["--strip"], [], ["--width", "200"]] {
            let verb = options.first == "--width" ? "resize" : "convert", out = folder.file("out.png")
            try Self.frost([verb, jpeg, out] + options)
            let image = try Image(contentsOfFile: out)
            // (A streamed conversion step, which --strip asks for too, writes RGB as it always has.)
            let converts = options.first == "--colorspace" || options == ["--strip"]
            #expect(image.iccProfile == nil && image.isVisuallyGray && (image.isGray || converts), "\(verb) \(options)")
            if verb == "convert" { #expect(PixelDifference(image, reference, channels: 3).max <= 1, "\(options)") }
            let piped = try FrostRun.run([verb, "-", "--format", "png", "-"] + options, stdin: try Data(contentsOf: URL(fileURLWithPath: jpeg)))
            #expect(try Image(decoding: piped.stdoutBytes).pixels == image.pixels, "whole and streamed: \(verb) \(options)")
        }
        try Self.frost(["convert", jpeg, folder.file("p3.png"), "--colorspace", "p3"])
        let inP3 = try Image(contentsOfFile: folder.file("p3.png"))
        #expect(inP3.iccProfile == ColorProfile.builtIn(.displayP3))
        #expect(PixelDifference(inP3, try Image(contentsOfFile: folder.file("ref-p3.png")), channels: 3).max <= 1)
        // Every format: never the Gray profile; a GIF's grays are the converted ones.
        for format in ["jpg", "webp", "avif", "heic", "gif", "png"] {
            let out = folder.file("keep.\(format)")
            try Self.frost(["convert", jpeg, out])
            let info = try ImageInfo(contentsOfFile: out)
            #expect(!info.hasICCProfile, "\(format) carries \(info.iccProfile.flatMap { try? ColorProfile($0).description } ?? "a profile")")
            if format == "gif" || format == "png" {
                #expect(PixelDifference(try Image(contentsOfFile: out), reference, channels: 3).max <= 1, "\(format)")
            }
        }
        // The same samples as a gray PNG under the same profile read the same.
        let decoded = try Image(contentsOfFile: jpeg)
        let device = try FileIO.read(jpeg).withUnsafeBufferPointer { try JPEGDecoder.decode($0, options: DecodeOptions()) }
        #expect(device.iccProfile == gray && device.isGray)
        try device.write(toFile: folder.file("gray.png"))
        #expect(try ImageInfo(contentsOfFile: folder.file("gray.png")).iccProfile == gray)
        #expect(try Image(contentsOfFile: folder.file("gray.png")).pixels == decoded.pixels)
    }

    /// 3. `--intent` reaches a CMYK JPEG's conversion (its own profile, and the default one):
    /// perceptual and relative differ as lcms2 makes them differ.
    @Test func theIntentReachesCMYKJPEGs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tagged = folder.file("c.jpg"), profile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
        try Self.reference(["--make-cmyk", tagged, profile])
        let fallback = folder.file("default.icc")
        try FileIO.writeAtomically(ColorProfile.defaultCMYK, to: fallback)
        for (file, profile) in [(tagged, profile), (Corpus.path("pillow/jpeg/pil_sample_cmyk.jpg"), fallback)] {
            var results: [Image] = [], references: [Image] = []
            for (intent, name) in [(0, "perceptual"), (1, "relative")] {
                let out = folder.file("\(name).png"), ref = folder.file("ref-\(name).png")
                try Self.frost(["convert", file, out, "--intent", name])
                try Self.reference(["--cmyk", file, profile, ref, "\(intent)"])
                results.append(try Image(contentsOfFile: out))
                references.append(try Image(contentsOfFile: ref))
            }
            // Relative colorimetric is lcms2's within a level. Perceptual compensates the black
            // point, where lcms2 versions differ: Pillow 13's wheel carries 2.19, Frost Debian 12's
            // 2.14 (whose C API gives Frost's bytes exactly): up to 7 levels on Pillow's sample under
            // the FOGRA39 profile. Frost's perceptual is still Pillow's perceptual, not its relative.
            #expect(PixelDifference(results[1], references[1], channels: 3).max <= 1, "\(file) relative")
            let perceptual = PixelDifference(results[0], references[0], channels: 3)
            #expect(perceptual.max <= 8 && perceptual.mean < PixelDifference(results[0], references[1], channels: 3).mean / 2,
                    "\(file) perceptual: \(perceptual)")
            #expect(PixelDifference(results[0], results[1], channels: 3).max > 5, "\(file): perceptual is not relative")
            // A resize reads it the same way (the decode takes the intent, not the last step).
            try Self.frost(["resize", file, folder.file("small.png"), "--width", "24", "--intent", "perceptual"])
        }
    }

    /// 4. A profile that cannot describe the pixels (CMYK, Lab or Gray on RGB pixels), or that lcms2
    /// cannot read or convert from (Little CMS's bad_mpe.icc, bad.icc, toosmall.icc; sharp's
    /// invalid-illuminant.icc), is ignored with one warning: the pixels are read as sRGB (byte for
    /// byte the untagged file's result) and no output carries it; `info` says why.
    @Test(arguments: ["/usr/share/color/icc/ghostscript/default_cmyk.icc", "/usr/share/color/icc/ghostscript/lab.icc",
                      "/usr/share/color/icc/Gray.icc", fixtures + "third-party/lcms-bad_mpe.icc", fixtures + "third-party/lcms-bad.icc",
                      fixtures + "third-party/lcms-toosmall.icc", fixtures + "third-party/sharp-invalid-illuminant.icc"])
    func foreignAndBrokenProfilesAreIgnored(_ profile: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = try Self.photo(in: folder)
        for format in ["jpg", "webp", "png"] {
            let input = folder.file("in.\(format)")
            try Self.reference(["--embed", photo, profile, input])
            #expect(try Self.frost(["info", input]).stdout.contains("icc=yes (ignored: "))
            #expect(try Self.frost(["info", "--json", input]).stdout.contains(#""icc_ignored": ""#))
            // Every format that holds a profile (AVIF and HEIC encodes are the slow ones: for the CMYK
            // profile alone), from the JPEG; PNG from the others.
            let outputs = format != "jpg" ? ["out.png"] : profile.hasSuffix("default_cmyk.icc")
                ? ["out.jpg", "out.webp", "out.png", "out.avif", "out.heic"] : ["out.jpg", "out.webp", "out.png"]
            for output in outputs {
                let run = try Self.frost(["convert", input, folder.file(output)])
                #expect(run.errorLines.count == 1 && run.errorLines[0].hasPrefix("frost: \(input): warning: its ICC profile is ignored ("),
                        "\(format) → \(output): \(run.stderr)")
                #expect(try !ImageInfo(contentsOfFile: folder.file(output)).hasICCProfile, "\(format) → \(output)")
            }
            let resized = try Self.frost(["resize", input, folder.file("small.jpg"), "--width", "40"])
            #expect(resized.errorLines.count == 1)
            #expect(try !ImageInfo(contentsOfFile: folder.file("small.jpg")).hasICCProfile)
            #expect(try Self.frost(["convert", input, folder.file("srgb.png"), "--colorspace", "srgb"]).errorLines.count == 1)
            #expect(try Image(contentsOfFile: folder.file("srgb.png")).pixels == Image(contentsOfFile: folder.file("out.png")).pixels)
        }
        // The JPEG's pixels are the untagged file's: the same bytes written.
        try Self.reference(["--embed", photo, "-", folder.file("plain.jpg")])
        try Self.frost(["convert", folder.file("in.jpg"), folder.file("a.jpg")])
        try Self.frost(["convert", folder.file("plain.jpg"), folder.file("b.jpg")])
        #expect(try FileIO.read(folder.file("a.jpg")) == FileIO.read(folder.file("b.jpg")))
    }

    /// 5. Alpha is decided over all of an animation's frames, whatever the first: APNG, WebP and
    /// GIF inputs whose first frame is opaque keep their transparency in every format that holds
    /// an animation; and Pillow's mode_16bit.png (its default image not a frame; frame 2 blue at
    /// alpha 0.5 blended over opaque black) is composed as the APNG specification and browsers
    /// compose it (Chromium's ImageDecoder: frame 2 is (0, 0, 128, 255) at (64, 32), opaque;
    /// Pillow's (0, 0, 128, 191) blends alpha as a colour), its frames chosen by --frame.
    @Test func animationsDecideAlphaOverAllFrames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let opaque = Image(width: 16, height: 12, filledWith: (200, 30, 30, 255))
        var translucent = Image(width: 16, height: 12, filledWith: (20, 40, 220, 255))
        for y in 0..<6 { for x in 0..<16 { translucent.pixels[(y * 16 + x) * 4 + 3] = 0 } }   // the top half clear
        translucent.hasAlpha = true
        for format in [ImageFormat.png, .webp, .gif] {
            let input = folder.file("in.\(format.rawValue)")
            let file = try AtomicFile(input)
            try Animation(frames: [opaque, translucent, opaque], delay: 0.1).write(into: file, as: format, options: EncodeOptions())
            for output in ["png", "webp", "gif"] {
                let out = folder.file("out.\(output)")
                try Self.frost(["convert", input, out])
                let frames = try Animation(decoding: try FileIO.read(out)).frames
                #expect(frames.count == 3 && !frames[0].containsTransparency, "\(format) → \(output)")
                #expect(frames[1].pixel(x: 3, y: 2)[3] == 0 && frames[1].pixel(x: 3, y: 9)[3] == 255, "\(format) → \(output)")
            }
        }
        let apng = Self.fixtures + "mode_16bit.png"
        try Self.frost(["convert", apng, folder.file("f%d.png")])
        for (k, colour) in [(0, SIMD4<UInt8>(0, 0, 0, 255)), (1, SIMD4<UInt8>(0, 0, 128, 255))] {
            #expect(try Image(contentsOfFile: folder.file("f\(k).png")).pixel(x: 64, y: 32) == colour, "frame \(k)")
            try Self.frost(["convert", apng, folder.file("one.png"), "--frame", "\(k)"])
            #expect(try Image(contentsOfFile: folder.file("one.png")).pixel(x: 64, y: 32) == colour, "--frame \(k)")
        }
        try Self.frost(["convert", apng, folder.file("still.jpg")])
        #expect(try Image(contentsOfFile: folder.file("still.jpg")).pixel(x: 64, y: 32)[0] < 8, "the first frame, not the default image")
    }

    /// PNG's cICP (libavif's kodim03_grayscale_cicp.png: BT.709 primaries, gamma 2.2, over a gAMA
    /// of 1/1.6 it overrides) says the colours: each gray sample v is sRGB((v/255)^2.2).
    @Test func pngCICPSaysTheColours() throws {
        let bytes = try FileIO.read(Self.fixtures + "kodim03_grayscale_cicp.png")
        let info = try ImageInfo(bytes: bytes)
        #expect(info.cicp == CICP(primaries: 1, transfer: 4, matrix: 0))
        #expect(try ColorProfile(try #require(info.iccProfile)).description == "Gray, CICP 1/4")
        let device = try bytes.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: DecodeOptions()) }
        let image = try Image(decoding: bytes)
        #expect(image.iccProfile == nil && image.isGray)
        var worst = 0.0
        for p in stride(from: 0, to: image.pixels.count, by: 4) {
            let light = pow(Double(device.pixels[p]) / 255, 2.2)
            let expected = 255 * (light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055)
            worst = max(worst, abs(Double(image.pixels[p]) - expected))
        }
        #expect(worst <= 1, "\(worst)")
        // A cICP with a bad CRC is dropped, as libpng drops a damaged ancillary chunk: the gAMA then.
        var damaged = bytes
        let at = try #require((8..<damaged.count - 4).first { damaged[$0..<$0 + 4].elementsEqual("cICP".utf8) })
        damaged[at + 8] ^= 0xFF
        #expect(try ImageInfo(bytes: damaged).cicp == nil && ColorProfile(try #require(ImageInfo(bytes: damaged).iccProfile)).description == "PNG gAMA/cHRM")
    }
}
