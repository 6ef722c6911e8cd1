import FrostCodecs
@testable import FrostCompose
import FrostCore
import FrostTestSupport
import Testing

/// Text through FreeType with the default font (DejaVu Sans, fonts-dejavu-core).
@Suite struct TextTests {
    static func inkBox(_ image: Image) -> (Int, Int, Int, Int) {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > 0 {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return (x0, y0, x1, y1)
    }

    static func render(_ text: TextContent, width: Double = 200, height: Double = 60) throws -> Image {
        let scene = Scene(width: width, height: height, layers: [Layer(.text(text))])
        return try scene.rendered(assets: SceneAssets(for: scene, relativeTo: ""))
    }

    @Test func defaultFontRendersDeterministically() throws {
        let image = try Self.render(TextContent("Frost 2014", size: 20))
        let again = try Self.render(TextContent("Frost 2014", size: 20))
        #expect(image == again)
        let box = Self.inkBox(image)
        // DejaVu Sans at 20 px: cap height ≈ 14.6 px below an ascender of ≈ 18.6 px.
        #expect(box.0 >= 0 && box.0 <= 3 && box.1 >= 3 && box.1 <= 5 && box.3 >= 17 && box.3 <= 19, "\(box)")
        #expect(box.2 > 90 && box.2 < 130, "\(box)")
        // Measured with FreeType 2.12.1 (Debian 12) and DejaVu Sans 2.37: a different font build moves pixels.
        #expect(crc32(image.pixels) == 1_966_189_375, "pixel hash \(String(crc32(image.pixels), radix: 16)) box \(box)")
    }

    @Test func wrapsToTheFrameAndAligns() throws {
        let words = "one two three four five six seven"
        let wrapped = try Self.render(TextContent(words, size: 16), width: 90, height: 200)
        let single = try Self.render(TextContent(words, size: 16, wraps: false), width: 90, height: 200)
        #expect(Self.inkBox(wrapped).3 > 3 * Self.inkBox(single).3, "wrapped text takes several lines")
        #expect(Self.inkBox(wrapped).2 < 90)
        let left = Self.inkBox(try Self.render(TextContent("x", size: 16)))
        let right = Self.inkBox(try Self.render(TextContent("x", size: 16, alignment: .right)))
        let center = Self.inkBox(try Self.render(TextContent("x", size: 16, alignment: .center)))
        #expect(left.0 < 3 && right.2 > 196 && abs((center.0 + center.2) / 2 - 100) <= 2, "\(left) \(center) \(right)")
    }

    @Test func lineHeightSpacesBaselines() throws {
        let tight = Self.inkBox(try Self.render(TextContent("A\nA", size: 16, lineHeight: 20), height: 100))
        let loose = Self.inkBox(try Self.render(TextContent("A\nA", size: 16, lineHeight: 40), height: 100))
        #expect(loose.3 - tight.3 == 20)
    }

    @Test func textColorIsPremultipliedCoverage() throws {
        let image = try Self.render(TextContent("H", size: 40, color: Color(r: 255, g: 0, b: 0)))
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] > 0 {
            #expect(image.pixels[i] == image.pixels[i + 3] && image.pixels[i + 1] == 0)
        }
    }
}
