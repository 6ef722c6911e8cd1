import Foundation
@_spi(Kernels) import FrostCore
import FrostCodecs
import FrostFiles
@testable import FrostService
import FrostTestSupport
import Testing

@Suite struct ResultCacheTests {
    static func entry(_ n: Int, size: Int = 150) -> ResultCache.Entry {
        ResultCache.Entry(contentType: "image/webp", etag: "\"\(n)\"", body: [UInt8](repeating: UInt8(n & 255), count: size))
    }

    @Test func keepsEvictsTheLeastRecentlyUsedAndSurvivesARestart() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = try ResultCache(folder: folder.file("cache"), maxBytes: 2000)
        let keys = (0..<12).map { ResultCache.key(source: "s\($0)", result: "r") }
        for i in 0..<8 { cache.put(keys[i], Self.entry(i)) }
        #expect(cache.get(keys[0]) == Self.entry(0), "a hit gives the entry back")
        #expect(cache.get(keys[11]) == nil)
        // Each file is 180 bytes: the 12th put passes 2000 and the least recently used go, to 1800.
        for i in 8..<12 { cache.put(keys[i], Self.entry(i)) }
        #expect(cache.statistics.bytes <= 1800 && cache.statistics.files == 9)
        #expect(cache.get(keys[0]) != nil, "used recently: kept")
        #expect(cache.get(keys[1]) == nil, "the least recently used: gone")
        // A restart counts what is on disk; an interrupted write's temporary file is removed.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.file("cache/.half.frost-abc")))
        let again = try ResultCache(folder: folder.file("cache"), maxBytes: 2000)
        #expect(again.statistics.files == cache.statistics.files && again.statistics.bytes == cache.statistics.bytes)
        #expect(again.get(keys[0]) == Self.entry(0))
        #expect(!FileManager.default.fileExists(atPath: folder.file("cache/.half.frost-abc")))
        // Too large a result (over a tenth of the cap) is not kept.
        again.put(keys[1], Self.entry(1, size: 300))
        #expect(again.get(keys[1]) == nil)
        // A damaged file is a miss, not an error.
        try Data("junk".utf8).write(to: URL(fileURLWithPath: folder.file("cache/" + keys[0])))
        #expect(again.get(keys[0]) == nil)
    }

    @Test func theServiceAnswersFromItAndAChangedSourceIsANewResult() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        var settings = ImageServiceTests.service(folder).settings
        settings.resultCache = try ResultCache(folder: folder.file("cache"), maxBytes: 100 << 20)
        let service = ImageService(settings)
        let url = ImageServiceTests.signed("/rs:fit:100:0/plain/local:///photos/rocket.jpg")
        let first = try ImageServiceTests.get(service, url)
        #expect(settings.resultCache!.statistics.files == 1)
        let request = try service.request(url)
        let hit = try #require(service.cached(request))
        #expect(hit.body == first.body && hit.etag == first.etag && hit.contentType == first.contentType)
        #expect(service.cached(request, ifNoneMatch: first.etag)?.status == 304)
        // The source replaced: another file identity, so the cache does not answer for it.
        try FileManager.default.removeItem(atPath: folder.file("root/photos/rocket.jpg"))
        try FileManager.default.copyItem(atPath: Corpus.path("pillow/jpeg/hopper.jpg"), toPath: folder.file("root/photos/rocket.jpg"))
        #expect(service.cached(request) == nil)
        #expect(try ImageServiceTests.get(service, url).body != first.body)
    }

    /// The memory layer: the least recently used out past its bytes, O(1) whatever the count.
    @Test func memoryLRUKeepsTheMostRecentlyUsedWithinItsBytes() {
        let lru = MemoryLRU<Int>(maxBytes: 100)
        for i in 0..<5 { lru.put("k\(i)", i, size: 20) }
        #expect(lru.statistics.bytes == 100 && lru.statistics.count == 5)
        #expect(lru.get("k0") == 0, "now the most recently used")
        lru.put("k5", 5, size: 30)   // 130: k1 and k2 go, in that order
        #expect(lru.get("k1") == nil && lru.get("k2") == nil && lru.get("k0") == 0 && lru.get("k5") == 5)
        lru.put("k3", 33, size: 10)  // replaced: its size counted once
        #expect(lru.get("k3") == 33 && lru.statistics.bytes == 20 + 20 + 30 + 10)
        lru.put("huge", 9, size: 101)
        #expect(lru.get("huge") == nil, "larger than the cap: not kept")
        lru.remove("k0")
        #expect(lru.get("k0") == nil && lru.statistics.count == 3)
        for i in 0..<10_000 { lru.put("n\(i)", i, size: 1) }
        #expect(lru.statistics.count == 100 && lru.get("n9999") == 9999 && lru.get("n9899") == nil)
        #expect(MemoryLRU<Int>(maxBytes: 0).statistics.count == 0)
    }

    /// A hot result is answered from memory: its file gone behind the cache's back, it is still
    /// there (and counted as a memory hit); an evicted result leaves memory with its file.
    @Test func hotResultsAreHeldInMemory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = try ResultCache(folder: folder.file("cache"), maxBytes: 2000, memoryBytes: 1000)
        let keys = (0..<12).map { ResultCache.key(source: "s\($0)", result: "r") }
        cache.put(keys[0], Self.entry(0))
        try FileManager.default.removeItem(atPath: folder.file("cache/" + keys[0]))
        #expect(cache.get(keys[0]) == Self.entry(0) && cache.statistics.memoryHits == 1)
        for i in 1..<12 { cache.put(keys[i], Self.entry(i)) }
        #expect(cache.statistics.memoryBytes <= 1000)
        #expect(cache.get(keys[1]) == nil, "evicted from disk: gone from memory too")
        let cold = try ResultCache(folder: folder.file("cache"), maxBytes: 2000)
        #expect(cold.get(keys[11]) == Self.entry(11) && cold.statistics.memoryHits == 0, "no memory layer: from disk")
    }
}

