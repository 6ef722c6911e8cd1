import FrostCore
@testable import FrostEffects
import FrostTestSupport
import Testing

/// The operations the image service adds to the library: a resize that makes only a region,
/// libvips's trim, and a layer drawn with source-over.
@Suite struct ServiceOperationTests {
    /// A picture whose pixels all differ, with some transparency.
    static func picture(_ width: Int, _ height: Int, alpha: Bool = false) -> Image {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            pixels[4 * i] = UInt8(i % 251)
            pixels[4 * i + 1] = UInt8(i / width % 256)
            pixels[4 * i + 2] = UInt8((i * 7) % 253)
            if alpha { pixels[4 * i + 3] = UInt8(128 + i % 128) }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: alpha)
    }

    /// A region of a resize is that part of the whole resize, pixel for pixel, for every kernel
    /// (shrinking and enlarging, with alpha).
    @Test func aResizedRegionIsTheCroppedResize() {
        let image = Self.picture(97, 61, alpha: true)
        for kernel in ResampleKernel.allCases {
            for (w, h, region) in [(40, 30, PixelBounds(x: 7, y: 3, width: 20, height: 25)), (300, 150, PixelBounds(x: 101, y: 0, width: 150, height: 150)),
                                   (40, 30, PixelBounds(x: 0, y: 0, width: 40, height: 30))] {
                let whole = image.resized(width: w, height: h, kernel: kernel).cropped(to: region)
                let part = image.resized(width: w, height: h, keeping: region, kernel: kernel)
                #expect(part.pixels == whole.pixels && part.isPremultiplied == whole.isPremultiplied, "\(kernel) \(w)×\(h) \(region): \(PixelDifference(part, whole))")
            }
        }
    }

    /// The border of one colour is found (a speck of one pixel does not count: the median), with
    /// a given colour, the equal margins, a transparent border, and nothing to cut.
    @Test func trimFindsTheBorder() {
        var canvas = Image(width: 60, height: 40, filledWith: (10, 200, 30, 255))
        canvas.paste(Self.picture(20, 10), x: 15, y: 8)
        canvas.paste(Image(width: 1, height: 1, filledWith: (255, 0, 0, 255)), x: 2, y: 35)   // a speck
        #expect(canvas.trimBounds(threshold: 10) == PixelBounds(x: 15, y: 8, width: 20, height: 10))
        #expect(canvas.trimBounds(threshold: 10, color: Color(r: 10, g: 200, b: 30)) == PixelBounds(x: 15, y: 8, width: 20, height: 10))
        // Margins 15 and 25 across, 8 and 22 down: the smaller of each pair on both sides.
        #expect(canvas.trimBounds(threshold: 10, equalHorizontal: true, equalVertical: true) == PixelBounds(x: 15, y: 8, width: 30, height: 24))
        #expect(Image(width: 9, height: 9, filledWith: (1, 2, 3, 255)).trimBounds(threshold: 10) == nil, "all border")
        var clear = Image(width: 30, height: 30, filledWith: (0, 0, 0, 0))
        clear.paste(Image(width: 4, height: 5, filledWith: (9, 9, 9, 255)), x: 20, y: 3)
        #expect(clear.trimBounds(threshold: 10) == PixelBounds(x: 20, y: 3, width: 4, height: 5))
    }

    /// A layer drawn over a picture is source-over pixel by pixel (SourceOver's scalar reference),
    /// clipped at the edges; outside the layer the picture is untouched.
    @Test func aLayerIsDrawnWithSourceOverAndClipped() {
        let base = Self.picture(50, 40).premultiplied(), layer = Self.picture(20, 30, alpha: true).premultiplied()
        var drawn = base
        drawn.drawOver(layer, x: 40, y: -5, opacity: 0.6)
        let k = Image.layerOpacity(0.6)
        for y in 0..<40 {
            for x in 0..<50 {
                let inside = x >= 40 && y < 25
                var expected = base.pixel(x: x, y: y)
                if inside {
                    var one = [UInt8](repeating: 0, count: 4)
                    let s = layer.pixel(x: x - 40, y: y + 5), d = base.pixel(x: x, y: y)
                    let src = [s[0], s[1], s[2], s[3]], dst = [d[0], d[1], d[2], d[3]]
                    SourceOver.runScalar(src, over: dst, into: &one, pixels: 1, opacity: k)
                    expected = SIMD4(one[0], one[1], one[2], one[3])
                }
                #expect(drawn.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }
}
