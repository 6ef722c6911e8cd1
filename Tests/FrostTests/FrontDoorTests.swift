import Foundation
import Frost
import FrostTestSupport
import Testing

/// `import Frost` alone: images from and to Data and URLs, each format's settings, errors that
/// read as the tool's, animations in memory.
@Suite struct FrontDoorTests {
    static let rocket = URL(fileURLWithPath: Corpus.repository + "/SampleImages/rocket.jpg")

    /// A small photo with alpha: the coffee cut-out shrunk.
    static func cutout() throws -> Image {
        try Image(contentsOf: URL(fileURLWithPath: Corpus.repository + "/SampleImages/coffee-cutout.png"))
            .resized(width: 96, height: nil, fit: .contain)
    }

    @Test func dataAndFilesRoundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let image = try Self.cutout()
        #expect(try Image(data: image.encoded(.png())) == image)
        #expect(try Image(data: image.encoded(.webp())) == image)
        // The extension picks the format; the file is written whole or not at all.
        for name in ["a.png", "a.jpg", "a.webp"] {
            let url = URL(fileURLWithPath: folder.file(name))
            try image.write(to: url)
            #expect(try ImageInfo(contentsOf: url).format == ImageFormat(pathExtension: name))
        }
        #expect(try Image(contentsOf: URL(fileURLWithPath: folder.file("a.png"))) == image)
        #expect(folder.contents() == ["a.jpg", "a.png", "a.webp"])
    }

    @Test func eachFormatsSettingsReachItsEncoder() throws {
        let photo = try Image(contentsOf: Self.rocket).resized(width: 256, height: nil, fit: .contain)
        let full = try photo.encoded(.jpeg(JPEGSettings(quality: 80, subsampling: .yuv444)))
        let half = try photo.encoded(.jpeg(JPEGSettings(quality: 80, subsampling: .yuv420)))
        let automatic = try photo.encoded(.jpeg(JPEGSettings(quality: 80)))
        #expect(half == automatic && full != half && full.count > half.count)
        #expect(Self.lumaSamplingFactor(full) == 0x11 && Self.lumaSamplingFactor(half) == 0x22)
        // Every PNG level and filter reads back exactly; the filters make different files.
        var sizes: Set<Int> = []
        for filter in PNGFilter.allCases {
            let png = try photo.encoded(.png(PNGSettings(level: 6, filter: filter)))
            #expect(try Image(data: png) == photo)
            sizes.insert(png.count)
        }
        #expect(sizes.count > 3)
        #expect(try photo.encoded(.png()) == Data(photo.encoded(as: .png)))
        let lossy = try photo.encoded(.webp(.lossy(quality: 50))), lossless = try photo.encoded(.webp(.lossless(effort: 4)))
        #expect(try Image(data: lossless) == photo && Image(data: lossy) != photo && lossy.count < lossless.count)
    }

    /// The first component's sampling factors in a baseline JPEG's SOF0 (0x11: 4:4:4, 0x22: 4:2:0).
    static func lumaSamplingFactor(_ jpeg: Data) -> UInt8? {
        let bytes = [UInt8](jpeg)
        guard let sof = (0..<bytes.count - 1).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else { return nil }
        return bytes[sof + 11]
    }

    /// A URL's error names the file as `frost` does: the tool's line is `frost: ` + the description.
    @Test func errorsReadAsTheToolsLines() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bad = folder.file("notes.jpg")
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: bad))
        let error = #expect(throws: CodecError.self) { try Image(contentsOf: URL(fileURLWithPath: bad)) }
        #expect(error?.kind == .unknownFormat && error?.file == bad)
        let run = try FrostRun.run(["convert", bad, folder.file("out.png")])
        #expect(run.errorLines == ["frost: \(error?.description ?? "")"])
        // Bytes in memory have no file to name; other URLs are refused.
        #expect(throws: CodecError(.unknownFormat, "not a PNG, JPEG, WebP, AVIF, HEIC or GIF file")) { try Image(data: Data("BM6\u{0}\u{0}\u{0}".utf8)) }
        #expect(throws: CodecError.self) { try Image(contentsOf: URL(string: "https://example.com/a.png")!) }
        #expect(throws: CodecError.self) { try Image(data: Data(count: 100), options: DecodeOptions(maxFileBytes: 99)) }
        #expect(folder.contents() == ["notes.jpg"])
    }

    @Test func sceneErrorsNameTheFileAndTheJSONPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let scene = folder.file("card.json")
        try Data(#"{"width": 10, "height": 10, "layers": [{"kind": "color", "colour": "red"}]}"#.utf8).write(to: URL(fileURLWithPath: scene))
        let error = #expect(throws: ComposeError.self) { try MotionRenderer(contentsOf: URL(fileURLWithPath: scene)) }
        let run = try FrostRun.run(["compose", scene, "-o", folder.file("card.png")])
        #expect(error.map { "frost: \($0.description)" }.map { run.errorLines == [$0] } == true, "\(run.stderr) vs \(String(describing: error))")
    }

    @Test func animationsInMemoryAndOnDisk() throws {
        let base = try Self.cutout()
        let frames = [base, base.gaussianBlurred(sigma: 2), base.adjusted(ColorAdjustment(brightness: 0.2))]
        let animation = Animation(frames: frames, delays: [0.1, 0.2, 0.05])
        let apng = try APNGFrames([UInt8](animation.encoded(.png())))
        #expect(apng.frames == frames.map { $0.unpremultiplied() } && apng.delays == [0.1, 0.2, 0.05])
        let webp = try AnimatedWebPFrames([UInt8](animation.encoded(.webp())))
        #expect(webp.frames == frames.map { $0.unpremultiplied() })
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try animation.write(to: URL(fileURLWithPath: folder.file("a.webp")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("a.webp"))) == animation.encoded(.webp()))
        #expect(throws: CodecError.self) { try animation.encoded(.jpeg()) }
        #expect(throws: CodecError.self) { try Animation(frames: [], delay: 1).encoded(.png()) }
        // Read back through the front door: Data and URLs, every frame, GIF written too.
        let gif = try animation.encoded(.gif(PaletteSettings(colors: 64)))
        let back = try Animation(data: gif)
        #expect(back.frames.count == 3 && back.delays == [0.1, 0.2, 0.05] && abs(back.duration - 0.35) < 1e-12)
        #expect(try Animation(contentsOf: URL(fileURLWithPath: folder.file("a.webp"))).frames.count == 3)
        #expect(throws: CodecError.self) { try Animation(contentsOf: URL(fileURLWithPath: folder.file("none.gif"))) }
    }

    /// AVIF, HEIC and GIF in and out through Data.
    @Test func newerFormatsThroughData() throws {
        let base = try Self.cutout()
        let avif = try base.encoded(.avif(AVIFSettings(quality: 100)))
        #expect(try Image(data: avif).pixels == base.unpremultiplied().pixels)
        let heif = try base.encoded(.heic(HEICSettings(quality: 100)))
        #expect(try Image(data: heif).pixels == base.unpremultiplied().pixels)
        let gif = try Image(data: try base.encoded(.gif()))
        #expect(gif.width == base.width && gif.hasAlpha)
        let heic = try Image(contentsOf: URL(fileURLWithPath: Corpus.repository + "/SampleImages/coffee.heic"))
        #expect(heic.width == 600 && heic.height == 400)
        #expect(throws: CodecError.self) { try base.encoded(.png(PNGSettings(palette: PaletteSettings(colors: 300)))) }
    }
}
