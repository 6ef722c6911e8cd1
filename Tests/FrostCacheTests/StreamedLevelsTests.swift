@testable import FrostCache
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// A large source's cache built streamed (rows in, level files out: `StreamedLevels`) against the
/// whole-image build of the same source: level 0 and every reduced level the same pixels, a
/// full-size level (blurred from the source directly, not through the chain) within the 2 levels
/// docs/cache-format.md promises; the manifest the same but for the level files' bytes.
@Suite struct StreamedLevelsTests {
    static func build(_ source: String, _ options: CacheOptions, streamed: Bool, into folder: TemporaryFolder) throws -> CacheStore.Loaded {
        let path = folder.file(streamed ? "streamed" : "whole")
        try CacheStore.build(file: source, into: path, options: options, threads: 2, streamedPixels: streamed ? 0 : .max)
        return try CacheStore.load(path)
    }

    @Test(arguments: [("photos/rocket.jpg", "png"), ("photos/coffee.png", "png"), ("photos/rocket.jpg", "jpg")])
    func streamedLevelsAreTheWholeBuildsWithinTheFormatsTolerance(_ source: String, _ format: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(levels: 10, maxSigma: 40, format: ImageFormat(name: format)!, quality: 95)
        let whole = try Self.build(Corpus.path(source), options, streamed: false, into: folder)
        let streamed = try Self.build(Corpus.path(source), options, streamed: true, into: folder)
        #expect(streamed.manifest.source == whole.manifest.source && streamed.manifest.plan == whole.manifest.plan)
        #expect(streamed.manifest.levels.map(\.file) == whole.manifest.levels.map(\.file))
        #expect(streamed.manifest.levels.map(\.placement) == whole.manifest.levels.map(\.placement))
        for (level, (a, b)) in zip(whole.plan.levels, zip(whole.levels, streamed.levels)) {
            let a = try #require(a), b = try #require(b)
            #expect(a.width == b.width && a.height == b.height && a.iccProfile == b.iccProfile, "level \(level.index)")
            let worst = zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            // A full-size level's JPEG is encoded from pixels up to 2 apart: its quantisation may
            // round them further apart.
            let allowed = level.factor > 1 || level.index == 0 ? 0 : format == "jpg" ? 6 : 2
            #expect(worst <= allowed, "level \(level.index) (σ \(level.sigma), 1/\(level.factor)): \(worst) levels apart")
        }
    }

    /// What streams and what is built whole.
    @Test func onlyOpaqueUprightSourcesAndPlainGaussianPlansStream() throws {
        let big = CacheStore.streamedPixels
        func streams(_ source: String, _ options: CacheOptions = CacheOptions(), minimum: Int = 0) throws -> Bool {
            try StreamedLevels(file: Corpus.path(source), options: options, decode: DecodeOptions(), threads: 1, minimumPixels: minimum) != nil
        }
        #expect(try streams("photos/rocket.jpg") && streams("photos/coffee.png"))
        #expect(try !streams("photos/rocket.jpg", minimum: big))   // 640×427: the whole path
        #expect(try !streams("pngsuite/basn6a08.png"))   // alpha
        #expect(try !streams("photos/rocket.jpg", CacheOptions(format: .webp)))   // WebP levels are encoded whole
        #expect(try !streams("photos/rocket.jpg", CacheOptions(preset: .twitter)))   // ImageEffects' boxes
        #expect(try !streams("photos/rocket.jpg", CacheOptions(tint: Color(white: 1, alpha: 0.2))))
        #expect(try !streams("photos/rocket.jpg", CacheOptions(compact: false)))
    }
}
