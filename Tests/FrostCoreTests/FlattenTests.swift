@_spi(Kernels) import FrostCore
import FrostTestSupport
import Testing

/// `flattened(onto:)`, what a JPEG is written from: every pixel against "over" computed by hand.
@Suite struct FlattenTests {
    @Test(arguments: [Color.white, .black, Color(r: 220, g: 72, b: 99)])
    func eachPixelIsTheImageOverTheBackground(_ background: Color) {
        let image = noiseImage(width: 37, height: 11)
        let flat = image.flattened(onto: background)
        let premultiplied = image.premultiplied().pixels
        let bg = [background.red, background.green, background.blue].map { Int(($0 * 255).rounded()) }
        #expect(!flat.hasAlpha && flat.isPremultiplied)
        for i in stride(from: 0, to: premultiplied.count, by: 4) {
            let rest = 255 - Int(premultiplied[i + 3])
            for c in 0..<3 {
                #expect(Int(flat.pixels[i + c]) == Int(premultiplied[i + c]) + (bg[c] * rest + 127) / 255, "pixel \(i / 4) channel \(c)")
            }
            #expect(flat.pixels[i + 3] == 255)
        }
    }

    /// Onto black it is the premultiplied image, what JPEGs were written from before.
    @Test func ontoBlackIsPremultiplying() {
        let image = noiseImage(width: 19, height: 7)
        #expect(image.flattened(onto: .black).pixels.enumerated().allSatisfy { i, v in
            i % 4 == 3 ? v == 255 : v == image.premultiplied().pixels[i]
        })
        let opaque = noiseImage(width: 5, height: 5, opaque: true)
        #expect(opaque.flattened(onto: .white).pixels == opaque.pixels)
    }

    @Test func embeddingCopiesThePixelsOntoThePadding() {
        let image = noiseImage(width: 4, height: 3)
        let out = image.embedded(width: 8, height: 5, x: 2, y: 1, padding: Color(r: 255, g: 0, b: 0))
        #expect(out.width == 8 && out.height == 5)
        #expect(Array(out.pixels[0..<4]) == [255, 0, 0, 255])
        #expect(out.cropped(to: PixelBounds(x: 2, y: 1, width: 4, height: 3)).pixels == image.pixels)
    }
}
