import FrostCore
@testable import FrostEffects
import FrostTestSupport
import Testing

/// The smart crop (libvips's attention): it keeps the detailed, colourful part of a picture and
/// falls back to the centre where nothing stands out.
@Suite struct AttentionCropTests {
    /// A flat grey canvas with a noisy, colourful patch `patch` wide at `x`, `y`.
    static func canvas(width: Int, height: Int, patch: Int, x: Int, y: Int) -> Image {
        noiseImage(width: patch, height: patch, opaque: true).embedded(width: width, height: height, x: x, y: y, padding: Color(white: 0.5))
    }

    @Test func theCropKeepsTheDetail() {
        let right = Self.canvas(width: 400, height: 200, patch: 120, x: 270, y: 40)
        #expect(right.attentionCrop(width: 200, height: 200) == PixelBounds(x: 200, y: 0, width: 200, height: 200))
        let left = Self.canvas(width: 400, height: 200, patch: 120, x: 10, y: 40)
        #expect(left.attentionCrop(width: 200, height: 200) == PixelBounds(x: 0, y: 0, width: 200, height: 200))
        // In the middle of a tall picture: the window holds the whole patch.
        let tall = Self.canvas(width: 300, height: 1200, patch: 200, x: 50, y: 620)
        let window = tall.attentionCrop(width: 300, height: 300)
        #expect(window.x == 0 && window.y <= 620 && window.y + 300 >= 820, "\(window)")
    }

    @Test func aFlatPictureIsCroppedAtItsCentre() {
        for (r, g, b) in [(128, 128, 128), (255, 0, 0)] as [(UInt8, UInt8, UInt8)] {
            let flat = Image(width: 301, height: 100, filledWith: (r, g, b, 255))
            #expect(flat.attentionCrop(width: 101, height: 100) == PixelBounds(x: 100, y: 0, width: 101, height: 100), "\((r, g, b))")
            #expect(flat.attentionCrop(width: 301, height: 100) == PixelBounds(x: 0, y: 0, width: 301, height: 100), "the whole: itself")
        }
    }

    @Test func labIsCIELab() {
        let white = AttentionGrid.lab(255, 255, 255), red = AttentionGrid.lab(255, 0, 0)
        #expect(abs(white.0 - 100) < 0.01 && abs(white.1) < 0.01 && abs(white.2) < 0.01)
        // sRGB red: L* 53.24, a* 80.09, b* 67.20 (D65).
        #expect(abs(red.0 - 53.24) < 0.05 && abs(red.1 - 80.09) < 0.1 && abs(red.2 - 67.20) < 0.1, "\(red)")
    }
}
