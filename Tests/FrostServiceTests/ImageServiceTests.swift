import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
@testable import FrostService
import FrostTestSupport
import Testing

/// The service's answers against the CLI's files: the same options give the same bytes (the
/// same pixels for PNGs).
@Suite struct ImageServiceTests {
    static let key = "0123456789abcdef0123456789abcdef", salt = "fedcba9876543210"

    /// A root holding a photo, a PNG with alpha, a link out of it and a damaged file.
    static func root() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("root/photos"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Corpus.repository + "/SampleImages/rocket.jpg", toPath: folder.file("root/photos/rocket.jpg"))
        try FileManager.default.copyItem(atPath: Corpus.path("pngsuite/basn6a08.png"), toPath: folder.file("root/alpha.png"))
        try FileManager.default.copyItem(atPath: Corpus.repository + "/SampleImages/rocket.jpg", toPath: folder.file("outside.jpg"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("root/out.jpg"), withDestinationPath: folder.file("outside.jpg"))
        let bytes = try FileIO.read(folder.file("outside.jpg"))
        try Data(bytes.prefix(bytes.count / 3)).write(to: URL(fileURLWithPath: folder.file("root/cut.jpg")))
        return folder
    }

    static func service(_ folder: TemporaryFolder, signed: Bool = true) -> ImageService {
        var settings = ImageService.Settings()
        settings.signer = signed ? URLSignature(keyHex: key, saltHex: salt) : nil
        settings.allowUnsigned = !signed
        settings.local = LocalSource(root: folder.file("root"))
        return ImageService(settings)
    }

    static func signed(_ rest: String) -> String {
        "/" + URLSignature(keyHex: key, saltHex: salt)!.signature(for: rest) + rest
    }

    static func get(_ service: ImageService, _ path: String, accept: String? = nil, ifNoneMatch: String? = nil) throws -> ImageService.Response {
        try service.respond(to: try service.request(path), accept: accept, ifNoneMatch: ifNoneMatch)
    }

