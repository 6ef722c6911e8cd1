import Foundation
@testable import FrostClients
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// BlurHash and ThumbHash: the strings equal the reference implementations' for the same pixels
/// (PyPI's blurhash-python and thumbhash, run by Tests/References/placeholders.py from the venv
/// `make check` makes: $FROST_REFERENCE_PYTHON), and the hashes decode to their picture.
@Suite struct PlaceholderTests {
    static let python = ProcessInfo.processInfo.environment["FROST_REFERENCE_PYTHON"]

    /// Photos shrunk to at most 100 px by `placeholderSource` (what the tool hashes), and noise of
    /// awkward shapes, each with the components to ask for.
    static func sources() throws -> [(name: String, image: Image, components: (Int, Int))] {
        var out: [(String, Image, (Int, Int))] = []
        for photo in ["UNIS_EV0.jpg", "rocket.jpg", "coffee.png"] {
            let image = try Image(contentsOfFile: Corpus.repository + "/SampleImages/" + photo).placeholderSource()
            out.append((photo, image, BlurHash.components(width: image.width, height: image.height)))
        }
        out.append(("noise-37x23", noiseImage(width: 37, height: 23, opaque: true), (9, 9)))
        out.append(("noise-100x7", noiseImage(width: 100, height: 7, seed: 3, opaque: true), (1, 1)))
        out.append(("noise-5x100", noiseImage(width: 5, height: 100, seed: 5, opaque: true), (3, 7)))
        return out
    }

    @Test(.enabled(if: python != nil, "set FROST_REFERENCE_PYTHON (make check does)"))
    func hashesEqualTheReferences() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sources = try Self.sources()
        var arguments = [Corpus.repository + "/Tests/References/placeholders.py"]
        for (name, image, (cx, cy)) in sources {
            let file = folder.file(name + ".png")
            try image.write(toFile: file)
            arguments += [file, String(cx), String(cy)]
        }
        let run = try FrostRun.run(arguments, executable: Self.python!)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == sources.count)
        for (line, (name, image, (cx, cy))) in zip(lines, sources) {
            let reference = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            #expect(try BlurHash.encode(image, componentsX: cx, componentsY: cy) == reference["blurhash"] as? String, "\(name)")
            #expect(Data(try ThumbHash.encode(image)).base64EncodedString() == reference["thumbhash"] as? String, "\(name)")
        }
    }

    /// A hash decodes to its picture's colours: the decoded placeholder's mean is the source's.
    @Test func hashesDecodeToTheirPicture() throws {
        // Its values as they are (untagged): what is checked is the hashes' round trip, not colour.
        var tagged = try Image(contentsOfFile: Corpus.repository + "/SampleImages/rocket.jpg")
        tagged.iccProfile = nil
        let photo = tagged.placeholderSource()
        let mean = Self.mean(photo)
        let blur = try BlurHash.decode(try BlurHash.encode(photo, componentsX: 4, componentsY: 3), width: 32, height: 32)
        let thumb = try ThumbHash.decode(try ThumbHash.encode(photo))
        for decoded in [blur, thumb] {
            let m = Self.mean(decoded)
            for c in 0..<3 { #expect(abs(m[c] - mean[c]) < 12, "\(m) against \(mean)") }
        }
        // ThumbHash keeps the shape: the photo's ratio to within its seventh.
        let ratio = Double(photo.width) / Double(photo.height)
        #expect(abs(ThumbHash.aspectRatio(try ThumbHash.encode(photo)) - ratio) < 0.25)
        #expect(max(thumb.width, thumb.height) == 32)
    }

    /// The front door's calls shrink the picture first and round-trip through Data.
    @Test func imageCallsShrinkFirst() throws {
        let photo = try Image(contentsOfFile: Corpus.repository + "/SampleImages/UNIS_EV0.jpg")
        let source = photo.placeholderSource()
        #expect(try photo.blurHash() == BlurHash.encode(source, componentsX: 4, componentsY: 3))
        #expect(try photo.blurHash(componentsX: 2, componentsY: 2) == BlurHash.encode(source, componentsX: 2, componentsY: 2))
        let thumb = try photo.thumbHash()
        #expect([UInt8](thumb) == (try ThumbHash.encode(source)))
        #expect(try Image(thumbHash: thumb, size: 20).width == 20)
        #expect(try Image(blurHash: photo.blurHash(), width: 8, height: 6).height == 6)
    }

    /// ThumbHash keeps alpha: a disc on a transparent field decodes transparent at the corners
    /// and opaque in the middle.
    @Test func thumbHashKeepsAlpha() throws {
        var pixels = [UInt8](repeating: 0, count: 48 * 48 * 4)
        for y in 0..<48 {
            for x in 0..<48 where (x - 24) * (x - 24) + (y - 24) * (y - 24) < 18 * 18 {
                pixels.replaceSubrange((4 * (y * 48 + x))..<(4 * (y * 48 + x) + 4), with: [200, 40, 40, 255])
            }
        }
        var disc = Image(width: 48, height: 48, pixels: pixels)
        disc.hasAlpha = true
        let hash = try ThumbHash.encode(disc)
        #expect(hash[2] & 0x80 != 0)
        let decoded = try ThumbHash.decode(hash)
        #expect(decoded.hasAlpha && decoded.width == 32 && decoded.height == 32)
        let corner = decoded.pixels[3], center = 4 * (16 * 32 + 16)
        let (red, green, alpha) = (Int(decoded.pixels[center]), Int(decoded.pixels[center + 1]), Int(decoded.pixels[center + 3]))
        #expect(corner < 60 && alpha > 200)
        #expect(red > green + 80)
    }

    @Test(arguments: ["", "L", "LEHV6nWB2yk8pyo0adR*.7kCMdn", "LEHV6nWB2yk8pyo0adR*.7kCMdnj ", "00"])
    func brokenBlurHashesAreErrors(hash: String) {
        #expect(throws: PlaceholderError.self) { try BlurHash.decode(hash, width: 8, height: 8) }
    }

    @Test func brokenThumbHashesAreErrors() throws {
        #expect(throws: PlaceholderError.self) { try ThumbHash.decode([1, 2, 3]) }
        let hash = try ThumbHash.encode(noiseImage(width: 20, height: 20, opaque: true))
        #expect(throws: PlaceholderError.self) { try ThumbHash.decode(Array(hash.prefix(8))) }
        #expect(throws: PlaceholderError.self) { try BlurHash.encode(noiseImage(width: 4, height: 4), componentsX: 10, componentsY: 1) }
        #expect(throws: PlaceholderError.self) { try ThumbHash.encode(noiseImage(width: 101, height: 4)) }
    }

    /// Components follow the shape: 4 along the longer side, at least 3 across.
    @Test func componentsFollowTheShape() {
        let shapes = [(400, 300), (300, 400), (100, 100), (1000, 100)].map { BlurHash.components(width: $0.0, height: $0.1) }
        #expect(shapes.map(\.x) == [4, 3, 4, 4] && shapes.map(\.y) == [3, 4, 4, 3])
    }

    static func mean(_ image: Image) -> [Double] {
        let p = image.straightRGBA(), n = Double(image.width * image.height)
        return (0..<3).map { c in stride(from: c, to: p.count, by: 4).reduce(0.0) { $0 + Double(p[$1]) } / n }
    }
}
