import Foundation
import FrostCache
import FrostCodecs
import FrostCore
import FrostFiles
@testable import FrostService
import FrostTestSupport
import Testing

/// Blur caches by URL: a signed `/cache` URL builds `frost cache`'s folder and redirects to its
/// manifest; the folder's files are served by name; caches past the cap go least recently used first.
@Suite struct BlurCacheURLTests {
    static func service(_ folder: TemporaryFolder, maxBytes: Int = .max, maxSide: Int? = ServiceBlurCaches.defaultMaxSide) throws -> ImageService {
        var settings = ImageServiceTests.service(folder).settings
        settings.blurCaches = try ServiceBlurCaches(folder: folder.file("blur"), maxBytes: maxBytes, maxSide: maxSide)
        return ImageService(settings)
    }

    /// The signed URL's redirect: the key its Location names.
    static func build(_ service: ImageService, _ rest: String) throws -> String {
        let answer = try service.cache(try service.cacheRequest(ImageServiceTests.signed(rest)))
        let location = try #require(answer.headers.first { $0.0 == "Location" }?.1)
        #expect(answer.status == 307 && location.hasPrefix("/cache/") && location.hasSuffix("/manifest.json"))
        return String(location.dropFirst("/cache/".count).prefix(64))
    }

    @Test func aCacheURLServesFrostCachesFiles() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let service = try Self.service(folder)
        let key = try Self.build(service, "/levels:4/ms:20/f:webp/q:80/plain/local:///photos/rocket.jpg")
        #expect(try Self.build(service, "/levels:4/max_sigma:20/quality:80/plain/local:///photos/rocket.jpg@webp") == key, "the same cache, built once")
        let cli = try FrostRun.run(["cache", folder.file("root/photos/rocket.jpg"), "-o", folder.file("c"),
                                    "--levels", "4", "--max-sigma", "20", "--format", "webp", "--quality", "80"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let manifest = try #require(try service.cacheFile("/\(key)/manifest.json"))
        #expect(manifest.status == 200 && manifest.contentType == "application/json")
        let served = try JSONDecoder().decode(CacheManifest.self, from: Data(manifest.body))
        let made = try CacheStore.readManifest(folder.file("c"))
        #expect(served.levels == made.levels && served.parameters == made.parameters && served.source.sha256 == made.source.sha256)
        for level in made.levels {
            let file = try #require(try service.cacheFile("/\(key)/\(level.file)"))
            let made = try FileIO.read(folder.file("c/" + level.file))
            #expect(file.contentType == "image/webp" && file.body == made, "\(level.file): the CLI's bytes")
            let again = try service.cacheFile("/\(key)/\(level.file)", ifNoneMatch: file.etag)
            #expect(again?.status == 304)
        }
        // Not a cache file's shape: nil (a signed URL); the shape without the file: 404.
        #expect(try service.cacheFile("/sig/levels:4/plain/local:///photos/rocket.jpg") == nil)
        for missing in ["/\(key)/level-99.webp", "/\(key)/source.jpg", "/\(String(repeating: "0", count: 64))/manifest.json"] {
            #expect(throws: ServiceError(404, "no such cache file (a signed /cache URL builds it)"), "\(missing)") { try service.cacheFile(missing) }
        }
        // fade: frames and a /cache URL of the same levels and σ in PNG share one cache.
        let png = try Self.build(service, "/levels:4/ms:20/plain/local:///photos/rocket.jpg")
        _ = try ImageServiceTests.get(service, ImageServiceTests.signed("/fade:0.5:4:20/plain/local:///photos/rocket.jpg@png"))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.file("blur"))) == [key, png])
    }

    @Test func badCacheURLsAreRefused() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let service = try Self.service(folder)
        for (rest, status) in [("/levels:0/plain/local:///photos/rocket.jpg", 400), ("/q:80/plain/local:///photos/rocket.jpg", 400),
                               ("/f:avif/plain/local:///photos/rocket.jpg", 400), ("/zz:1/plain/local:///photos/rocket.jpg", 400),
                               ("/plain/local:///photos/rocket.jpg@gif", 400), ("/plain/local:///../outside.jpg", 403)] {
            let refusal = #expect(throws: ServiceError.self, "\(rest)") {
                try service.cache(try service.cacheRequest(ImageServiceTests.signed(rest)))
            }
            #expect(refusal?.status == status, "\(rest): \(String(describing: refusal))")
        }
        #expect(throws: ServiceError.self, "forged") { try service.cacheRequest("/AAAA/levels:4/plain/local:///photos/rocket.jpg") }
        let cut = try service.cacheRequest(ImageServiceTests.signed("/plain/local:///cut.jpg"))
        #expect(throws: ServiceError.self, "a damaged source") { try service.cache(cut) }
        let alpha = try service.cacheRequest(ImageServiceTests.signed("/f:jpg/plain/local:///alpha.png"))
        // JPEG levels of a transparent source are its levels over white, as `frost cache --format jpg` makes them.
        #expect(try service.cache(alpha).status == 307)
        #expect(throws: ServiceError.self, "no blur caches: 404") {
            try ImageServiceTests.service(folder).cacheRequest(ImageServiceTests.signed("/plain/local:///photos/rocket.jpg"))
        }
    }

    @Test func cachesPastTheCapGoLeastRecentlyUsedFirst() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let service = try Self.service(folder, maxBytes: 1024)
        let first = try Self.build(service, "/levels:2/ms:4/plain/local:///photos/rocket.jpg")
        #expect(try service.cacheFile("/\(first)/manifest.json") != nil, "the newest is kept, even alone past the cap")
        let second = try Self.build(service, "/levels:2/ms:6/plain/local:///photos/rocket.jpg")
        #expect(throws: ServiceError.self, "evicted") { try service.cacheFile("/\(first)/manifest.json") }
        let caches = try #require(service.settings.blurCaches)
        #expect(caches.statistics.caches == 1 && caches.statistics.bytes > 1024)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("blur")) == [second])
        // A restart counts what is kept and removes what an interrupted eviction left.
        try FileManager.default.createDirectory(atPath: folder.file("blur/.evicted-x"), withIntermediateDirectories: false)
        let again = try ServiceBlurCaches(folder: folder.file("blur"))
        #expect(again.statistics.caches == 1 && again.statistics.bytes == caches.statistics.bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("blur")) == [second])
    }

    /// Past `--cache-max-side`, a cache holds the levels of the source shrunk to fit it (as
    /// `frost resize --fit contain` shrinks it, reduced decode included: the same pixels), under its
    /// own name; `fade:` frames made from it come out at the size the URL asks for, crops too.
    @Test(arguments: [200, 100]) func largeSourcesAreCachedAtTheMaxSide(side: Int) throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let service = try Self.service(folder, maxSide: side)
        let key = try Self.build(service, "/levels:3/ms:8/plain/local:///photos/rocket.jpg")
        let whole = try Self.service(folder, maxSide: nil)
        #expect(try Self.build(whole, "/levels:3/ms:8/plain/local:///photos/rocket.jpg") != key, "another cache")
        let small = folder.file("small.png"), cli = folder.file("cli")
        for command in [["resize", folder.file("root/photos/rocket.jpg"), "-o", small, "--width", "\(side)", "--height", "\(side)", "--fit", "contain"],
                        ["cache", small, "-o", cli, "--levels", "3", "--max-sigma", "8"]] {
            let run = try FrostRun.run(command)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let made = try CacheStore.readManifest(cli)
        let served = try JSONDecoder().decode(CacheManifest.self, from: Data(try #require(try service.cacheFile("/\(key)/manifest.json")).body))
        #expect(max(served.source.width, served.source.height) == side)
        #expect((served.source.width, served.source.height) == (made.source.width, made.source.height))
        for (level, mine) in zip(made.levels, served.levels) {
            let theirs = try Image(decoding: try FileIO.read(cli + "/" + level.file))
            let ours = try Image(decoding: try #require(try service.cacheFile("/\(key)/\(mine.file)")).body)
            #expect(ours.pixels == theirs.pixels, "\(level.file): the levels of the shrunk source")
        }
        for (url, size) in [("/fade:0.5:3:8/rs:fit:300:0/plain/local:///photos/rocket.jpg@png", (300, 200)),
                            ("/fade:0.5:3:8/c:320:200:nowe/plain/local:///photos/rocket.jpg@png", (320, 200))] {
            let frame = try Image(decoding: try ImageServiceTests.get(service, ImageServiceTests.signed(url)).body)
            #expect((frame.width, frame.height) == size, "\(url)")
        }
    }

    /// A `fade:` frame's cache is turned as the request's `ar:` says, under a key of its own when
    /// that is not the server's default (`|as-stored`): of a JPEG with EXIF orientation 6 (stored
    /// 1200×1800, shown 1800×1200), `ar:0` gives a frame of the stored shape and `ar:1` the turned
    /// one, each `frost resize --fit contain`, `frost cache` (both with `--no-auto-orient` for `ar:0`:
    /// the resized PNG keeps the orientation) and `frost fade` of it, pixel for pixel. Asked in both
    /// orders, neither reuses the other's cache.
    @Test func aFadeFramesCacheIsTurnedAsItsAutoRotateSays() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let photo = folder.file("root/photos/turned.jpg")
        try FileManager.default.copyItem(atPath: Corpus.path("exif-orientation-examples/Landscape_6.jpg"), toPath: photo)
        let service = try Self.service(folder, maxSide: 200)
        var frames: [String: Image] = [:]
        for autoRotate in ["0", "1", "0"] {
            let url = "/ar:\(autoRotate)/fade:0.5:3:8/rs:fit:200:200/plain/local:///photos/turned.jpg@png"
            frames[autoRotate] = try Image(decoding: try ImageServiceTests.get(service, ImageServiceTests.signed(url)).body)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("blur")).count == 2, "a cache for each turn")
        let stored = try #require(frames["0"]), turned = try #require(frames["1"])
        #expect(stored.height > stored.width && (turned.width, turned.height) == (stored.height, stored.width),
                "stored \(stored.width)x\(stored.height), turned \(turned.width)x\(turned.height)")
        for (autoRotate, frame) in [("0", stored), ("1", turned)] {
            let small = folder.file("small-\(autoRotate).png"), cache = folder.file("c-\(autoRotate)"), faded = folder.file("f-\(autoRotate).png")
            let orient = autoRotate == "0" ? ["--no-auto-orient"] : []
            for command in [["resize", photo, "-o", small, "--width", "200", "--height", "200", "--fit", "contain"] + orient,
                            ["cache", small, "-o", cache, "--levels", "3", "--max-sigma", "8"] + orient,
                            ["fade", cache, "--fraction", "0.5", "-o", faded, "--colorspace", "srgb"]] {
                let run = try FrostRun.run(command)
                #expect(run.status == 0, "\(command[0]): \(run.stderr)")
            }
            let cli = try Image(contentsOfFile: faded)
            guard (frame.width, frame.height) == (cli.width, cli.height) else {
                Issue.record("ar:\(autoRotate): \(frame.width)x\(frame.height), the CLI's \(cli.width)x\(cli.height)")
                continue
            }
            let difference = PixelDifference(frame, cli)
            #expect(difference.max == 0, "ar:\(autoRotate): \(difference)")
        }
    }

    /// A frame whose request is abandoned while its cache is being built: the build runs to its
    /// end under a flag of its own (under the request's, the kernels skipped rows, and the
    /// half-blurred levels were kept and served for good), so the cache kept is `frost cache`'s.
    @Test func anAbandonedFrameLeavesAWholeCache() throws {
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let big = folder.file("root/photos/big.png")
        let resize = try FrostRun.run(["resize", folder.file("root/photos/rocket.jpg"), "-o", big, "--width", "1200"])
        #expect(resize.status == 0, "\(resize.stderr)")
        let service = try Self.service(folder)
        let cancellation = Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.15) { cancellation.cancel() }
        let request = try service.request(ImageServiceTests.signed("/fade:0.5:4:20/plain/local:///photos/big.png@png"))
        _ = try? service.respond(to: request, cancellation: cancellation)
        let cli = try FrostRun.run(["cache", big, "-o", folder.file("cli"), "--levels", "4", "--max-sigma", "20"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let made = try CacheStore.readManifest(folder.file("cli"))
        let keys = try FileManager.default.contentsOfDirectory(atPath: folder.file("blur"))
        #expect(keys.count == 1, "the build ran to its end: \(keys)")
        for key in keys {
            for level in made.levels {
                #expect(try FileIO.read(folder.file("blur/\(key)/\(level.file)")) == FileIO.read(folder.file("cli/" + level.file)), "\(level.file)")
            }
        }
    }
}
