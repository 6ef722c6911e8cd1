import Foundation
import FrostService
import Testing

/// imgproxy's URLs over HTTP (issue 66): the signature before the grammar, an option where an
/// unsigned URL's signature belongs, Content-Disposition, an expired URL, the formats chosen, the
/// presets file and the watermark flags, sizes an encoder cannot hold, and geometry.
@Suite(.serialized) struct ImgproxyDropInTests {
    @Test func signatureFirstDispositionExpiryAndFormats() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "# presets\ndefault=q:70\nthumb = rs:fill:64:64/pr:thumb\n".write(toFile: folder + "/presets.txt", atomically: true, encoding: .utf8)
        let mark = ServeTests.repository + "/Tests/Corpus/pngsuite/basn6a08.png"
        let server = try ServeTests.start(folder, ["--presets", folder + "/presets.txt", "--watermark", mark,
                                                   "--preferred-formats", "png,jpeg", "--timeout", "120"])
        defer { _ = server.stop() }
        // A forged or unsigned URL is a 403 even when its options do not parse; signed, a 400.
        for path in ["/insecure/zz:1/plain/local:///photos/rocket.jpg", "/forged/rs:fit:a:b/plain/local:///photos/rocket.jpg",
                     "/x/plain/local:///photos/%zz"] {
            #expect(try await HTTP.get(server.base + path).status == 403, "\(path)")
        }
        #expect(try await HTTP.get(server.base + ServeTests.signed("/rs:fit:a:b/plain/local:///photos/rocket.jpg")).status == 400)
        // Content-Disposition, imgproxy's: the source's name with the result's extension, or fn/att.
        let inline = try await HTTP.get(server.base + ServeTests.signed("/rs:fit:100:0/plain/local:///photos/rocket.jpg@webp"))
        #expect(inline.status == 200 && inline.header("Content-Disposition") == "inline; filename=\"rocket.webp\"")
        let attached = try await HTTP.get(server.base + ServeTests.signed("/rs:fit:100:0/fn:beach/att:1/plain/local:///photos/rocket.jpg@webp"))
        #expect(attached.header("Content-Disposition") == "attachment; filename=\"beach.webp\"")
        // An expired URL is a 404; one that expires later bounds Cache-Control.
        #expect(try await HTTP.get(server.base + ServeTests.signed("/exp:1000000000/plain/local:///photos/rocket.jpg")).status == 404)
        let later = Int(Date().timeIntervalSince1970) + 60
        let expiring = try await HTTP.get(server.base + ServeTests.signed("/exp:\(later)/rs:fit:50:0/plain/local:///photos/rocket.jpg"))
        #expect(expiring.status == 200 && (expiring.header("Cache-Control").map { $0.hasPrefix("max-age=5") || $0.hasPrefix("max-age=6") } ?? false))
        // --preferred-formats png,jpeg: a JPEG source stays JPEG; the presets file's default (q:70) and thumb apply.
        let thumb = try await HTTP.get(server.base + ServeTests.signed("/pr:thumb/plain/local:///photos/rocket.jpg"))
        let explicit = try await HTTP.get(server.base + ServeTests.signed("/rs:fill:64:64/q:70/plain/local:///photos/rocket.jpg"))
        #expect(thumb.header("Content-Type") == "image/jpeg" && thumb.body == explicit.body)
        // The watermark flag: wm draws it (the bytes differ from the same URL without it).
        let marked = try await HTTP.get(server.base + ServeTests.signed("/rs:fit:100:0/wm:1:soea/plain/local:///photos/rocket.jpg@png"))
        let plain = try await HTTP.get(server.base + ServeTests.signed("/rs:fit:100:0/plain/local:///photos/rocket.jpg@png"))
        #expect(marked.status == 200 && marked.body != plain.body)
        // Sizes an encoder cannot hold: WebP scaled down (200), JPEG past 65500 a 422; never a 500.
        let wide = try await HTTP.get(server.base + ServeTests.signed("/rs:fill:20000:100:1/plain/local:///photos/rocket.jpg@webp"))
        #expect(wide.status == 200, "\(wide.status) \(String(decoding: wide.body.prefix(300), as: UTF8.self))")
        let jpeg = try await HTTP.get(server.base + ServeTests.signed("/rs:fill:65535:1:1/plain/local:///photos/rocket.jpg@jpg"))
        #expect(jpeg.status == 422 && String(decoding: jpeg.body, as: UTF8.self).contains("65500"))
        // A non-centre gravity costs what the centred one does (issue: 413 against 200).
        for gravity in ["", "/g:no"] {
            let path = ServeTests.signed("/rs:fill:7000:100:1\(gravity)/plain/local:///photos/rocket.jpg@png")
            #expect(try await HTTP.get(server.base + path).status == 200, "\(gravity)")
        }
        // imgproxy's geometry: rs:fill:300:200/dpr:2 on the 640×427 photo is 600×400 (a 400×300 would be 400×267).
        let filled = try await HTTP.get(server.base + ServeTests.signed("/rs:fill:300:200/dpr:2/plain/local:///photos/rocket.jpg@png"))
        #expect(Self.pngSize(filled.body) == [600, 400])
    }

    /// With --allow-unsigned, a first segment that parses as an option is not a signature: 403.
    @Test func anOptionWhereTheSignatureBelongsIs403() async throws {
        let folder = try ServeTests.root()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let open = try ServerProcess(["--root", folder + "/served", "--allow-unsigned"])
        defer { _ = open.stop() }
        #expect(try await HTTP.get(open.base + "/rs:fit:300:0/plain/local:///photos/rocket.jpg").status == 403)
        #expect(try await HTTP.get(open.base + "/_/rs:fit:300:0/plain/local:///photos/rocket.jpg").status == 200)
        // A CDN's `local:/` and `%3A` are repaired.
        #expect(try await HTTP.get(open.base + "/_/rs%3Afit%3A30%3A0/plain/local:/photos/rocket.jpg").status == 200)
    }

    /// A PNG's width and height, from its IHDR.
    static func pngSize(_ png: [UInt8]) -> [Int] {
        guard png.count >= 24 else { return [] }
        return [16, 20].map { at in png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    }
}
