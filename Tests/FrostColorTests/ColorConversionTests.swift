import Foundation
@testable import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Profiles read and pixels converted by lcms2, held to lcms2 as its users call it (Pillow's
/// ImageCms, Tests/References/colour.py, in the venv `make check` makes: $FROST_REFERENCE_PYTHON),
/// on real profiles from Debian's colord-data, icc-profiles-free and libgs-common.
@Suite struct ColorConversionTests {
    static let python = ProcessInfo.processInfo.environment["FROST_REFERENCE_PYTHON"]
    static let colord = "/usr/share/color/icc/colord/"
    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    static func profile(_ path: String) throws -> [UInt8] { try FileIO.read(path) }

    @Test func profilesSayWhatTheyAre() throws {
        let adobe = try ColorProfile(try Self.profile(Self.colord + "AdobeRGB1998.icc"))
        #expect(adobe.description.contains("Adobe RGB") && adobe.colorSpace == "RGB" && !adobe.isSRGB, "\(adobe.description)")
        #expect(try ColorProfile(try Self.profile(Self.colord + "sRGB.icc")).isSRGB)
        #expect(try ColorProfile(try Self.profile("/usr/share/color/icc/Gray.icc")).colorSpace == "GRAY")
        #expect(try ColorProfile(try Self.profile(Self.cmykProfile)).colorSpace == "CMYK")
        #expect(try ColorProfile(try #require(ColorProfile.builtIn(.displayP3))).description == "Display P3")
        #expect(ColorProfile.colorSpace(of: try Self.profile(Self.cmykProfile)) == "CMYK")
        #expect(throws: ColorError.self) { try ColorProfile(Array(repeating: 7, count: 200)) }
    }

    /// RGB profiles to sRGB, every intent lcms2 tables: within one level of lcms2 through Pillow.
    @Test(.enabled(if: python != nil, "set FROST_REFERENCE_PYTHON (make check does)"),
          arguments: ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "Rec709.icc"], [RenderingIntent.perceptual, .relative])
    func rgbProfilesConvertAsLcms2Does(_ name: String, _ intent: RenderingIntent) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var image = noiseImage(width: 61, height: 37, seed: 11, opaque: true)
        try image.write(toFile: folder.file("in.png"))
        image.iccProfile = try Self.profile(Self.colord + name)
        let converted = try image.converted(to: .sRGB, intent: intent, threads: 2)
        #expect(converted.iccProfile == nil)
        let run = try FrostRun.run([Corpus.repository + "/Tests/References/colour.py", folder.file("in.png"), Self.colord + name,
                                    folder.file("ref.png"), "\(intent.rawValue)"], executable: Self.python!)
        #expect(run.status == 0, "\(run.stderr)")
        let reference = try Image(contentsOfFile: folder.file("ref.png"))
        let difference = PixelDifference(converted, reference, channels: 3)
        #expect(difference.max <= 1, "\(name) \(intent): \(difference)")
    }

    /// The matrix/TRC fast path: within one level of lcms2's own transform on every gray level and
    /// on noise, for the common RGB profiles both ways, and its vector kernel (release builds) equal
    /// to its scalar reference byte for byte.
    @Test(arguments: ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "Rec709.icc", "sRGB.icc"])
    func fastPathAgreesWithLcms2(_ name: String) throws {
        var image = noiseImage(width: 257, height: 64, seed: 21, opaque: false)
        for v in 0..<256 { for c in 0..<3 { image.pixels[4 * v + c] = UInt8(v) } }   // a gray ramp in the first row
        image.iccProfile = try Self.profile(Self.colord + name)
        for target in [ColorTarget.sRGB, .displayP3] {
            for intent in [RenderingIntent.relative, .perceptual] {
                let fast = try image.converted(to: target, intent: intent, threads: 2, engine: .automatic)
                let scalar = try image.converted(to: target, intent: intent, threads: 2, engine: .fastScalar)
                let reference = try image.converted(to: target, intent: intent, threads: 2, engine: .lcms2)
                #expect(fast.pixels == scalar.pixels, "\(name) → \(target): the vector kernel and its reference")
                let difference = PixelDifference(fast, reference, channels: 4)
                #expect(difference.max <= 1, "\(name) → \(target) \(intent): \(difference)")
            }
        }
    }

    /// A CMYK JPEG with a CMYK profile decodes through it (Adobe's inverted samples), as lcms2 does.
    @Test(.enabled(if: python != nil, "set FROST_REFERENCE_PYTHON (make check does)"))
    func cmykJPEGsConvertThroughTheirProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = Corpus.repository + "/Tests/References/colour.py"
        #expect(try FrostRun.run([script, "--make-cmyk", folder.file("c.jpg"), Self.cmykProfile], executable: Self.python!).status == 0)
        #expect(try FrostRun.run([script, "--cmyk", folder.file("c.jpg"), Self.cmykProfile, folder.file("ref.png")], executable: Self.python!).status == 0)
        let decoded = try Image(contentsOfFile: folder.file("c.jpg"))
        #expect(decoded.iccProfile == nil, "a CMYK profile never lands on RGB pixels")
        let difference = PixelDifference(decoded, try Image(contentsOfFile: folder.file("ref.png")), channels: 3)
        #expect(difference.max <= 1, "\(difference)")
        // Written again: an RGB JPEG without the CMYK profile, streamed or not.
        let out = folder.file("rgb.jpg")
        #expect(try FrostRun.run(["convert", folder.file("c.jpg"), out]).status == 0)
        let info = try ImageInfo(contentsOfFile: out)
        #expect(info.colorModel == "ycbcr" && !info.hasICCProfile)
    }

    /// A CMYK JPEG without a profile (CMYK and YCCK, Adobe's inverted samples) is read under the
    /// default CMYK profile, as lcms2 converts it through that profile; `info` calls it implied.
    @Test(.enabled(if: python != nil, "set FROST_REFERENCE_PYTHON (make check does)"))
    func profileLessCMYKIsReadUnderTheDefaultProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let script = Corpus.repository + "/Tests/References/colour.py"
        let profile = folder.file("default.icc")
        try Data(ColorProfile.defaultCMYK).write(to: URL(fileURLWithPath: profile))
        #expect(try ColorProfile(ColorProfile.defaultCMYK).colorSpace == "CMYK")
        for file in ["pillow/jpeg/pil_sample_cmyk.jpg", "jpeg-decoder/reftest/mozilla/jpg-cmyk-1.jpg", "jpeg-decoder/reftest/mozilla/jpg-cmyk-2.jpg"] {
            #expect(try FrostRun.run([script, "--cmyk", Corpus.path(file), profile, folder.file("ref.png")], executable: Self.python!).status == 0)
            let decoded = try Image(contentsOfFile: Corpus.path(file))
            #expect(decoded.iccProfile == nil)
            let difference = PixelDifference(decoded, try Image(contentsOfFile: folder.file("ref.png")), channels: 3)
            #expect(difference.max <= 1, "\(file): \(difference)")
            let info = try FrostRun.run(["info", Corpus.path(file)])
            #expect(info.stdout.contains("implied (\"Frost default CMYK (FOGRA39, coated offset)\", CMYK)"), "\(info.stdout)")
        }
    }

    /// Untagged and sRGB-tagged pictures are left as they are, byte for byte; a tag is all that
    /// changes for an untagged picture asked into P3 (its pixels converted).
    @Test func untaggedAndSRGBPixelsAreUntouched() throws {
        let image = noiseImage(width: 33, height: 21, seed: 3, opaque: false)
        #expect(identical(image.inSRGB(), image) && image.inSRGB().iccProfile == nil)
        var tagged = image
        tagged.iccProfile = try Self.profile(Self.colord + "sRGB.icc")
        #expect(tagged.inSRGB().pixels == image.pixels && tagged.inSRGB().iccProfile == tagged.iccProfile)
        #expect(try image.converted(to: .sRGB).pixels == image.pixels)
        let p3 = try image.converted(to: .displayP3)
        #expect(p3.iccProfile == ColorProfile.builtIn(.displayP3) && p3.pixels != image.pixels)
        // Alpha survives a conversion.
        #expect(stride(from: 3, to: p3.pixels.count, by: 4).allSatisfy { p3.pixels[$0] == image.pixels[$0] })
    }

    /// Display P3 and back: the sRGB of a P3 conversion is the direct one, within 2 levels, for
    /// colours inside both gamuts.
    @Test func p3RoundTrips() throws {
        var image = noiseImage(width: 40, height: 30, seed: 8, opaque: true)
        image.pixels = image.pixels.enumerated().map { $0.offset % 4 == 3 ? 255 : 64 + $0.element / 2 }
        let p3 = try image.converted(to: .displayP3)
        let back = try p3.converted(to: .sRGB)
        #expect(PixelDifference(back, image, channels: 3).max <= 2)
    }

    /// An AVIF whose colours only CICP says (Display P3, 12/13/6): read as P3 pixels under the
    /// profile those code points make, and converted to sRGB as lcms2 converts them; PQ refused.
    @Test(.enabled(if: python != nil, "set FROST_REFERENCE_PYTHON (make check does)"))
    func cicpSaysTheColours() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fixtures = Corpus.repository + "/Tests/Fixtures/heif/"
        let info = try ImageInfo(contentsOfFile: fixtures + "p3-cicp.avif")
        #expect(info.cicp == CICP(primaries: 12, transfer: 13, matrix: 6) && info.iccProfile == nil)
        let p3 = try Image(contentsOfFile: fixtures + "p3-cicp.avif")
        let profile = try ColorProfile(try #require(p3.iccProfile))
        #expect(profile.description == "Display P3, CICP 12/13" && !profile.isSRGB)
        let source = try Image(contentsOfFile: fixtures + "cicp-source.png")
        #expect(PixelDifference(p3, source, channels: 3).mean < 2, "the stored values are the source's")
        var stored = p3
        stored.iccProfile = nil
        try stored.write(toFile: folder.file("p3.png"))
        try FileIO.writeAtomically(profile.bytes, to: folder.file("p3.icc"))
        let run = try FrostRun.run([Corpus.repository + "/Tests/References/colour.py", folder.file("p3.png"), folder.file("p3.icc"),
                                    folder.file("ref.png"), "1"], executable: Self.python!)
        #expect(run.status == 0, "\(run.stderr)")
        let srgb = try p3.converted(to: .sRGB)
        #expect(PixelDifference(srgb, try Image(contentsOfFile: folder.file("ref.png")), channels: 3).max <= 1)
        #expect(PixelDifference(srgb, p3, channels: 3).max > 3, "P3 values are not sRGB values")
        #expect(throws: CodecError.self) { try Image(contentsOfFile: fixtures + "pq-10bit.avif") }
        #expect(try ImageInfo(contentsOfFile: fixtures + "pq-10bit.avif").cicp?.isHDR == true)
        // An AVIF written from a tagged picture says its colours once: the ICC, the CICP unspecified.
        var tagged = source
        tagged.iccProfile = try Self.profile(Self.colord + "AdobeRGB1998.icc")
        let avif = try ImageInfo(bytes: tagged.encoded(as: .avif))
        #expect(avif.iccProfile == tagged.iccProfile && avif.cicp?.primaries == 2 && avif.cicp?.transfer == 2)
        #expect(try ImageInfo(bytes: source.encoded(as: .avif)).cicp == CICP(primaries: 1, transfer: 13, matrix: 6))
        // A CICP-only picture written to AVIF or HEIC keeps its CICP, and no ICC profile beside it;
        // PNG (no cICP here) carries the equivalent profile.
        for format in [ImageFormat.avif, .heic] {
            let written = try p3.encoded(as: format)
            let info = try ImageInfo(bytes: written)
            #expect(info.cicp == CICP(primaries: 12, transfer: 13, matrix: 6) && info.iccProfile == nil, "\(format)")
            let back = try Image(decoding: written)
            #expect(back.iccProfile == p3.iccProfile, "\(format): read as the same P3")
            #expect(PixelDifference(back, p3, channels: 3).mean < 3, "\(format)")
        }
        #expect(ColorProfile.cicp(madeFor: try #require(p3.iccProfile)).map { [$0.primaries, $0.transfer] } == [12, 13])
        #expect(ColorProfile.cicp(madeFor: try #require(ColorProfile.builtIn(.displayP3))) == nil, "--colorspace p3 writes its ICC")
        #expect(try ImageInfo(bytes: p3.encoded(as: .png)).iccProfile == p3.iccProfile)
    }

    /// Colour said without a profile: EXIF's Adobe RGB (uncalibrated + R03) on a JPEG, PNG's gAMA
    /// and cHRM; an sRGB chunk, or gamma 1/2.2 alone, says sRGB (no profile).
    @Test func coloursSaidWithoutAProfile() throws {
        // Big-endian TIFF: IFD0 (Exif pointer) at 8, the Exif IFD (ColorSpace 0xFFFF, Interop
        // pointer) at 26, the Interop IFD (index "R03") at 56.
        func be(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * (n - 1 - $0))) } }
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42] + be(8, 4)
            + be(1, 2) + be(0x8769, 2) + be(4, 2) + be(1, 4) + be(26, 4) + be(0, 4)
            + be(2, 2) + be(0xA001, 2) + be(3, 2) + be(1, 4) + be(0xFFFF, 2) + [0, 0] + be(0xA005, 2) + be(4, 2) + be(1, 4) + be(56, 4) + be(0, 4)
            + be(1, 2) + be(0x0001, 2) + be(2, 2) + be(4, 4) + Array("R03\0".utf8) + be(0, 4)
        var options = EncodeOptions()
        options.metadata = ImageMetadata(exif: tiff)
        let jpeg = try noiseImage(width: 16, height: 16, opaque: true).encoded(as: .jpeg, options: options)
        #expect(try Image(decoding: jpeg).iccProfile == ColorProfile.adobeRGB && ColorProfile.adobeRGB != nil)
        #expect(try ImageInfo(bytes: jpeg).iccProfile == ColorProfile.adobeRGB)
        var srgbTIFF = tiff
        srgbTIFF[srgbTIFF.count - 8] = UInt8(ascii: "9")   // "R98": sRGB
        options.metadata = ImageMetadata(exif: srgbTIFF)
        #expect(try Image(decoding: try noiseImage(width: 16, height: 16, opaque: true).encoded(as: .jpeg, options: options)).iccProfile == nil)

        let pngsuite = Corpus.path("pngsuite/")
        let linear = try ColorProfile(try #require(Image(contentsOfFile: pngsuite + "basn2c08.png").iccProfile))   // gAMA 1.0
        #expect(linear.description == "PNG gAMA/cHRM" && !linear.isSRGB)
        #expect(try Image(contentsOfFile: pngsuite + "g10n2c08.png").iccProfile != nil)
        let grayGamma = try #require(ImageInfo(contentsOfFile: pngsuite + "g03n0g16.png").iccProfile)
        #expect(try ColorProfile(grayGamma).description == "PNG gAMA/cHRM")
        #expect(ColorProfile.colorSpace(of: grayGamma) == "GRAY")
    }

    /// A gray PNG's gAMA is read as a Gray profile and converted to sRGB on decode, as browsers
    /// show it: each sample v within a level of sRGB((v/255)^(1/gAMA)) (PngSuite's gamma files,
    /// their gAMA in their names; 0.45 is near enough 1/2.2 to count as sRGB… but not within 0.02).
    @Test(arguments: [("g03n0g16.png", 0.35), ("g04n0g16.png", 0.45), ("g05n0g16.png", 0.55), ("g07n0g16.png", 0.70),
                      ("g10n0g16.png", 1.0), ("g25n0g16.png", 2.5), ("basn0g08.png", 1.0), ("basn4a08.png", 1.0)])
    func grayGammaIsConvertedToSRGB(file: String, gAMA: Double) throws {
        let bytes = try FileIO.read(Corpus.path("pngsuite/" + file))
        let device = try bytes.withUnsafeBufferPointer { try PNGDecoder.decode($0, options: DecodeOptions()) }
        let image = try Image(decoding: bytes)
        #expect(image.iccProfile == nil && image.isGray)
        var worst = 0.0
        for p in stride(from: 0, to: image.pixels.count, by: 4) {
            let light = pow(Double(device.pixels[p]) / 255, 1 / gAMA)
            let expected = 255 * (light <= 0.0031308 ? 12.92 * light : 1.055 * pow(light, 1 / 2.4) - 0.055)
            for c in 0..<3 { worst = max(worst, abs(Double(image.pixels[p + c]) - expected)) }
            #expect(image.pixels[p + 3] == device.pixels[p + 3])
        }
        #expect(worst <= 1, "\(file): \(worst)")
    }

    /// A gray picture under a Gray profile is converted to sRGB on decode; its tag is gone.
    @Test func grayProfilesNeverReachRGBOutputs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var gray = Image(width: 16, height: 4, filledWith: (0, 0, 0, 255))
        gray.pixels = (0..<64).flatMap { k -> [UInt8] in let v = UInt8(k * 4); return [v, v, v, 255] }
        gray.isGray = true
        gray.iccProfile = try Self.profile("/usr/share/color/icc/Gray.icc")
        try gray.write(toFile: folder.file("g.png"))
        #expect(try ImageInfo(contentsOfFile: folder.file("g.png")).hasICCProfile)
        let decoded = try Image(contentsOfFile: folder.file("g.png"))
        #expect(decoded.iccProfile == nil)
        let direct = try Image.fromDeviceSpaceForTests(gray)
        #expect(decoded.pixels == direct.pixels)
    }
}

extension Image {
    /// The Gray conversion the decoder makes, called directly.
    static func fromDeviceSpaceForTests(_ image: Image) throws -> Image {
        try Image.fromDeviceSpace(image, profile: image.iccProfile!)
    }
}
