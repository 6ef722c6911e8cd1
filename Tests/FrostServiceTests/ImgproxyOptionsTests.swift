import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
@testable import FrostService
import FrostTestSupport
import Testing

/// imgproxy's options as `frost serve` answers them (issue 66, "A drop-in for imgproxy" 3–5 and
/// "Must not happen" 9–10): formats and qualities, headers, `raw`/`skp`/`exp`, orientation,
/// rotation and flips, trim, watermarks, metadata and profiles, the encoders' limits, numbers
/// without bounds, and the signature checked first.
@Suite struct ImgproxyOptionsTests {
    static let key = ImageServiceTests.key, salt = ImageServiceTests.salt

    /// A root with a photo (Adobe RGB), a PNG with alpha, a HEIC, WebPs with and without alpha,
    /// an animated GIF, an EXIF-turned JPEG and a picture with a flat border.
    static func root() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("root"), withIntermediateDirectories: true)
        let copies = [(Corpus.repository + "/SampleImages/rocket.jpg", "rocket.jpg"), (Corpus.path("pngsuite/basn6a08.png"), "alpha.png"),
                      (Corpus.repository + "/Tests/Fixtures/heif/coffee.heic", "coffee.heic"),
                      (Corpus.repository + "/Tests/Fixtures/animation/disposal.gif", "anim.gif"),
                      (Corpus.path("exif-orientation-examples/Landscape_6.jpg"), "turned.jpg")]
        for (from, to) in copies { try FileManager.default.copyItem(atPath: from, toPath: folder.file("root/" + to)) }
        let rocket = try Image(decoding: try FileIO.read(folder.file("root/rocket.jpg")))
        try FileIO.writeAtomically(try rocket.encoded(as: .webp, options: EncodeOptions(webpQuality: 80)), to: folder.file("root/photo.webp"))
        let alpha = try Image(decoding: try FileIO.read(folder.file("root/alpha.png")))
        try FileIO.writeAtomically(try alpha.encoded(as: .webp), to: folder.file("root/alpha.webp"))
        var framed = Image(width: 90, height: 70, filledWith: (240, 240, 240, 255))
        var inner = Image(width: 40, height: 30, filledWith: (20, 40, 60, 255))
        inner.paste(rocket.resized(width: 20, height: 14), x: 10, y: 8)
        framed.paste(inner, x: 20, y: 15)
        try FileIO.writeAtomically(try framed.encoded(as: .png), to: folder.file("root/framed.png"))
        try FileIO.writeAtomically(try Image(width: 400, height: 300, filledWith: (255, 255, 255, 255)).encoded(as: .png), to: folder.file("root/white.png"))
        return folder
    }

    static func service(_ folder: TemporaryFolder, _ change: (inout ImageService.Settings) -> Void = { _ in }) -> ImageService {
        var settings = ImageService.Settings()
        settings.signer = URLSignature(keyHex: key, saltHex: salt)
        settings.local = LocalSource(root: folder.file("root"))
        change(&settings)
        return ImageService(settings)
    }

    static func get(_ service: ImageService, _ rest: String, accept: String? = nil) throws -> ImageService.Response {
        try ImageServiceTests.get(service, ImageServiceTests.signed(rest), accept: accept)
    }

    static func status(_ service: ImageService, _ path: String) -> Int {
        do { return try ImageServiceTests.get(service, path).status } catch let error as ServiceError { return error.status } catch { return 0 }
    }

    /// Without an extension: the source's format when preferred (jpeg, png, gif), else the first
    /// preferred that keeps what the picture needs; AVIF never for an animation.
    @Test func formatsFollowThePreferredList() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        for (file, type) in [("rocket.jpg", "image/jpeg"), ("photo.webp", "image/jpeg"), ("coffee.heic", "image/jpeg"),
                             ("alpha.webp", "image/png"), ("alpha.png", "image/png"), ("anim.gif", "image/gif")] {
            let answer = try Self.get(service, "/rs:fit:64:0/plain/local:///" + file)
            #expect(answer.contentType == type && ImageFormat.writable.first { $0.contentType == type } == ImageFormat(sniffing: answer.body), "\(file)")
        }
        #expect(try Self.get(service, "/rs:fit:64:0/plain/local:///rocket.jpg@heic").contentType == "image/heif")
        // Padding brings transparency: a WebP source without alpha goes to PNG then.
        #expect(try Self.get(service, "/rs:fit:64:0/pd:4/plain/local:///photo.webp").contentType == "image/png")
        let webpFirst = Self.service(folder) { $0.processor.defaults.preferredFormats = [.webp, .png] }
        #expect(try Self.get(webpFirst, "/rs:fit:64:0/plain/local:///rocket.jpg").contentType == "image/webp")
        // An animated GIF with --auto-avif stays an animation; with --auto-webp too it is an animated WebP.
        let avif = Self.service(folder) { $0.autoAVIF = true }
        let gif = try Self.get(avif, "/rs:fit:32:0/plain/local:///anim.gif", accept: "image/avif,image/webp")
        let gifFrames = try Animation(decoding: gif.body).frames.count
        #expect(gif.contentType == "image/gif" && gifFrames == 5)
        #expect(try Self.get(avif, "/rs:fit:32:0/plain/local:///rocket.jpg", accept: "image/avif").contentType == "image/avif")
        let both = Self.service(folder) { $0.autoAVIF = true; $0.autoWebP = true }
        let webp = try Self.get(both, "/rs:fit:32:0/plain/local:///anim.gif", accept: "image/avif,image/webp")
        let webpFrames = try Animation(decoding: webp.body).frames.count
        #expect(webp.contentType == "image/webp" && webpFrames == 5)
    }

    /// imgproxy's default qualities (WebP 79, AVIF 63, else 80), `fq` per format, `q` over both.
    @Test func qualitiesPerFormat() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        func body(_ options: String, _ ext: String) throws -> [UInt8] { try Self.get(service, "/rs:fit:80:0\(options)/plain/local:///rocket.jpg@\(ext)").body }
        #expect(try body("", "webp") == body("/q:79", "webp") && body("", "webp") != body("/q:80", "webp"))
        #expect(try body("", "avif") == body("/q:63", "avif"))
        #expect(try body("", "jpg") == body("/q:80", "jpg"))
        #expect(try body("/fq:webp:50:jpg:20", "webp") == body("/q:50", "webp") && body("/fq:webp:50:jpg:20", "jpg") == body("/q:20", "jpg"))
        #expect(try body("/fq:webp:50/q:30", "webp") == body("/q:30", "webp"))
        let server = Self.service(folder) { $0.processor.defaults.formatQuality[.jpeg] = 60 }
        #expect(try Self.get(server, "/rs:fit:80:0/plain/local:///rocket.jpg").body == body("/q:60", "jpg"))
    }

    /// Content-Disposition as imgproxy writes it; `raw` and `skp` answer the source; `exp` bounds
    /// Cache-Control and a past one is a 404.
    @Test func headersRawSkipAndExpiry() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        func header(_ answer: ImageService.Response, _ name: String) -> String? { answer.headers.first { $0.0 == name }?.1 }
        #expect(header(try Self.get(service, "/rs:fit:64:0/plain/local:///rocket.jpg"), "Content-Disposition") == "inline; filename=\"rocket.jpg\"")
        #expect(header(try Self.get(service, "/rs:fit:64:0/fn:my%22pic/att:1/plain/local:///rocket.jpg@webp"), "Content-Disposition")
                == "attachment; filename=\"my%22pic.webp\"")
        #expect(header(try Self.get(service, "/fn:bXkgcGljIjE:1/plain/local:///alpha.png"), "Content-Disposition") == "inline; filename=\"my pic%221.png\"")
        let source = try FileIO.read(folder.file("root/coffee.heic"))
        let raw = try Self.get(service, "/raw:1/rs:fit:10:10/plain/local:///coffee.heic@png")
        #expect(raw.body == source && raw.contentType == "image/heif" && header(raw, "Content-Disposition") == "inline; filename=\"coffee.heic\"")
        #expect(try Self.get(service, "/skp:heic:png/rs:fit:10:10/plain/local:///coffee.heic").body == source)
        #expect(try Self.get(service, "/skp:heic/rs:fit:10:10/plain/local:///coffee.heic@png").contentType == "image/png", "another format: processed")
        let soon = ProcessingOptions.currentTime + 100
        let expiring = header(try Self.get(service, "/exp:\(soon)/rs:fit:64:0/plain/local:///rocket.jpg"), "Cache-Control")
        #expect(expiring.flatMap { Int($0.dropFirst("max-age=".count).prefix { $0.isNumber }) }.map { (90...100).contains($0) } == true, "\(expiring ?? "")")
        #expect(Self.status(service, ImageServiceTests.signed("/exp:1000/rs:fit:64:0/plain/local:///rocket.jpg")) == 404)
    }

    /// A path answered before is not parsed again (its options come back as they were), but it
    /// still expires when its time comes, and a path whose signature failed is refused every time.
    @Test func aRepeatedPathIsParsedOnceAndStillExpires() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        let path = ImageServiceTests.signed("/exp:\(ProcessingOptions.currentTime + 1)/rs:fit:64:0/plain/local:///rocket.jpg")
        let first = try service.request(path), again = try service.request(path)
        #expect(first.options.identity == again.options.identity && first.path == again.path && first.location == again.location)
        let width = try Self.get(service, "/rs:fit:64:0/plain/local:///rocket.jpg")
        #expect(try service.respond(to: again).body == width.body)
        Thread.sleep(forTimeInterval: 2.1)
        #expect(Self.status(service, path) == 404, "expired since it was parsed")
        let forged = "/AAAA" + path.drop { $0 != "/" }.dropFirst().drop { $0 != "/" }
        #expect(Self.status(service, forged) == 403 && Self.status(service, forged) == 403)
    }

    /// EXIF orientation applied by default (`ar:0` keeps the stored pixels), then `rot` and `fl`.
    @Test func orientationRotationAndFlips() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        func image(_ options: String, _ file: String = "turned.jpg") throws -> Image {
            try Image(decoding: try Self.get(service, options + "/plain/local:///" + file + "@png").body)
        }
        let upright = try image("/ar:1"), stored = try image("/ar:0")
        let byDefault = try image("")
        #expect((upright.width, upright.height) == (stored.height, stored.width) && byDefault.width == upright.width)
        let source = try image("", "alpha.png")
        #expect(PixelDifference(try image("/rot:90", "alpha.png"), source.oriented(.right)).max == 0)
        #expect(PixelDifference(try image("/rot:180/fl:1", "alpha.png"), source.oriented(.down).oriented(.upMirrored)).max == 0)
        #expect(PixelDifference(try image("/fl:0:1", "alpha.png"), source.oriented(.downMirrored)).max == 0)
    }

    /// `t` cuts the flat border; `c` cuts before the resize.
    @Test func trimAndCrop() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        let trimmed = try Image(decoding: try Self.get(service, "/t:10/plain/local:///framed.png").body)
        #expect((trimmed.width, trimmed.height) == (40, 30))
        let equal = try Image(decoding: try Self.get(service, "/t:10::1:1/plain/local:///framed.png").body)
        #expect((equal.width, equal.height) == (50, 40), "margins 20 and 30 across, 15 and 25 down")
        let framed = try Image(decoding: try FileIO.read(folder.file("root/framed.png")))
        let crop = try Image(decoding: try Self.get(service, "/c:30:20:nowe:5:6/plain/local:///framed.png").body)
        #expect(PixelDifference(crop, framed.cropped(to: PixelBounds(x: 5, y: 6, width: 30, height: 20))).max == 0)
    }

    /// `wm` draws `--watermark`'s image at the position (× dpr offsets, hanging over the edge), at
    /// the opacity, scaled, or tiled with `re`.
    @Test func watermarks() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let red = Image(width: 20, height: 10, filledWith: (255, 0, 0, 255))
        let service = Self.service(folder) { $0.processor.defaults.watermark = red }
        func image(_ options: String) throws -> Image { try Image(decoding: try Self.get(service, options + "/plain/local:///white.png").body) }
        let corner = try image("/wm:1:soea:5:3")
        // 20×10 at 400 − 20 − 5, 300 − 10 − 3: x 375…394, y 287…296.
        let (redPixel, white) = (SIMD4<UInt8>(255, 0, 0, 255), SIMD4<UInt8>(255, 255, 255, 255))
        #expect(corner.pixel(x: 375, y: 287) == redPixel && corner.pixel(x: 394, y: 296) == redPixel && corner.pixel(x: 374, y: 287) == white
                && corner.pixel(x: 375, y: 286) == white && corner.pixel(x: 395, y: 296) == white && corner.pixel(x: 394, y: 297) == white)
        let half = try image("/wm:0.5:nowe")
        #expect(half.pixel(x: 0, y: 0) == SIMD4(255, 127, 127, 255) || half.pixel(x: 0, y: 0) == SIMD4(255, 128, 128, 255))
        let scaled = try image("/wm:1:ce:0:0:0.5")
        #expect(scaled.pixel(x: 101, y: 126) == SIMD4(255, 0, 0, 255) && scaled.pixel(x: 299, y: 173) == SIMD4(255, 0, 0, 255)
                && scaled.pixel(x: 99, y: 150) == SIMD4(255, 255, 255, 255), "fitted into 200×150: 200×100, centred")
        let tiled = try image("/wm:1:re:10:10")
        let reds = (0..<300).flatMap { y in (0..<400).map { x in tiled.pixel(x: x, y: y) } }.filter { $0 == SIMD4(255, 0, 0, 255) }.count
        #expect(reds > 400 * 300 / 4 && reds < 400 * 300 * 3 / 4, "\(reds) red pixels: tiles with gaps")
        #expect(try image("/wm:1:soea").pixel(x: 0, y: 0) == white)
        // Gaps and scales past the picture: no giant tile, a 413 for a watermark past the pixel limit.
        #expect(Self.status(service, ImageServiceTests.signed("/wm:1:re:1e300:1e300/plain/local:///white.png")) == 200)
        #expect(Self.status(service, ImageServiceTests.signed("/wm:1:ce:0:0:1e300/plain/local:///white.png")) == 413)
        #expect(try Self.get(Self.service(folder), "/wm:1/plain/local:///white.png").status == 200, "no watermark set: nothing drawn")
    }

    /// `sm:0` keeps the source's metadata, `scp:0` its colour profile; by default neither.
    @Test func metadataAndProfiles() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        #expect(ImageMetadata(reading: try Self.get(service, "/rs:fit:64:0/plain/local:///turned.jpg").body).exif == nil)
        let kept = ImageMetadata(reading: try Self.get(service, "/sm:0/rs:fit:64:0/plain/local:///turned.jpg").body)
        let orientation = try ImageInfo(bytes: Self.get(service, "/sm:0/rs:fit:64:0/plain/local:///turned.jpg").body).orientation
        #expect(kept.exif != nil && orientation == 1)
        #expect(try ImageInfo(bytes: Self.get(service, "/rs:fit:64:0/plain/local:///rocket.jpg").body).iccProfile == nil)
        let profiled = try ImageInfo(bytes: Self.get(service, "/scp:0/rs:fit:64:0/plain/local:///rocket.jpg").body)
        let sourceProfile = try ImageInfo(bytes: FileIO.read(folder.file("root/rocket.jpg"))).iccProfile
        #expect(profiled.iccProfile == sourceProfile)
    }

    /// A size an encoder cannot hold: WebP scaled down to 16383 as imgproxy does, JPEG past 65500 a
    /// 422 naming the limit; never a 500.
    @Test func encoderLimits() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        let webp = try ImageInfo(bytes: Self.get(service, "/rs:fill:20000:100:1/plain/local:///white.png@webp").body)
        #expect(webp.width == 16383 && webp.height == 82)
        do {
            _ = try Self.get(service, "/rs:fill:65535:1:1/plain/local:///white.png@jpg")
            Issue.record("a 65535-wide JPEG was made")
        } catch let error as ServiceError {
            #expect(error.status == 422 && error.message.contains("65500"), "\(error)")
        }
    }

    /// Sizes, dprs, zooms and paddings without an upper bound: what would pass `--max-pixels` is a
    /// 413 before any work, and a blur of any σ is made.
    @Test func numbersWithoutBoundsStopAtThePixelLimit() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        for options in ["w:9223372036854775807/h:9223372036854775807/el:1", "rs:fit:100:100:1/dpr:1e300", "z:1e300/el:1",
                        "pd:9223372036854775807", "mw:9223372036854775807", "rs:fill:1000000:1000000:1:1", "ex:1/s:4000000000:1",
                        "z:1e308:1e308/w:9223372036854775807/el:1"] {
            #expect(Self.status(service, ImageServiceTests.signed("/\(options)/plain/local:///alpha.png")) == 413, "\(options)")
        }
        for options in ["bl:1e300", "sh:1e300", "c:1e300:1e300", "z:1e-300", "dpr:1e-300", "g:ce:1e300:-1e300/rs:fill:10:20",
                        "ex:1:fp:1:1/rs:fit:40:40", "wm:1:re:1e300:1e300"] {
            #expect(Self.status(service, ImageServiceTests.signed("/\(options)/plain/local:///alpha.png")) == 200, "\(options)")
        }
    }

    /// The signature first: a forged or unsigned URL is a 403 whatever its grammar; without a key
    /// an option where the signature belongs is a 403, as imgproxy answers it.
    @Test func theSignatureComesFirst() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        for path in ["/insecure/zz:1/plain/local:///rocket.jpg", "/forged/rs:fit:a:b/plain/local:///rocket.jpg", "/_/plain/local:///a%zz",
                     "/sig/!!!.png", "/sig/rs:fit:300"] {
            #expect(Self.status(service, path) == 403, "\(path)")
        }
        #expect(Self.status(service, ImageServiceTests.signed("/zz:1/plain/local:///rocket.jpg")) == 400, "signed: then the grammar")
        let open = Self.service(folder) { $0.signer = nil; $0.allowUnsigned = true }
        #expect(Self.status(open, "/rs:fit:300:0/plain/local:///rocket.jpg") == 403)
        #expect(Self.status(open, "/_/rs:fit:300:0/plain/local:///rocket.jpg") == 200)
        // A CDN's mangling is undone before the signature is checked: the signed path still verifies.
        let signed = ImageServiceTests.signed("/rs:fit:30:0/plain/local:///rocket.jpg")
        let mangled = signed.replacingOccurrences(of: "rs:fit:30:0", with: "rs%3Afit%3A30%3A0").replacingOccurrences(of: "local:///", with: "local:/")
        #expect(Self.status(service, mangled) == 200, "\(mangled)")
    }

    /// A presets file as imgproxy reads it: comments, blank lines, spaces, `default`, a loop.
    @Test func presetsFiles() throws {
        let presets = try Presets.parse("""
            # thumbnails
            default = q:70

            thumb=rs:fill:64:64/pr:thumb
              wide = rs:fit:800:0 \r
            """)
        #expect(presets.keys.sorted() == ["default", "thumb", "wide"] && presets["wide"] == [.init(name: "rs", arguments: ["fit", "800", "0"])])
        let options = try ProcessingOptions([.init(name: "pr", arguments: ["thumb"])], presets: presets)
        #expect(options.quality == 70 && options.width == 64 && options.resizingType == .fill)
        for bad in ["thumb", "a=b=c", "=q:1", "a=", "a=q:1/plain", "a=zz:1", "a=q:500"] {
            #expect(throws: ServiceError.self, "\(bad)") { try Presets.parse(bad) }
        }
    }
}

private extension String {
    func replacingOccurrences(of a: String, with b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}
