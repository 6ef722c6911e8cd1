import CFrostSystem
import Foundation
@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// Linear light: the decode and its passes against their scalar references, and blurs, resizes
/// and blends against a Double evaluation of the same operation on light (IEC 61966-2-1).
@Suite struct LinearLightTests {
    static func light(_ byte: Int) -> Double {
        let v = Double(byte) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func byte(_ light: Double) -> Double {
        let l = min(max(light, 0), 1)
        return 255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055)
    }

    /// Rows of alternating black and white lines, `vertical` or horizontal, RGB.
    static func lines(width: Int, height: Int, vertical: Bool) -> Image {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width where (vertical ? x : y) % 2 == 1 {
                for c in 0..<3 { pixels[(y * width + x) * 4 + c] = 0 }
            }
        }
        return Image(width: width, height: height, pixels: pixels, hasAlpha: false)
    }

    @Test func theDecodeIsTheRoundedCurveAndEveryByteComesBack() {
        let bytes: [UInt8] = (0..<256).flatMap { b -> [UInt8] in [UInt8(b), UInt8(b), UInt8(b), 255] }
        var linear = [UInt16](repeating: 0, count: bytes.count)
        frost_linear_decode(bytes, &linear, 256, 0)
        for b in 0..<256 {
            #expect(abs(Double(linear[4 * b]) - 32640 * Self.light(b)) <= 0.5, "byte \(b): \(linear[4 * b])")
            #expect(linear[4 * b + 3] == 32640)
        }
        var encoded = [UInt8](repeating: 0, count: bytes.count)
        LinearLight.encode(&linear, pixels: 256, into: &encoded)
        #expect(encoded == bytes)
    }

    /// The AVX2 and AVX-512 forms equal their scalar references exactly (in builds without AVX2
    /// all are the scalar code): the decode with and without alpha over every pixel count up to 37
    /// (the tails), the passes over spans even and odd.
    @Test(.serialized, arguments: [false, true]) func vectorFormsEqualTheScalarOnes(avx512: Bool) {
        frost_resample_use_vnni(avx512 ? 1 : 0)
        defer { frost_resample_use_vnni(1) }
        var random = XorShift64(seed: 11)
        for pixels in 0..<37 {
            let bytes = (0..<(4 * pixels)).map { _ in UInt8(truncatingIfNeeded: random.next() >> 40) }
            for straight: Int32 in [0, 1] {
                var fast = [UInt16](repeating: 0, count: 4 * pixels), slow = fast
                frost_linear_decode(bytes, &fast, pixels, straight)
                frost_linear_decode_scalar(bytes, &slow, pixels, straight)
                #expect(fast == slow, "decode, \(pixels) pixels, straight \(straight)")
                var sums = (0..<(4 * pixels)).map { UInt32($0 * 1000) }, slowSums = sums
                frost_linear_decode_add(bytes, &sums, pixels, straight)
                frost_linear_decode_add_scalar(bytes, &slowSums, pixels, straight)
                #expect(sums == slowSums && zip(sums, slow).enumerated().allSatisfy { $1.0 == UInt32($0 * 1000) + UInt32($1.1) },
                        "decode and add, \(pixels) pixels, straight \(straight)")
            }
        }
        for taps in [1, 2, 3, 6, 7, 22, 23] {
            let width = 90, count = 41, shift: Int32 = 14
            func weight() -> UInt32 { UInt32(UInt16(bitPattern: Int16(Int(random.next() % 5000) - 1200))) }
            let pairs = (0..<(count * ((taps + 1) / 2))).map { j in (j % ((taps + 1) / 2) * 2 + 1 < taps ? weight() : 0) << 16 | weight() }
            // Paired rows (any samples will do), with the four pixels the vector form reads past a window.
            let rows = (0..<2).map { _ in (0..<(4 * width + 16)).map { _ in UInt16(random.next() % 32_641) } }
            let first = (0..<count).map { _ in Int32(random.next() % UInt64(width - taps)) }
            var laid = [UInt32](repeating: 0, count: 8 * Int(frost_linear_horizontal_steps(Int32(taps))) * count)
            frost_linear_horizontal_weights(first, pairs, Int32(taps), count, &laid)
            for nrows in 1...2 {
                let outs = (0..<nrows).map { _ in UnsafeMutablePointer<UInt16>.allocate(capacity: 4 * count) }
                defer { outs.forEach { $0.deallocate() } }
                ResizeTests.withRows(rows) { input in
                    frost_linear_horizontal(input, Int32(nrows), first, pairs, laid, Int32(taps), shift, count, outs.map { $0 })
                }
                let fast = outs.map { Array(UnsafeBufferPointer(start: $0, count: 4 * count)) }
                var slow = fast.map { $0.map { _ in UInt16(0) } }
                for r in 0..<nrows { frost_linear_horizontal_scalar(rows[r], first, pairs, Int32(taps), shift, 0, count, &slow[r]) }
                #expect(fast == slow, "horizontal, \(taps) taps, \(nrows) rows")
            }

            // An even pixel count and an odd one (its last pixel's partner 0).
            for samples in [4 * 77 + 4, 4 * 77] {
                let columns = (0..<taps).map { _ in (0..<samples).map { _ in UInt16(random.next() % 32_641) } }
                let paired = (samples + 7) / 8 * 8
                var up = [UInt16](repeating: 1, count: paired), down = up
                let tapPairs = Array(pairs.prefix((taps + 1) / 2))
                let otherPairs = Array(pairs.suffix((taps + 1) / 2))
                var firstOfTwo = up, second = up, other = up
                ResizeTests.withRows(columns) { pointers in
                    frost_linear_vertical(pointers, tapPairs, Int32(taps), shift, samples, &up, nil)
                    frost_linear_vertical_scalar(pointers, tapPairs, Int32(taps), shift, 0, samples, &down)
                    // With rows to ask for ahead (the window's own: asking changes no sample).
                    var rowBytes = (0..<taps).map { UnsafeRawPointer(pointers[$0]!).assumingMemoryBound(to: UInt8.self) as UnsafePointer<UInt8>? }
                    rowBytes.withUnsafeMutableBufferPointer { list in
                        var ahead = frost_rows_ahead(rows: list.baseAddress!, count: Int32(taps), bytes: 2 * samples)
                        frost_linear_vertical_two(pointers, tapPairs, otherPairs, Int32(taps), shift, samples, &firstOfTwo, &second, &ahead)
                    }
                    frost_linear_vertical_scalar(pointers, otherPairs, Int32(taps), shift, 0, samples, &other)
                }
                #expect(firstOfTwo == down && second == other, "two verticals, \(taps) taps, \(samples) samples")
                #expect(up == down, "vertical, \(taps) taps, \(samples) samples")
                if paired > samples { #expect(stride(from: paired - 7, to: paired, by: 2).allSatisfy { down[$0] == 0 }) }
            }
        }
    }

    /// The issue's check: a 2× shrink of 1-pixel black and white lines is half the light, 187–188
    /// (gamma-space arithmetic gives 128), with every sampled filter along both axes, and the
    /// gamma-space result is unchanged by the option's existence.
    @Test(arguments: [ResampleKernel.area, .linear, .cubic, .mitchell, .lanczos3])
    func halvingLinesGivesHalfTheLight(kernel: ResampleKernel) {
        for vertical in [false, true] {
            let image = Self.lines(width: 64, height: 64, vertical: vertical)
            let small = image.resized(width: 32, height: 32, kernel: kernel, linear: true)
            // The interior (filters that reach past the edge repeat the border line there).
            for y in 4..<28 {
                for x in 4..<28 {
                    let v = small.pixels[(y * 32 + x) * 4]
                    #expect((187...188).contains(v), "\(kernel), \(vertical ? "vertical" : "horizontal") lines: \(v) at \(x),\(y)")
                }
            }
            let gamma = image.resized(width: 32, height: 32, kernel: kernel)
            #expect(gamma.pixels[(16 * 32 + 16) * 4] == 128)
        }
    }

    /// Every filter, shrinking and enlarging, within a level of the Double evaluation on light (taps
    /// as ResizeTests writes them, the vertical pass first, samples clamped to 0…1 after each pass
    /// as the passes clamp), on a photo crop, opaque and with alpha (premultiplied bytes compared:
    /// a straight colour under a low alpha is imprecise in any premultiplied pipeline).
    @Test(arguments: [ResampleKernel.area, .linear, .cubic, .mitchell, .lanczos3, .nearest])
    func resizesMatchTheirDoubleReferenceOnLight(kernel: ResampleKernel) throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/coffee.png")).cropped(x: 100, y: 60, width: 61, height: 47)
        var alpha = photo
        for i in stride(from: 3, to: alpha.pixels.count, by: 4) { alpha.pixels[i] = UInt8((i / 4 * 37) % 256) }
        alpha.hasAlpha = true
        for image in [photo, alpha] {
            for (w, h) in [(20, 15), (33, 47), (97, 80)] {
                let frost = image.resized(width: w, height: h, kernel: kernel, linear: true).premultiplied()
                let reference = Self.resizedLight(image, kernel, width: w, height: h)
                let worst = zip(frost.pixels, reference).map { abs(Double($0) - $1) }.max()!
                #expect(worst <= (image.hasAlpha ? 1.5 : 1), "\(kernel) → \(w)×\(h)\(image.hasAlpha ? " alpha" : ""): \(worst)")
            }
        }
    }

    /// Premultiplied RGBA (0…255) of `image` resized in light, in Double.
    static func resizedLight(_ image: Image, _ kernel: ResampleKernel, width w: Int, height h: Int) -> [Double] {
        let xs = (0..<w).map { ResizeTests.taps(kernel, image.width, origin: 0, length: Double(w), output: $0) }
        let ys = (0..<h).map { ResizeTests.taps(kernel, image.height, origin: 0, length: Double(h), output: $0) }
        let width = image.width, source = stride(from: 0, to: image.pixels.count, by: 4).flatMap { i -> [Double] in
            let a = image.hasAlpha ? Double(image.pixels[i + 3]) / 255 : 1
            return (0..<3).map { Self.light(Int(image.pixels[i + $0])) * a } + [a]
        }
        func clamp(_ v: Double) -> Double { min(max(v, 0), 1) }
        var columns = [Double](repeating: 0, count: h * width * 4)
        for (j, taps) in ys.enumerated() {
            for i in 0..<(4 * width) { columns[j * width * 4 + i] = clamp(taps.reduce(0) { $0 + source[$1.key * width * 4 + i] * $1.value }) }
        }
        var out = [Double](repeating: 0, count: w * h * 4)
        for j in 0..<h {
            for (i, taps) in xs.enumerated() {
                var px = (0..<4).map { c in clamp(taps.reduce(0) { $0 + columns[(j * width + $1.key) * 4 + c] * $1.value }) }
                for c in 0..<3 { px[c] = px[3] > 0 ? Self.byte(min(px[c], px[3]) / px[3]) * px[3] : 0 }
                px[3] *= 255
                for c in 0..<4 { out[(j * w + i) * 4 + c] = px[c] }
            }
        }
        return out
    }

    /// σ from a direct kernel to reductions by 2, 4 and 8, within a level of the exact gaussian
    /// on light (GaussianReference's matrices on linear samples) on a photo crop.
    @Test(arguments: [1.5, 5, 9, 20, 40])
    func blursMatchTheExactGaussianOnLight(sigma: Double) throws {
        let photo = try Image(contentsOfFile: Corpus.path("photos/rocket.jpg")).cropped(x: 300, y: 200, width: 96, height: 80)
        let frost = photo.gaussianBlurred(sigma: sigma, linear: true)
        let w = photo.width, h = photo.height
        let light = photo.pixels.enumerated().map { $0.offset % 4 == 3 ? 1 : Self.light(Int($0.element)) }
        let mx = GaussianReference.matrix(size: w, sigma: sigma), my = GaussianReference.matrix(size: h, sigma: sigma)
        var rows = [Double](repeating: 0, count: light.count), out = rows
        for y in 0..<h {
            for x in 0..<w {
                for s in 0..<w where mx[x * w + s] != 0 {
                    for c in 0..<4 { rows[(y * w + x) * 4 + c] += mx[x * w + s] * light[(y * w + s) * 4 + c] }
                }
            }
        }
        for y in 0..<h {
            for s in 0..<h where my[y * h + s] != 0 {
                for i in 0..<(4 * w) { out[y * w * 4 + i] += my[y * h + s] * rows[s * w * 4 + i] }
            }
        }
        var worst = 0.0, total = 0.0
        for p in 0..<(w * h) {
            for c in 0..<3 {
                let d = abs(Double(frost.pixels[4 * p + c]) - Self.byte(out[4 * p + c]).rounded())
                worst = max(worst, d)
                total += d
            }
        }
        #expect(worst <= 1 && total / Double(3 * w * h) < 0.2, "σ \(sigma): max \(worst), mean \(total / Double(3 * w * h))")
        // And the blur differs from the gamma-space one (the option does something on a photo).
        #expect(frost != photo.gaussianBlurred(sigma: sigma))
    }

    /// A transparent image stays transparent, and a blur of a half-transparent white square over
    /// nothing keeps its colour white wherever anything remains (premultiplied in light).
    @Test func alphaIsCarriedThroughLight() {
        let clear = Image(width: 40, height: 30, filledWith: (0, 0, 0, 0))
        #expect(clear.gaussianBlurred(sigma: 4, linear: true).pixels.allSatisfy { $0 == 0 })
        var square = clear
        for y in 10..<20 { for x in 15..<25 { square.pixels.replaceSubrange(((y * 40 + x) * 4)..<((y * 40 + x) * 4 + 4), with: [255, 255, 255, 128]) } }
        for blurred in [square.gaussianBlurred(sigma: 3, linear: true).unpremultiplied(),
                        square.resized(width: 20, height: 15, linear: true).unpremultiplied()] {
            for i in stride(from: 0, to: blurred.pixels.count, by: 4) where blurred.pixels[i + 3] >= 16 {
                #expect(blurred.pixels[i..<(i + 3)].allSatisfy { $0 >= 250 }, "\(Array(blurred.pixels[i..<(i + 4)]))")
            }
        }
    }

    /// Black and white mixed half and half is half the light (188); the ends are the images.
    @Test func blendsMixLight() {
        let black = Image(width: 8, height: 4, filledWith: (0, 0, 0, 255)), white = Image(width: 8, height: 4, filledWith: (255, 255, 255, 255))
        #expect(black.blended(with: white, fraction: 0.5, linear: true).pixels[0] == 188)
        #expect(black.blended(with: white, fraction: 0.5).pixels[0] == 128)
        #expect(black.blended(with: white, fraction: 1, linear: true).pixels == white.pixels)
    }
}
