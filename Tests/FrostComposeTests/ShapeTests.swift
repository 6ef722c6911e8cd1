@testable import FrostCompose
import FrostCore
import Testing

/// Rounded rectangles, borders and gradients against their exact geometry.
@Suite struct ShapeTests {
    @Test(arguments: [(10.0, 20.0, 200.0, 120.0, 30.0), (3.3, 7.6, 80.25, 41.5, 12.0), (0.5, 0.5, 50.0, 50.0, 25.0), (4.0, 4.0, 300.0, 90.0, 8.0)])
    func roundedRectCoverageMatchesTheExactArea(x: Double, y: Double, w: Double, h: Double, r: Double) {
        let rect = Rect(x: x, y: y, width: w, height: h)
        let coverage = ShapeCoverage.roundedRect(rect, radius: r, bounds: rect.pixelBounds)
        let area = coverage.reduce(0.0) { $0 + Double($1) } / 255
        let exact = w * h - (4 - Double.pi) * r * r
        #expect(abs(area - exact) / exact < 0.005, "area \(area) vs \(exact)")
        // The middle is fully covered; a pixel beyond a corner's arc is empty.
        let b = rect.pixelBounds
        #expect(coverage[(b.height / 2) * b.width + b.width / 2] == 255)
        #expect(coverage[0] < 128)
    }

    @Test func alignedRectangleIsExactAndBorderIsARing() {
        let rect = Rect(x: 2, y: 3, width: 10, height: 6)
        let coverage = ShapeCoverage.roundedRect(rect, radius: 0, bounds: PixelBounds(x: 0, y: 0, width: 14, height: 12))
        #expect(coverage.filter { $0 == 255 }.count == 60 && coverage.filter { $0 != 0 && $0 != 255 }.isEmpty)
        #expect(ShapeCoverage.isPixelAligned(rect, radius: 0) && !ShapeCoverage.isPixelAligned(rect, radius: 1))
        let ring = ShapeCoverage.border(rect, radius: 0, width: 1, bounds: rect.pixelBounds)
        #expect(ring.filter { $0 == 255 }.count == 60 - 8 * 4)
    }

    @Test func gradientEndpointsAreExactAndPadded() {
        let red = Color(r: 255, g: 0, b: 0), blue = Color(r: 0, g: 0, b: 255)
        let gradient = Gradient(startX: 0.1, startY: 0.5, endX: 0.9, endY: 0.5, stops: [GradientStop(0, red), GradientStop(1, blue)])
        let bounds = PixelBounds(x: 0, y: 0, width: 100, height: 3)
        let pixels = gradient.pixels(in: Rect(x: 0, y: 0, width: 100, height: 3), bounds: bounds)
        for x in [0, 5, 9] { #expect(Array(pixels[(4 * x)..<(4 * x + 4)]) == [255, 0, 0, 255]) }
        for x in [90, 95, 99] { #expect(Array(pixels[(4 * x)..<(4 * x + 4)]) == [0, 0, 255, 255]) }
        // Pixel 49 has its center at 49.5: t = (49.5 − 10) / 80.
        let t = 39.5 / 80
        #expect(abs(Double(pixels[4 * 49]) - 255 * (1 - t)) <= 1 && abs(Double(pixels[4 * 49 + 2]) - 255 * t) <= 1)
    }

    @Test func gradientToClearInterpolatesPremultiplied() {
        let gradient = Gradient(stops: [GradientStop(0, .white), GradientStop(1, .clear)])
        let c = gradient.color(at: 0.5)
        #expect(c == SIMD4(repeating: 127.5))
    }
}
