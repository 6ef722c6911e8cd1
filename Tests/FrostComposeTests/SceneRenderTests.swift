import FrostCodecs
@testable import FrostCompose
import FrostCore
import FrostEffects
import FrostFiles
import FrostTestSupport
import Testing

/// Whole scenes against references computed another way.
@Suite struct SceneRenderTests {
    static func sample(_ image: Image, _ x: Int, _ y: Int) -> SIMD4<Int> {
        SIMD4<Int>(truncatingIfNeeded: image.pixel(x: x, y: y))
    }

    @Test func overlappingLayersMatchAFloatSourceOver() throws {
        let a = Color(r: 200, g: 40, b: 90, a: 180), b = Color(r: 10, g: 220, b: 130, a: 100)
        let scene = Scene(width: 20, height: 10, background: Color(r: 30, g: 30, b: 200, a: 60), layers: [
            Layer(.color(a), frame: Rect(x: 0, y: 0, width: 12, height: 10)),
            Layer(.color(b), frame: Rect(x: 8, y: 0, width: 12, height: 10), opacity: 0.7),
        ])
        let image = try scene.rendered()
        #expect(image.isPremultiplied && image.hasAlpha)
        func over(_ s: SIMD4<Double>, _ d: SIMD4<Double>) -> SIMD4<Double> { s + d * (1 - s[3] / 255) }
        let bg = scene.background.premultiplied255, pa = a.premultiplied255, pb = b.premultiplied255 * 0.7
        for (x, expected) in [(2, over(pa, bg)), (10, over(pb, over(pa, bg))), (17, over(pb, bg))] {
            let got = Self.sample(image, x, 5)
            for c in 0..<4 { #expect(abs(Double(got[c]) - expected[c]) <= 1, "x \(x) sample \(c): \(got) vs \(expected)") }
        }
    }

    @Test func opaqueBackgroundGivesAnOpaqueImageAndClearKeepsAlpha() throws {
        var scene = Scene(width: 8, height: 8, scale: 2, background: .white,
                          layers: [Layer(.color(Color(white: 0, alpha: 0.5)), frame: Rect(x: 1, y: 1, width: 3, height: 3), cornerRadius: 1)])
        let opaque = try scene.rendered()
        #expect(opaque.width == 16 && !opaque.hasAlpha && !opaque.containsTransparency)
        scene.background = .clear
        let clear = try scene.rendered()
        #expect(clear.hasAlpha && clear.pixel(x: 0, y: 0) == SIMD4(0, 0, 0, 0) && clear.pixel(x: 4, y: 4)[3] == 128)
    }

    @Test func shadowIsTheBlurredOffsetAlphaOfItsLayer() throws {
        let frame = Rect(x: 30, y: 20, width: 40, height: 24)
        let shadow = Shadow(color: Color(r: 0, g: 0, b: 120), opacity: 0.5, radius: 8, offsetX: 6, offsetY: 9)
        let scene = Scene(width: 120, height: 90, layers: [Layer(.color(.white), frame: frame, shadow: shadow)])
        let image = try scene.rendered(threads: 1)
        // The reference: the layer's alpha on a transparent canvas, colored, blurred by σ = radius / 2, moved.
        var mask = Image(width: 120, height: 90, filledWith: (0, 0, 0, 0), isPremultiplied: true)
        for y in 0..<90 where y >= 20 + 9 && y < 44 + 9 {
            for x in 0..<120 where x >= 30 + 6 && x < 70 + 6 {
                let i = (y * 120 + x) * 4
                mask.pixels[i + 2] = 60; mask.pixels[i + 3] = 128
            }
        }
        let reference = mask.gaussianBlurred(sigma: 4)
        var worst = 0
        for y in 0..<90 {
            for x in 0..<120 where !(x >= 30 && x < 70 && y >= 20 && y < 44) {
                let d = Self.sample(image, x, y) &- Self.sample(reference, x, y)
                worst = max(worst, Int(d.replacing(with: 0 &- d, where: d .< 0).max()))
            }
        }
        #expect(worst <= 1, "shadow differs from the blurred alpha by \(worst)")
        #expect(image.pixel(x: 50, y: 30) == SIMD4(255, 255, 255, 255))
        #expect(image.pixel(x: 100, y: 70)[3] < 3 && image.pixel(x: 70, y: 48)[3] > 20)
    }

    @Test func oversizedCanvasesAndShadowsAreErrors() {
        #expect(throws: ComposeError("canvas", "100000×100000 pixels is more than the limit of 256000000")) {
            try Scene(width: 100_000, height: 100_000).rendered()
        }
        let shadow = Scene(width: 100, height: 100, scale: 16, layers: [Layer(.color(.white), shadow: Shadow(radius: 1000))])
        #expect(throws: ComposeError.self) { try shadow.rendered() }
    }

    @Test func aTinyFrameShrinksAnImageToAPixelQuickly() throws {
        let photo = noiseImage(width: 300, height: 200, opaque: true)
        let scene = Scene(width: 10, height: 10, layers: [Layer(.image(.pixels(photo), .fill), frame: Rect(x: 2, y: 2, width: 0.001, height: 0.001))])
        let image = try scene.rendered()
        #expect(image.pixel(x: 2, y: 2)[3] == 0 && image.pixel(x: 5, y: 5)[3] == 0)
    }

    @Test func gradientMaskFadesTheLayer() throws {
        let mask = Mask.gradient(Gradient(stops: [GradientStop(0, .clear), GradientStop(1, .black)]))
        let scene = Scene(width: 4, height: 100, layers: [Layer(.color(.white), mask: mask)])
        let image = try scene.rendered()
        for y in [0, 10, 50, 99] {
            #expect(abs(Double(image.pixel(x: 2, y: y)[3]) - (Double(y) + 0.5) / 100 * 255) <= 1)
        }
    }

