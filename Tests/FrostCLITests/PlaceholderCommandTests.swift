import Foundation
import FrostCodecs
import FrostCore
import FrostTestSupport
import Testing

/// `frost placeholder`: a line per image as it finishes, JSON with --json, failures reported and
/// the others done; --decode draws a hash.
@Suite struct PlaceholderCommandTests {
    static let photos = ["rocket.jpg", "UNIS_EV0.jpg", "coffee-cutout.png"].map { Corpus.repository + "/SampleImages/" + $0 }

    static func lines(_ run: FrostRun) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    @Test func eachKindGivesAWellFormedPlaceholderPerImage() throws {
        let blur = try FrostRun.run(["placeholder", "--json"] + Self.photos)
        #expect(blur.status == 0, "\(blur.stderr)")
        let hashes = try Self.lines(blur)
        #expect(hashes.map { $0["file"] as? String } == Self.photos)
        #expect(hashes.map { $0["width"] as? Int } == [640, 2048, 600] && hashes.allSatisfy { $0["kind"] as? String == "blurhash" })
        // 4 components along the longer side, 3 across: 4 + 2·12 characters.
        #expect(hashes.allSatisfy { ($0["placeholder"] as? String)?.count == 28 })

        let thumb = try Self.lines(try FrostRun.run(["placeholder", "--kind", "thumbhash", "--json"] + Self.photos))
        let bytes = thumb.map { Data(base64Encoded: $0["placeholder"] as! String).map([UInt8].init) }
        #expect(bytes.allSatisfy { ($0?.count ?? 0) >= 20 })
        #expect(bytes[2]![2] & 0x80 != 0 && bytes[0]![2] & 0x80 == 0)   // the cutout's alpha, the photo's none

        let urls = try Self.lines(try FrostRun.run(["placeholder", "--kind", "data-url", "--max-bytes", "300", "--json"] + Self.photos))
        for line in urls {
            let url = line["placeholder"] as! String
            #expect(url.hasPrefix("data:image/webp;base64,") && url.utf8.count <= 300)
            let webp = try #require(Data(base64Encoded: String(url.dropFirst("data:image/webp;base64,".count))))
            let image = try Image(decoding: [UInt8](webp))
            #expect(max(image.width, image.height) <= 32)
        }
    }

    @Test func aFailedImageIsReportedAndTheOthersAreDone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder.file("broken.jpg")))
        let run = try FrostRun.run(["placeholder", "--jobs", "2", Self.photos[0], folder.file("broken.jpg"), Self.photos[1]])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1 && run.errorLines[0].hasPrefix("frost: \(folder.file("broken.jpg")): "))
        #expect(Set(run.stdout.split(separator: "\n").map { String($0.split(separator: ":")[0]) }) == Set([Self.photos[0], Self.photos[1]]))
        let one = try FrostRun.run(["placeholder", Self.photos[0], Self.photos[1]])
        #expect(Set(one.stdout.split(separator: "\n")) == Set(run.stdout.split(separator: "\n")))
    }

    @Test func decodeDrawsAHashAndRefusesABrokenOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let drawn = try FrostRun.run(["placeholder", "--decode", "LEHV6nWB2yk8pyo0adR*.7kCMdnj", "-o", folder.file("b.png"), "--width", "40", "--height", "30"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let image = try Image(contentsOfFile: folder.file("b.png"))
        #expect(image.width == 40 && image.height == 30)
        let thumb = try FrostRun.run(["placeholder", "--kind", "thumbhash", Self.photos[0]])
        let hash = String(thumb.stdout.split(separator: " ").last!.dropLast())
        #expect(try FrostRun.run(["placeholder", "--kind", "thumbhash", "--decode", hash, "-o", folder.file("t.png")]).status == 0)
        let t = try Image(contentsOfFile: folder.file("t.png"))
        #expect(t.width == 32 && (19...23).contains(t.height))   // the photo's 3:2, to a seventh
        let broken = try FrostRun.run(["placeholder", "--decode", "LEHV6nWB2", "-o", folder.file("x.png")])
        #expect(broken.status == 1 && broken.errorLines.count == 1 && !FileManager.default.fileExists(atPath: folder.file("x.png")))
        #expect(try FrostRun.run(["placeholder", "--decode", "LEHV6nWB2yk8pyo0adR*.7kCMdnj"]).status == 64)
    }
}
