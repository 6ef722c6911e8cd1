import Foundation
import FrostCore
import FrostService
import Testing

/// A result's cache key and ETag hold the server's settings that shape its bytes (docs/serve.md,
/// "Result cache"): services set up otherwise over one cache folder each answer their own bytes
/// under their own ETag; set up alike again (a restart), the same key finds the same result.
@Suite struct ResultIdentityTests {
    typealias Setup = @Sendable (inout ImageService.Settings) -> Void

    static func service(_ folder: String, cache: String?, _ setup: Setup) throws -> ImageService {
        var settings = ImageService.Settings()
        settings.allowUnsigned = true
        settings.local = LocalSource(root: folder + "/served")
        settings.resultCache = try cache.map { try ResultCache(folder: $0, maxBytes: 100 << 20) }
        setup(&settings)
        return ImageService(settings)
    }

    static func square(_ rgba: [UInt8]) -> Image {
        Image(width: 16, height: 16, pixels: Array([[UInt8]](repeating: rgba, count: 256).joined()))
    }

    /// Each setting changed alone: (what, URL, one setup, the other).
    static let changes: [(String, String, Setup, Setup)] = [
        ("--quality", "/_/rs:fit:200:0/plain/local:///photos/rocket.jpg",
         { $0.processor.defaults.quality = 90 }, { $0.processor.defaults.quality = 20 }),
        ("--format-quality", "/_/rs:fit:200:0/plain/local:///photos/rocket.jpg@webp",
         { _ in }, { $0.processor.defaults.formatQuality[.webp] = 30 }),
        ("--preferred-formats", "/_/rs:fit:200:0/plain/local:///photos/rocket.jpg",
         { _ in }, { $0.processor.defaults.preferredFormats = [.png] }),
        ("--watermark", "/_/rs:fit:200:0/wm:1/plain/local:///photos/rocket.jpg",
         { $0.processor.defaults.watermark = square([255, 0, 0, 255]) }, { $0.processor.defaults.watermark = square([0, 0, 255, 255]) }),
        ("--watermark-opacity", "/_/rs:fit:200:0/wm:1/plain/local:///photos/rocket.jpg",
         { $0.processor.defaults.watermark = square([255, 0, 0, 255]) },
         { $0.processor.defaults.watermark = square([255, 0, 0, 255]); $0.processor.defaults.watermarkOpacity = 0.3 }),
        ("the largest result side", "/_/rs:fit:200:0/plain/local:///photos/rocket.jpg",
         { _ in }, { $0.processor.defaults.maxResultDimension = 100 }),
    ]

    @Test(arguments: 0..<changes.count) func aSettingThatShapesAResultIsInItsKeyAndETag(_ index: Int) throws {
        let (name, url, first, second) = Self.changes[index]
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = folder + "/cache"
        let a = try Self.service(folder, cache: cache, first)
        let made = try a.respond(to: a.request(url))
        // Started again over the same folder, set up otherwise: not the first setup's result.
        let b = try Self.service(folder, cache: cache, second)
        let request = try b.request(url)
        #expect(b.cached(request) == nil, "\(name): the other setup's result answered")
        let other = try b.respond(to: request, ifNoneMatch: made.etag)
        #expect(other.status == 200 && other.etag != made.etag, "\(name): \(other.status), the same ETag")
        #expect(other.body != made.body || other.contentType != made.contentType, "\(name): the same bytes")
        // A server without a cache, set up as the second, answers what the second keeps, under its ETag.
        let fresh = try Self.service(folder, cache: nil, second)
        let uncached = try fresh.respond(to: fresh.request(url))
        #expect(uncached.etag == other.etag && uncached.body == other.body, "\(name)")
        // Set up as the first again (a restart): its result, under its key and ETag.
        let again = try Self.service(folder, cache: cache, first)
        let kept = try #require(again.cached(again.request(url)), "\(name): the same settings lost their result")
        #expect(kept.etag == made.etag && kept.body == made.body && kept.contentType == made.contentType, "\(name)")
    }

    /// The watermark counts by its pixels, not by where it was read from: the same picture is the same key.
    @Test func theSameWatermarkIsTheSameKey() throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = "/_/rs:fit:200:0/wm:1/plain/local:///photos/rocket.jpg"
        let setup: Setup = { $0.processor.defaults.watermark = Self.square([0, 255, 0, 128]) }
        let a = try Self.service(folder, cache: folder + "/cache", setup)
        let made = try a.respond(to: a.request(url))
        let b = try Self.service(folder, cache: folder + "/cache", setup)
        #expect(try b.cached(b.request(url))?.etag == made.etag)
    }
}

extension ResultIdentityTests {
    /// The blur caches' side shapes only `fade:` results: other results have the same ETag with
    /// and without `--cache`, while a fade made at another side is another result.
    @Test func theBlurCachesSideCountsForFadesOnly() throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = "/_/rs:fit:200:0/plain/local:///photos/rocket.jpg"
        let bare = try Self.service(folder, cache: nil) { _ in }
        let cached = try Self.service(folder, cache: folder + "/cache") { $0.blurCaches = try? ServiceBlurCaches(folder: folder + "/blur") }
        #expect(try bare.respond(to: bare.request(plain)).etag == cached.respond(to: cached.request(plain)).etag)
        let fade = "/_/fade:0.5:2:8/rs:fit:48:0/plain/local:///photos/rocket.jpg@png"
        let small = try Self.service(folder, cache: folder + "/cache") { $0.blurCaches = try? ServiceBlurCaches(folder: folder + "/blur", maxSide: 32) }
        let (a, b) = (try cached.respond(to: cached.request(fade)), try small.respond(to: small.request(fade)))
        #expect(a.status == 200 && b.status == 200 && a.etag != b.etag && a.body != b.body)
    }
}
