import Foundation
import Frost
import FrostTestSupport
import Testing

// The Getting Started article's recipes (Sources/Frost/Frost.docc/GettingStarted.md), exactly
// as written there: `recipesAreTheArticles` checks that every recipe of the article is in this
// file, and the tests below run them.

func blurredThumbnail(of upload: Data) throws(CodecError) -> Data {
    let photo = try Image(data: upload)
    let thumbnail = photo
        .gaussianBlurred(sigma: 8)
        .adjusted(ColorAdjustment(brightness: -0.1, saturation: 1.2))
        .resized(width: 320, height: nil, fit: .contain)
    return try thumbnail.encoded(.webp(.lossy(quality: 80)))
}

func blurredPreview(of upload: Data) async throws(CodecError) -> Data {
    let photo = try await Image(data: upload)
    let blurred = await photo.gaussianBlurred(sigma: 8)
    return try await blurred.encoded(.jpeg(JPEGSettings(quality: 85)))
}

func banner(scrolledTo offset: Double, source: URL, cacheFolder: URL) throws(CodecError) -> Data {
    let photo = try Image(contentsOf: source)
    let cache = CrossfadeCache(rendering: photo, plan: .twitter())
    let fraction = ScrollMapping.fraction(offset: offset, start: 0, end: 60)
    let frame = cache.frame(at: fraction)

    // The same levels kept on disk, and loaded back (every level file verified).
    try CrossfadeCache.build(from: source, into: cacheFolder, options: CacheOptions(preset: .twitter))
    let stored = try CrossfadeCache(contentsOf: cacheFolder)
    precondition(stored.frame(at: fraction) == frame)

    return try frame.encoded(.png())
}

func viewerFrame(scrolledTo offset: Double, motion: URL) throws -> Data {
    let renderer = try MotionRenderer(contentsOf: motion)
    let frame = try renderer.frame(at: DriverState(scroll: offset))
    return try frame.encoded(.png())
}

@Suite struct RecipeTests {
    static let samples = URL(fileURLWithPath: Corpus.repository).appendingPathComponent("SampleImages")

    /// Every Swift block of the article but the Package.swift lines is one of this file's
    /// recipes, character for character (imports aside).
    @Test func recipesAreTheArticles() throws {
        let article = try String(contentsOfFile: Corpus.repository + "/Sources/Frost/Frost.docc/GettingStarted.md", encoding: .utf8)
        let here = try String(contentsOfFile: #filePath, encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let recipes = blocks.filter { $0.contains("func ") }
        #expect(recipes.count == 4)
        for recipe in recipes {
            let code = recipe.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("import ") }
                .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(here.contains(code), "the article's recipe is not this file's:\n\(code)")
        }
    }

    @Test func thumbnailIsABlurredWebP320Wide() async throws {
        let upload = try Data(contentsOf: Self.samples.appendingPathComponent("rocket.jpg"))
        let webp = try blurredThumbnail(of: upload)
        let info = try ImageInfo(data: webp)
        let source = try ImageInfo(data: upload)
        #expect(info.format == .webp && info.width == 320 && info.height == (320 * source.height + source.width / 2) / source.width)
        // The async preview is the synchronous calls' bytes.
        let preview = try await blurredPreview(of: upload)
        #expect(preview == (try Self.serialPreview(of: upload)))
    }

    /// The preview's steps called synchronously (outside async code, where they are not async).
    static func serialPreview(of upload: Data) throws -> Data {
        try Image(data: upload).gaussianBlurred(sigma: 8).encoded(.jpeg(JPEGSettings(quality: 85)))
    }

    @Test func bannerFrameIsTheCachesFrameOnDiskAndInMemory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Self.samples.appendingPathComponent("rocket.jpg")
        let png = try banner(scrolledTo: 25, source: source, cacheFolder: URL(fileURLWithPath: folder.file("rocket.frost")))
        let frame = try Image(data: png)
        let photo = try Image(contentsOf: source)
        #expect(frame.width == photo.width && frame.height == photo.height)
        // Between level 0 (sharp) and the most blurred: neither end.
        let cache = CrossfadeCache(rendering: photo, plan: .twitter())
        #expect(frame != cache.level(0).unpremultiplied() && frame != cache.level(cache.plan.levels.count - 1).unpremultiplied())
        #expect(FileManager.default.fileExists(atPath: folder.file("rocket.frost/manifest.json")))
    }

    /// The renderer read through a URL draws what `frost compose` draws from the same file.
    @Test func viewerFrameIsWhatTheToolDraws() throws {
        let motion = Self.samples.appendingPathComponent("motion/secret-viewer.json")
        let png = try viewerFrame(scrolledTo: 120, motion: motion)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let run = try FrostRun.run(["compose", motion.path, "--scroll", "120", "-o", folder.file("tool.png")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Image(data: png) == Image(contentsOf: URL(fileURLWithPath: folder.file("tool.png"))))
    }
}
