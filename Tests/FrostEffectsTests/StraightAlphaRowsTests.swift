@testable import FrostEffects
@_spi(Kernels) import FrostCore
import FrostTestSupport
import Testing

/// Kernels read straight-alpha images through `StraightAlphaRows` (premultiplied as each row is
/// read) instead of a premultiplied copy: the result must be the same bytes as premultiplying first.
@Suite struct StraightAlphaRowsTests {
    /// Odd width (a pixel tail after every SIMD step) and every alpha value in the noise.
    static let straight = noiseImage(width: 67, height: 45)

    @Test(arguments: ["gauss 0.8", "gauss 4", "gauss 20", "box 3", "box 3 horizontal", "box 3 vertical", "box 30"])
    func blurReadsAsIfPremultipliedFirst(_ name: String) {
        let premultiplied = Self.straight.premultiplied()
        #expect(!Self.straight.isPremultiplied && Self.straight.readsStraightAlpha)
        let parts = name.split(separator: " ")
        let value = Double(parts[1])!
        for threads in [1, 2] {
            func run(_ image: Image) -> Image {
                switch (parts[0], parts.count > 2 ? String(parts[2]) : "both") {
                case ("gauss", _): image.gaussianBlurred(sigma: value, threads: threads)
                case (_, let axes): image.boxBlurred(radius: Int(value), axes: BlurAxes(rawValue: axes)!, threads: threads)
                }
            }
            let fused = run(Self.straight), separate = run(premultiplied)
            #expect(fused.isPremultiplied)
            #expect(fused == separate, "\(name), \(threads) threads: \(PixelDifference(fused, separate))")
        }
    }

    @Test func rowsArePremultipliedRows() {
        let image = Self.straight
        image.withPlane { plane in
            let rows = StraightAlphaRows(plane: plane)
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * image.width)
            defer { scratch.deallocate() }
            let expected = image.premultiplied().pixels
            for y in [0, 17, image.height - 1] {
                let row = Array(UnsafeBufferPointer(start: rows.row(y, scratch: scratch), count: 4 * image.width))
                #expect(row == Array(expected[(4 * image.width * y)..<(4 * image.width * (y + 1))]))
            }
        }
    }

    /// Every (color, alpha) pair: the affine kernel's float premultiply rounds exactly as
    /// `premultiplyScalar` (an identity matrix shows the premultiplied input itself).
    @Test func affineKernelPremultipliesEveryPairExactly() {
        var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for a in 0..<256 {
            for c in 0..<256 {
                let i = 4 * (a * 256 + c)
                pixels[i] = UInt8(c); pixels[i + 1] = UInt8(255 - c); pixels[i + 2] = UInt8(c ^ 0x5A); pixels[i + 3] = UInt8(a)
            }
        }
        var expected = pixels, fused = pixels
        expected.withUnsafeMutableBufferPointer { premultiplyScalar($0.baseAddress!, into: $0.baseAddress!, pixels: 65536) }
        let identity = AffineColorKernel(matrix: (0..<4).map { r in (0..<4).map { $0 == r ? 1 : 0 } })
        pixels.withUnsafeBufferPointer { source in
            fused.withUnsafeMutableBufferPointer {
                identity.apply(source.baseAddress!, into: $0.baseAddress!, pixels: 65536, threads: 1, alpha: .premultiplying)
            }
        }
        #expect(fused == expected)
    }

    /// Adjusting a straight image equals adjusting its premultiplied copy, through the SIMD
    /// groups and the scalar tail, in place and out of place.
    @Test func affineKernelPremultiplyingEqualsPremultipliedFirst() {
        let kernel = ColorAdjustment(brightness: 0.1, contrast: 1.3, saturation: 1.6).affineKernel
        let count = Self.straight.width * Self.straight.height
        var separate = Self.straight.premultiplied().pixels
        separate.withUnsafeMutableBufferPointer { kernel.apply($0.baseAddress!, into: $0.baseAddress!, pixels: count, threads: 1) }
        var inPlace = Self.straight.pixels
        inPlace.withUnsafeMutableBufferPointer {
            kernel.apply($0.baseAddress!, into: $0.baseAddress!, pixels: count, threads: 2, alpha: .premultiplying)
        }
        #expect(inPlace == separate)
    }
}