    @Test func imageMaskUsesAlphaOrLuminance() throws {
        // Left half white, right half black, fully opaque.
        var pattern = Image(width: 10, height: 10, filledWith: (0, 0, 0, 255))
        for y in 0..<10 { for x in 0..<5 { for c in 0..<3 { pattern.pixels[(y * 10 + x) * 4 + c] = 255 } } }
        for (channel, left, right) in [(MaskChannel.luminance, 255, 0), (.alpha, 255, 255)] as [(MaskChannel, UInt8, UInt8)] {
            let scene = Scene(width: 10, height: 10, layers: [Layer(.color(.black), mask: .image(.pixels(pattern), channel))])
            let image = try scene.rendered()
            #expect(image.pixel(x: 1, y: 5)[3] == left && image.pixel(x: 8, y: 5)[3] == right, "\(channel)")
        }
    }

    @Test func transformScalesAboutTheCenterAndGroupsClip() throws {
        let scene = Scene(width: 100, height: 100, layers: [
            Layer(.group([Layer(.color(.black), frame: Rect(x: -50, y: -50, width: 300, height: 300))]),
                  frame: Rect(x: 20, y: 20, width: 60, height: 60), transform: Transform(scale: 0.5, translateX: 10)),
        ])
        let image = try scene.rendered()
        // 60 × 0.5 = 30 wide around the center (50, 50), moved 10 right: x 45..<75, y 35..<65.
        let covered = (0..<(100 * 100)).filter { image.pixels[4 * $0 + 3] == 255 }
        #expect(covered.count == 900)
        #expect(image.pixel(x: 45, y: 35)[3] == 255 && image.pixel(x: 44, y: 35)[3] == 0 && image.pixel(x: 75, y: 50)[3] == 0)
    }

    @Test func imageContentModesPlaceThePicture() throws {
        let picture = Image(width: 40, height: 20, filledWith: (255, 0, 0, 255))
        for (mode, coveredPixels) in [(ContentMode.fill, 1600), (.aspectFill, 1600), (.aspectFit, 800), (.center, 800)] {
            let scene = Scene(width: 40, height: 40, layers: [Layer(.image(.pixels(picture), mode))])
            let image = try scene.rendered()
            #expect((0..<1600).filter { image.pixels[4 * $0 + 3] == 255 }.count == coveredPixels, "\(mode)")
        }
    }

    /// An opaque picture covering the canvas at a fractional placement replaces the canvas with
    /// exactly the resampled picture (the copy path), and one that does not cover it is clipped.
    @Test func anOpaquePictureCoveringTheCanvasIsTheResampledPicture() throws {
        let picture = noiseImage(width: 37, height: 23, opaque: true)
        let scene = Scene(width: 50, height: 30, background: Color(r: 255, g: 0, b: 0), layers: [Layer(.image(.pixels(picture), .aspectFill))])
        let placed = SceneRenderer.place(width: 37, height: 23, in: Rect(x: 0, y: 0, width: 50, height: 30), mode: .aspectFill, zoom: 1)
        #expect(placed.covers(PixelBounds(x: 0, y: 0, width: 50, height: 30)) && placed.y != placed.y.rounded())
        let expected = picture.resampled(over: placed, region: PixelBounds(x: 0, y: 0, width: 50, height: 30))
        #expect(try scene.rendered().pixels == expected.pixels)
        #expect(!placed.insetBy(1).covers(PixelBounds(x: 0, y: 0, width: 50, height: 30)))
    }

    @Test func backdropBlursWhatIsBeneathOnlyInsideItsFrame() throws {
        let photo = noiseImage(width: 60, height: 60, opaque: true)
        let scene = Scene(width: 60, height: 60, layers: [
            Layer(.image(.pixels(photo), .fill)),
            Layer(.backdrop(EffectParameters(radius: 3)), frame: Rect(x: 0, y: 30, width: 60, height: 30)),
        ])
        let image = try scene.rendered()
        #expect(Array(image.pixels[0..<(60 * 30 * 4)]) == Array(photo.pixels[0..<(60 * 30 * 4)]))
        // Inside the frame: the ImageEffects blur of the whole picture (the boxes reach across the frame's top edge).
        let blurred = photo.applyBlur(radius: 3)
        #expect(Array(image.pixels[(60 * 40 * 4)...]) == Array(blurred.pixels[(60 * 40 * 4)...]))
    }

    @Test func texturesAreDeterministicMidGray() throws {
        for pattern in TexturePattern.allCases {
            let scene = Scene(width: 64, height: 64, layers: [Layer(.texture(.pattern(pattern, spacing: 4, seed: 7)))])
            let a = try scene.rendered(), b = try scene.rendered()
            #expect(a == b && !a.containsTransparency && a.isVisuallyGray)
            let mean = stride(from: 0, to: a.pixels.count, by: 4).reduce(0) { $0 + Int(a.pixels[$1]) } / (64 * 64)
            #expect((110...146).contains(mean), "\(pattern) mean \(mean)")
        }
    }

    @Test func everySampleSceneRenders() throws {
        let folder = Corpus.repository + "/SampleImages/scenes"
        for name in ["secret-post", "secret-text", "appstore-card", "twitter-header"] {
            let scene = try Scene(json: try FileIO.read("\(folder)/\(name).json"))
            let image = try scene.rendered(assets: SceneAssets(for: scene, relativeTo: folder))
            #expect(image.width == scene.pixelWidth && image.height == scene.pixelHeight && !image.hasAlpha, "\(name)")
            #expect(Set(stride(from: 0, to: image.pixels.count, by: 4 * 97).map { image.pixels[$0] }).count > 20, "\(name) looks flat")
        }
    }
}
