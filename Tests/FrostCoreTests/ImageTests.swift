@_spi(Kernels) import FrostCore
import FrostTestSupport
import Testing

@Suite struct ImageTests {
    /// A 3×2 grid whose pixels are numbered 0...5 in the red channel.
    ///     0 1 2
    ///     3 4 5
    static let grid = Image(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0, 255] }, hasAlpha: false)

    static func reds(_ image: Image) -> [[Int]] {
        (0..<image.height).map { y in (0..<image.width).map { x in Int(image.pixel(x: x, y: y).x) } }
    }

    /// Each orientation's upright picture, worked out by hand from the EXIF definitions.
    @Test(arguments: [
        (1, [[0, 1, 2], [3, 4, 5]]),
        (2, [[2, 1, 0], [5, 4, 3]]),          // mirrored horizontally
        (3, [[5, 4, 3], [2, 1, 0]]),          // rotated 180°
        (4, [[3, 4, 5], [0, 1, 2]]),          // mirrored vertically
        (5, [[0, 3], [1, 4], [2, 5]]),        // transposed
        (6, [[3, 0], [4, 1], [5, 2]]),        // stored rotated 90° CCW: turn 90° CW
        (7, [[5, 2], [4, 1], [3, 0]]),        // transverse
        (8, [[2, 5], [1, 4], [0, 3]]),        // stored rotated 90° CW: turn 90° CCW
    ])
    func orientationTurnsUpright(tag: Int, expected: [[Int]]) {
        #expect(Self.reds(Self.grid.oriented(Orientation(exifValue: tag))) == expected)
    }

    @Test func invalidOrientationCountsAsUp() {
        #expect(Orientation(exifValue: 0) == .up)
        #expect(Orientation(exifValue: 9) == .up)
        #expect(Orientation(exifValue: -1) == .up)
    }

    @Test func divideBy255RoundsExactly() {
        for x in 0...(255 * 255) {
            #expect(Int(divideBy255(UInt32(x))) == Int((Double(x) / 255).rounded()))
        }
    }

    /// Both SIMD conversions equal their scalar references for every (channel, alpha) pair (as
    /// premultiplied input that includes c > a, which un-premultiplying clamps), with a tail of
    /// three pixels after the groups of eight.
    @Test(arguments: [true, false])
    func alphaConversionsEqualScalarReferences(premultiplying: Bool) {
        var pixels = [UInt8](repeating: 0, count: (256 * 256 + 3) * 4)
        for n in 0..<(256 * 256 + 3) {
            let c = UInt8(n % 256), a = UInt8((n / 256) % 256)
            pixels[4 * n] = c; pixels[4 * n + 1] = 255 &- c; pixels[4 * n + 2] = c &* 7; pixels[4 * n + 3] = a
        }
        let (simdKernel, scalarKernel) = premultiplying ? (premultiply, premultiplyScalar) : (unpremultiply, unpremultiplyScalar)
        var simd = [UInt8](repeating: 0, count: pixels.count), scalar = simd
        pixels.withUnsafeBufferPointer { s in
            simd.withUnsafeMutableBufferPointer { simdKernel(s.baseAddress!, $0.baseAddress!, s.count / 4) }
            scalar.withUnsafeMutableBufferPointer { scalarKernel(s.baseAddress!, $0.baseAddress!, s.count / 4) }
        }
        #expect(simd == scalar)
        let image = Image(width: 256 * 256 + 3, height: 1, pixels: pixels, isPremultiplied: !premultiplying)
        #expect((premultiplying ? image.premultiplied() : image.unpremultiplied()).pixels == scalar)
    }

    @Test func premultiplyRoundsAndUnpremultiplyInverts() {
        let image = Image(width: 4, height: 1, pixels: [200, 100, 50, 128, 255, 255, 255, 0, 10, 20, 30, 255, 255, 0, 0, 1])
        let pre = image.premultiplied()
        #expect(pre.isPremultiplied)
        #expect(Array(pre.pixels[0..<4]) == [100, 50, 25, 128])     // round(200·128/255) = 100
        #expect(Array(pre.pixels[4..<8]) == [0, 0, 0, 0])           // transparent: color goes
        #expect(Array(pre.pixels[8..<12]) == [10, 20, 30, 255])     // opaque: unchanged
        #expect(Array(pre.pixels[12..<16]) == [1, 0, 0, 1])
        let back = pre.unpremultiplied()
        #expect(!back.isPremultiplied)
        #expect(Array(back.pixels[8..<16]) == [10, 20, 30, 255, 255, 0, 0, 1])
        for c in 0..<3 { #expect(abs(Int(back.pixels[c]) - Int(image.pixels[c])) <= 1) }
    }

    @Test func premultiplyRoundTripIsExactForEveryOpaqueAndWithinHalfAStepOtherwise() {
        for a in 1...255 {
            for c in stride(from: 0, through: 255, by: 5) {
                let px = Image(width: 1, height: 1, pixels: [UInt8(c), 0, 0, UInt8(a)])
                let back = px.premultiplied().unpremultiplied()
                // Premultiplying quantises c to steps of 255/a: the trip is off by at most half a step.
                #expect(Double(abs(Int(back.pixels[0]) - c)) <= 255.0 / Double(a) / 2 + 0.5)
            }
        }
    }

    /// One pixel below full alpha anywhere (in either half of a 64-bit word, at a 4 KiB seam, the
    /// odd last pixel past the last whole word) is found; an opaque image is not.
    @Test func containsTransparencyFindsAnyAlphaBelow255() {
        let width = 1031, height = 3  // 3093 pixels: 1546 words and one pixel
        let opaque = Image(width: width, height: height, pixels: (0..<width * height).flatMap { [UInt8($0 & 255), 0, 7, 255] },
                           hasAlpha: true)
        #expect(!opaque.containsTransparency)
        for pixel in [0, 15, 1023, 1024, 3071, 3072, 3092] {
            var image = opaque
            image.pixels[4 * pixel + 3] = 254
            #expect(image.containsTransparency, "pixel \(pixel)")
        }
    }
}