    @Test func fitWidthIsFrostResizeWidth() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        for (url, cli) in [("/rs:fit:300:0/plain/local:///photos/rocket.jpg", ["resize", "--width", "300"]),
                           ("/rs:fit:300:0/plain/local:///photos/rocket.jpg@webp", ["resize", "--width", "300"]),
                           ("/rs:fit:320:0/bl:8/plain/local:///photos/rocket.jpg", ["run"]),
                           ("/bl:2/plain/local:///alpha.png", ["blur", "--sigma", "2"]),
                           ("/rs:fit:300:0/fx:light/br:0.1/sa:1.5/ga:1.2/plain/local:///photos/rocket.jpg",
                            ["run", "resize:width=300", "effect:preset=light", "adjust:brightness=0.1,saturation=1.5,gamma=1.2"]),
                           ("/rs:force:120:90/kernel:lanczos3/plain/local:///photos/rocket.jpg",
                            ["resize", "--width", "120", "--height", "90", "--fit", "fill", "--kernel", "lanczos3"])] {
            let response = try Self.get(service, Self.signed(url))
            #expect(response.status == 200)
            let ext = url.hasSuffix("@webp") ? "webp" : url.hasSuffix("@png") || url.hasSuffix(".png") ? "png" : "jpg"
            let out = folder.file("cli.\(ext)")
            let input = url.contains("alpha") ? folder.file("root/alpha.png") : folder.file("root/photos/rocket.jpg")
            let arguments = cli == ["run"] ? ["run", input, out, "resize:width=320", "blur:sigma=8"] : [cli[0], input, out] + cli.dropFirst()
            // imgproxy's default qualities: JPEG 80, WebP 79.
            let run = try FrostRun.run(arguments + (ext == "png" ? [] : ["--quality", ext == "webp" ? "79" : "80"]) + ["--strip"])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            // A PNG the CLI streams is deflated strip by strip: the same pixels in other bytes.
            let difference = PixelDifference(try Image(decoding: response.body), try Image(contentsOfFile: out))
            #expect(try ext == "png" ? difference.max == 0 : response.body == FileIO.read(out), "\(url): \(difference)")
        }
    }

    /// A fill is imgproxy's scale and crop: `rs:fill:200:200` on the 640×427 photo scales it to
    /// 300×200 (`frost resize --fit fill`) and keeps the 200 columns from x = 50 (imgproxy's centre).
    @Test func fillIsTheResizeCroppedAtTheCentre() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let response = try Self.get(Self.service(folder), Self.signed("/rs:fill:200:200/plain/local:///photos/rocket.jpg@png"))
        let run = try FrostRun.run(["resize", folder.file("root/photos/rocket.jpg"), folder.file("cli.png"), "--width", "300", "--height", "200",
                                    "--fit", "fill", "--strip"])
        #expect(run.status == 0, "\(run.stderr)")
        let cli = try Image(contentsOfFile: folder.file("cli.png")).cropped(to: PixelBounds(x: 50, y: 0, width: 200, height: 200))
        let difference = PixelDifference(try Image(decoding: response.body), cli)
        #expect(difference.max == 0, "\(difference)")
    }

    /// Responsive variants of one source (widths × formats, some twice) answer the same bytes with
    /// the decoded-source cache as without it, and the cache decodes once per shrink-on-load
    /// reduction, not once per variant.
    @Test func theDecodedSourceCacheChangesNoByte() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Corpus.repository + "/SampleImages/UNIS_EV0.jpg", toPath: folder.file("root/unis.jpg"))
        let plain = Self.service(folder)
        var settings = plain.settings
        settings.sourceCache = DecodedSources(maxBytes: 256 << 20)
        let cached = ImageService(settings)
        var variants: [String] = []
        for width in [320, 640, 960, 1280, 320] {
            for format in ["webp", "jpg"] { variants.append("/rs:fit:\(width):0/q:80/plain/local:///unis.jpg@\(format)") }
        }
        variants.append("/plain/local:///photos/rocket.jpg@png")
        variants.append("/rs:fill:100:100/g:sm/plain/local:///photos/rocket.jpg@png")
        for rest in variants {
            #expect(try Self.get(cached, Self.signed(rest)).body == (try Self.get(plain, Self.signed(rest))).body, "\(rest)")
        }
        // 2048 wide: 1/4 for 320, 1/2 for 640 and 960, whole for 1280; the rocket's twice the same decode.
        let statistics = try #require(settings.sourceCache?.statistics)
        #expect(statistics.count == 4 && statistics.misses == 4, "\(statistics)")
    }

    @Test func signaturesAndSources() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        let rest = "/rs:fit:100:0/plain/local:///photos/rocket.jpg"
        func status(_ path: String, _ service: ImageService) -> Int {
            do { return try Self.get(service, path).status } catch let error as ServiceError { return error.status } catch { return 0 }
        }
        #expect(status(Self.signed(rest), service) == 200)
        #expect(status("/insecure" + rest, service) == 403)
        #expect(status(Self.signed(rest).replacingOccurrences(of: "100", with: "101"), service) == 403, "options changed after signing")
        #expect(status("/insecure" + rest, Self.service(folder, signed: false)) == 200)
        var refusing = ImageService.Settings()
        refusing.local = LocalSource(root: folder.file("root"))
        #expect(status("/insecure" + rest, ImageService(refusing)) == 403, "unsigned refused unless allowed")
        for (path, code) in [("/plain/local:///../outside.jpg", 403), ("/plain/local:///photos/%2e%2e/%2E%2E/outside.jpg", 403),
                             ("/plain/local:///out.jpg", 403), ("/plain/local:///missing.jpg", 404), ("/plain/local:///cut.jpg", 422),
                             ("/plain/http://127.0.0.1/a.jpg", 403), ("/plain/file:///etc/passwd", 400), ("/plain/local:///photos", 404)] {
            #expect(status(Self.signed(path), service) == code, "\(path)")
        }
    }

    /// An abandoned request's work stops at its next step: a cancellation set before or while it
    /// runs answers 499 and keeps no result.
    @Test func abandonedWorkStopsBetweenSteps() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        let request = try service.request(Self.signed("/rs:fit:300:0/bl:4/plain/local:///photos/rocket.jpg"))
        let cancelled = Cancellation()
        cancelled.cancel()
        let refusal = #expect(throws: ServiceError.self) { try service.respond(to: request, cancellation: cancelled) }
        #expect(refusal?.status == 499)
        // Cancelled while the picture is decoded: the steps after it do not run.
        let during = Cancellation()
        var options = ProcessingOptions()
        options.blur = 4
        let bytes = try FileIO.read(folder.file("root/photos/rocket.jpg"))
        let stopped = #expect(throws: ServiceError.self) {
            try service.settings.processor.process(bytes, options: options, frame: { _ in
                during.cancel()
                return try Image(decoding: bytes)
            }, cancellation: during)
        }
        #expect(stopped?.status == 499)
        #expect(try service.respond(to: request, cancellation: Cancellation()).status == 200, "not cancelled: answered")
    }

    @Test func etagsAndNegotiation() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        var settings = Self.service(folder).settings
        settings.autoWebP = true
        let service = ImageService(settings)
        let url = Self.signed("/rs:fit:120:0/plain/local:///photos/rocket.jpg")
        let first = try Self.get(service, url)
        #expect(first.contentType == "image/jpeg" && first.headers.contains { $0 == ("Vary", "Accept") })
        let again = try Self.get(service, url, ifNoneMatch: first.etag)
        #expect(again.status == 304 && again.body.isEmpty && again.etag == first.etag)
        let webp = try Self.get(service, url, accept: "image/avif,image/webp,*/*")
        #expect(webp.contentType == "image/webp" && webp.etag != first.etag && ImageFormat(sniffing: webp.body) == .webp)
        let busted = try Self.get(service, Self.signed("/rs:fit:120:0/cb:2/plain/local:///photos/rocket.jpg"))
        #expect(busted.etag != first.etag && busted.body == first.body)
    }

    @Test func infoGivesPlaceholdersAsTheCLIDoes() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        let rest = "/blurhash:4:3/thumbhash:1/plain/local:///photos/rocket.jpg"
        let path = ServicePathTestsSupport.signedInfo(rest, key: Self.key, salt: Self.salt)
        let info = try service.info(path)
        let text = String(decoding: info.body, as: UTF8.self)
        let json = try JSONSerialization.jsonObject(with: Data(info.body)) as! [String: Any]
        #expect(json["width"] as? Int == 640 && json["format"] as? String == "jpg" && json["icc_description"] as? String == "Adobe RGB (1998)", "\(text)")
        let cli = try FrostRun.run(["placeholder", folder.file("root/photos/rocket.jpg"), "--components", "4x3"])
        #expect(cli.stdout.hasSuffix(" \(json["blurhash"] as! String)\n"), "\(cli.stdout) \(text)")
        let thumb = try FrostRun.run(["placeholder", folder.file("root/photos/rocket.jpg"), "--kind", "thumbhash"])
        #expect(thumb.stdout.hasSuffix(" \(json["thumbhash"] as! String)\n"))
        #expect(throws: ServiceError.self) { try service.info(ServicePathTestsSupport.signedInfo("/nope:1/plain/local:///photos/rocket.jpg", key: Self.key, salt: Self.salt)) }
    }

    @Test func gravityCropsAndExtends() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let service = Self.service(folder)
        func image(_ rest: String) throws -> Image { try Image(decoding: try Self.get(service, Self.signed(rest + "/plain/local:///alpha.png")).body) }
        // basn6a08 is 32×32: a fill to 32×8 keeps the top or the bottom rows (of the picture as
        // served untouched: its gAMA/cHRM converted to sRGB).
        let source = try Image(decoding: try Self.get(service, Self.signed("/plain/local:///alpha.png")).body)
        let top = try image("/rs:fill:32:8/g:no"), bottom = try image("/rs:fill:32:8/g:so")
        #expect(top.width == 32 && top.height == 8)
        #expect(PixelDifference(top, source.cropped(to: PixelBounds(x: 0, y: 0, width: 32, height: 8))).max == 0)
        #expect(PixelDifference(bottom, source.cropped(to: PixelBounds(x: 0, y: 24, width: 32, height: 8))).max == 0)
        // No enlargement unless el:1; ex:1 extends to the box with the background.
        #expect(try image("/rs:fit:64:64").width == 32)
        #expect(try image("/rs:fit:64:64:1").width == 64)
        // An extension past the pixel limit is refused before any work (413), not allocated.
        do {
            _ = try Self.get(service, Self.signed("/rs:fit:65535:65535:0:1/dpr:8/plain/local:///alpha.png"))
            Issue.record("a 524280² extension was made")
        } catch let error as ServiceError {
            #expect(error.status == 413, "\(error)")
        }
        let extended = try image("/rs:fit:64:40:0:1/bg:0:0:255")
        #expect(extended.width == 64 && extended.height == 40 && extended.pixel(x: 0, y: 0) == SIMD4(0, 0, 255, 255))
    }

    /// A side past 65,535 pixels is refused before any work (413), the source's or the result's,
    /// however few its pixels: a thumbnail of a 1×49,000,000 PNG took 3 GB of resampling weights,
    /// a forced 1×49,000,000 result as much, and a PNG result over libpng's 1,000,000 was a 500.
    @Test func aSideOverTheLimitIsRefusedBeforeAnyWork() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let sliver = Image(width: 1, height: DecodeOptions.defaultMaxSide + 1, pixels: [UInt8](repeating: 255, count: 4 * (DecodeOptions.defaultMaxSide + 1)))
        try sliver.write(toFile: folder.file("root/sliver.png"))
        let service = Self.service(folder)
        for rest in ["/rs:fit:100:100/plain/local:///sliver.png", "/rs:force:1:1500000:1/plain/local:///alpha.png@png",
                     "/rs:force:65536:1:1/plain/local:///alpha.png@webp"] {
            do {
                _ = try Self.get(service, Self.signed(rest))
                Issue.record("\(rest) was made")
            } catch let error as ServiceError {
                #expect(error.status == 413 && error.message.contains("a side longer than the limit of 65535 pixels"), "\(rest): \(error)")
            }
        }
        #expect(try Image(decoding: try Self.get(service, Self.signed("/rs:force:1:65535:1/plain/local:///alpha.png@png")).body).height == 65535)
    }

    /// An animation is served as one (GIF, WebP, APNG), every frame through the steps: the bytes
    /// `frost resize` writes; a still format takes the first frame.
    @Test func animationsStayAnimated() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        try FileManager.default.copyItem(atPath: Corpus.repository + "/Tests/Fixtures/animation/disposal.gif", toPath: folder.file("root/anim.gif"))
        let service = Self.service(folder)
        for ext in ["gif", "webp"] {
            let served = try Self.get(service, Self.signed("/rs:fit:32:0/plain/local:///anim.gif@" + ext))
            let out = folder.file("cli." + ext)
            let run = try FrostRun.run(["resize", folder.file("root/anim.gif"), out, "--width", "32", "--strip"] + (ext == "gif" ? [] : ["--quality", "79"]))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try served.body == FileIO.read(out), "\(ext): the CLI's bytes")
            let animation = try Animation(decoding: served.body)
            #expect(animation.frames.count == 5 && animation.frames[0].width == 32, "\(ext): \(animation.frames.count) frames")
        }
        let still = try Image(decoding: try Self.get(service, Self.signed("/rs:fit:32:0/plain/local:///anim.gif@jpg")).body)
        #expect(still.width == 32)
    }

    /// `g:sm` keeps what draws the eye: a photo on the right of a flat grey canvas is what a
    /// square fill keeps, where `g:ce` keeps half of it; `fp` centres a focus point; both are for
    /// crops only.
    @Test func smartGravityAndFocusPoints() throws {
        let folder = try Self.root()
        defer { folder.remove() }
        let photo = try Image(contentsOfFile: folder.file("root/photos/rocket.jpg")).resized(width: 200, height: 200)
        var canvas = photo.embedded(width: 400, height: 200, x: 200, y: 0, padding: Color(white: 0.5))
        canvas.iccProfile = nil   // served as it is: no conversion to compare through
        try FileIO.writeAtomically(try canvas.encoded(as: .png), to: folder.file("root/canvas.png"))
        let service = Self.service(folder)
        let smart = try Image(decoding: try Self.get(service, Self.signed("/rs:fill:200:200/g:sm/plain/local:///canvas.png")).body)
        #expect(PixelDifference(smart, canvas.cropped(to: PixelBounds(x: 200, y: 0, width: 200, height: 200))).max == 0, "the photo, untouched")
        let centre = try Image(decoding: try Self.get(service, Self.signed("/rs:fill:200:200/plain/local:///canvas.png")).body)
        #expect(PixelDifference(centre, canvas.cropped(to: PixelBounds(x: 100, y: 0, width: 200, height: 200))).max == 0)
        // fp:X:Y centres the crop on the point, kept inside.
        for (box, bounds) in [("100:200", PixelBounds(x: 70, y: 0, width: 100, height: 200)), ("400:100", PixelBounds(x: 0, y: 100, width: 400, height: 100))] {
            let focused = try Image(decoding: try Self.get(service, Self.signed("/rs:fill:\(box)/g:fp:0.3:0.9/plain/local:///canvas.png")).body)
            #expect(PixelDifference(focused, canvas.cropped(to: bounds)).max == 0, "\(box)")
        }
        for refused in ["/ex:1:sm", "/g:sm:1:2", "/g:smart", "/g:fp:0.5", "/g:fp:2:0.5", "/ex:1:fp:0.5"] {
            #expect(throws: ServiceError.self, "\(refused)") { try service.request(Self.signed(refused + "/plain/local:///canvas.png")) }
        }
    }
}

enum ServicePathTestsSupport {
    static func signedInfo(_ rest: String, key: String, salt: String) -> String {
        "/" + URLSignature(keyHex: key, saltHex: salt)!.signature(for: rest) + rest
    }
}

private extension String {
    func replacingOccurrences(of a: String, with b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}