extension ImageService.Response: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.status == b.status && a.contentType == b.contentType && a.body == b.body && a.etag == b.etag
    }
}

/// `fade:` frames: a blur cache built on first request and kept, its frame the CLI's.
@Suite struct FadeURLTests {
    @Test func aFadeFrameIsFrostFadesFrame() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        var settings = ImageServiceTests.service(folder).settings
        #expect(throws: ServiceError.self, "no blur caches: 400") { try ImageService(settings).request(ImageServiceTests.signed("/fade:0.5/plain/local:///photos/rocket.jpg")) }
        settings.blurCaches = try ServiceBlurCaches(folder: folder.file("blur"))
        let service = ImageService(settings)
        let served = try ImageServiceTests.get(service, ImageServiceTests.signed("/fade:0.37:4:20/plain/local:///photos/rocket.jpg@png"))
        let photo = folder.file("root/photos/rocket.jpg")
        #expect(try FrostRun.run(["cache", photo, "-o", folder.file("c"), "--levels", "4", "--max-sigma", "20"]).status == 0)
        let faded = try FrostRun.run(["fade", folder.file("c"), "--fraction", "0.37", "-o", folder.file("f.png"), "--colorspace", "srgb"])
        #expect(faded.status == 0, "\(faded.stderr)")
        let difference = PixelDifference(try Image(decoding: served.body), try Image(contentsOfFile: folder.file("f.png")))
        #expect(difference.max == 0, "\(difference)")
        // Kept: one cache folder, reused by a second frame (and a resize after it).
        let caches = try FileManager.default.contentsOfDirectory(atPath: folder.file("blur"))
        #expect(caches.count == 1)
        let small = try ImageServiceTests.get(service, ImageServiceTests.signed("/fade:0.9:4:20/rs:fit:100:0/plain/local:///photos/rocket.jpg@png"))
        #expect(try Image(decoding: small.body).width == 100)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("blur")) == caches)
        #expect(throws: ServiceError.self) { try service.request(ImageServiceTests.signed("/fade:2/plain/local:///photos/rocket.jpg")) }
    }
}

/// Decoded sources: kept by key within their bytes; requests for one key that arrive together
/// wait for one decode; a failed decode is not kept.
@Suite struct DecodedSourcesTests {
    @Test func oneDecodeForRequestsThatArriveTogether() throws {
        let sources = DecodedSources(maxBytes: 1 << 20)
        let decodes = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let image = sources.image("a") {
                decodes.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.2)
                return Image(width: 16, height: 16, filledWith: (1, 2, 3, 255))
            }
            #expect(image.width == 16)
        }
        #expect(decodes.withLock { $0 } == 1)
        #expect(sources.statistics.count == 1 && sources.statistics.bytes == 16 * 16 * 4)
        #expect(throws: CodecError.self) { try sources.image("b") { throw CodecError(.corrupt, "no") } }
        #expect(sources.image("b") { Image(width: 2, height: 2, filledWith: (0, 0, 0, 255)) }.width == 2, "a failure is not kept")
        let small = DecodedSources(maxBytes: 100)
        _ = small.image("big") { Image(width: 16, height: 16, filledWith: (0, 0, 0, 255)) }
        #expect(small.statistics.count == 0, "larger than the cap: not kept")
    }
}
