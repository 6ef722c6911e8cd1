import Foundation
import FrostCodecs
import FrostService
import Testing

/// `If-None-Match: *` is true only where a current representation exists (RFC 9110 §13.1.2): a
/// URL whose answer is an error answers the error, not a 304.
@Suite struct IfNoneMatchTests {
    static func service(_ folder: String, cache: Bool, maxPixels: Int = 50_000_000) throws -> ImageService {
        var settings = ImageService.Settings()
        settings.allowUnsigned = true
        settings.local = LocalSource(root: folder + "/served")
        settings.resultCache = cache ? try ResultCache(folder: folder + "/cache", maxBytes: 100 << 20) : nil
        settings.processor.limits = DecodeOptions(maxPixels: maxPixels)
        return ImageService(settings)
    }

    static func status(_ service: ImageService, _ url: String, ifNoneMatch: String? = "*") -> Int {
        do {
            let request = try service.request(url)
            if let hit = service.cached(request, ifNoneMatch: ifNoneMatch) { return hit.status }
            return try service.respond(to: request, ifNoneMatch: ifNoneMatch, lookedUp: true).status
        } catch {
            return error.status
        }
    }

    @Test(arguments: [false, true]) func anyMatchesOnlyAResultThatExists(cache: Bool) throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("notanimage".utf8).write(to: URL(fileURLWithPath: folder + "/served/bad.jpg"))
        let service = try Self.service(folder, cache: cache)
        #expect(Self.status(service, "/_/rs:fit:61:0/plain/local:///bad.jpg") == 422)
        #expect(Self.status(service, "/_/rs:fit:61:0/plain/local:///missing.jpg") == 404)
        #expect(Self.status(try Self.service(folder, cache: cache, maxPixels: 1000), "/_/rs:fit:61:0/plain/local:///photos/rocket.jpg") == 413)
        // A result made (or kept): `*` holds.
        #expect(Self.status(service, "/_/rs:fit:61:0/plain/local:///photos/rocket.jpg") == 304)
        #expect(Self.status(service, "/_/rs:fit:61:0/plain/local:///photos/rocket.jpg") == 304)
        #expect(Self.status(service, "/_/rs:fit:61:0/plain/local:///photos/rocket.jpg", ifNoneMatch: "\"other\"") == 200)
    }
}
