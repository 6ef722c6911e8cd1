#if canImport(Glibc)
import Glibc
#endif
@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// Properties every blur must have: no fringe at alpha edges, SIMD equal to scalar, threads
/// equal to one thread, O(1) plan.
@Suite struct BlurPropertiesTests {
    /// An opaque red disc on transparent black.
    static let disc: Image = {
        var pixels = [UInt8](repeating: 0, count: 80 * 80 * 4)
        for y in 0..<80 {
            for x in 0..<80 where (x - 40) * (x - 40) + (y - 40) * (y - 40) <= 20 * 20 {
                pixels[(y * 80 + x) * 4] = 255
                pixels[(y * 80 + x) * 4 + 3] = 255
            }
        }
        return Image(width: 80, height: 80, pixels: pixels)
    }()

    /// Blurred in premultiplied space, the disc stays pure red wherever alpha > 0 (within 2
    /// levels after un-premultiplying): no dark or colored halo.
    @Test(arguments: ["gauss 1", "gauss 6", "gauss 20", "box 5", "effect"])
    func redDiscHasNoFringe(_ name: String) {
        let blurred: Image
        switch name {
        case "gauss 1": blurred = Self.disc.gaussianBlurred(sigma: 1)
        case "gauss 6": blurred = Self.disc.gaussianBlurred(sigma: 6)
        case "gauss 20": blurred = Self.disc.gaussianBlurred(sigma: 20)
        case "box 5": blurred = Self.disc.boxBlurred(radius: 5)
        default: blurred = Self.disc.applyBlur(radius: 6, saturationDeltaFactor: 1.8)
        }
        let straight = blurred.unpremultiplied()
        var fringe = 0
        var seen = 0
        for i in stride(from: 0, to: straight.pixels.count, by: 4) where straight.pixels[i + 3] > 0 {
            seen += 1
            let (r, g, b) = (straight.pixels[i], straight.pixels[i + 1], straight.pixels[i + 2])
            // Tolerance: 2 levels, plus the quantisation of premultiplied storage at low alpha.
            let slack = 2 + Int((255.0 / Double(straight.pixels[i + 3]) / 2).rounded(.up))
            if Int(r) < 255 - slack || Int(g) > slack || Int(b) > slack { fringe += 1 }
        }
        #expect(seen > 1300)
        #expect(fringe == 0, "\(name): \(fringe) fringe pixels")
    }

    /// The 8-bit blur equals the definition: samples ×128 in, (v + 64) >> 7 out. Odd width (block
    /// tails) and σ up to the largest unreduced one (R = 24); an opaque image (blurred in its
    /// three colors) must give the same bytes as the four-channel definition.
    @Test(arguments: [0.3, 0.5, 1.3, 2.0, 5.0, 7.9], [false, true])
    func fixedPointKernelEqualsScalarReference(sigma: Double, opaque: Bool) {
        let image = noiseImage(width: 37, height: 29, opaque: opaque).premultiplied()
        let plan = GaussianPlan(sigma: sigma)
        guard plan.factor == 1, case .kernel(let w) = plan.method else {
            Issue.record("σ \(sigma) is not an unreduced kernel"); return
        }
        let sums = FixedPointReference.sums(image.pixels.map { Int($0) << 7 }, width: image.width, height: image.height, weights: w)
        let expected = sums.map { UInt8(($0 + 64) >> 7) }
        let frost = image.gaussianBlurred(sigma: sigma, threads: 1).pixels
        #expect(zip(frost, expected).filter { $0 != $1 }.count == 0)
    }

    /// 8.7 planes (the reduced planes behind σ ≥ 8) go in and come out as they are: values
    /// between the byte levels, up to the largest.
    @Test(arguments: [0.6, 4.5, 6.7])
    func fixedPointKernelOnFixedPointPlanes(sigma: Double) {
        let W = 29, H = 21
        let values = (0..<(W * H * 4)).map { ($0 * 7919) % 32_641 }
        let w = GaussianPlan.kernelWeights(sigma: sigma)
        let sums = FixedPointReference.sums(values, width: W, height: H, weights: w)
        let source = PlaneStorage<UInt16>(width: W, height: H), out = PlaneStorage<UInt16>(width: W, height: H)
        for i in values.indices { source.storage[i] = UInt16(values[i]) }
        SeparableKernel(weights: w, threads: 1).run(source.plane, out.plane)
        #expect((0..<sums.count).filter { Int(out.storage[$0]) != sums[$0] }.count == 0)
    }

    /// A cropped run (how compact cache levels are written) gives the inner pixels of a full one:
    /// unaligned starts down the ring rows, odd widths, 1-3 threads.
    @Test(arguments: [1, 3, 5])
    func croppedRunIsTheInnerPartOfAFullRun(crop: Int) {
        let W = 41, H = 27
        let source = PlaneStorage<UInt16>(width: W, height: H)
        for i in 0..<(W * H * 4) { source.storage[i] = UInt16((i * 7919) % 32_641) }
        let kernel = SeparableKernel(weights: GaussianPlan.kernelWeights(sigma: 2.7), threads: 1)
        var full = [UInt8](repeating: 0, count: W * H * 4)
        full.withUnsafeMutableBufferPointer { kernel.run(source.plane, Plane(base: $0.baseAddress!, width: W, height: H)) }
        let w = W - 2 * crop, h = H - 2 * crop
        var inner: [UInt8] = []
        for y in crop..<(H - crop) {
            let start = (y * W + crop) * 4
            inner += full[start..<(start + 4 * w)]
        }
        for threads in 1...3 {
            var cropped = [UInt8](repeating: 0, count: w * h * 4)
            cropped.withUnsafeMutableBufferPointer {
                SeparableKernel(weights: kernel.weights, threads: threads)
                    .run(source.plane, Plane(base: $0.baseAddress!, width: w, height: h), crop: crop)
            }
            #expect(cropped == inner, "crop \(crop), \(threads) threads")
        }
    }

    /// An opaque image is blurred in its colors only: the bytes of the four-channel blur of the
    /// same pixels, alpha 255. Widths 1-5 (pixel tails of the four-pixel conversions), a width
    /// whose colors fill whole blocks (128 × 3 samples), reduced σ (whose planes keep all four).
    @Test(arguments: [1, 2, 3, 5, 43, 128])
    func opaqueBlurEqualsFourChannelBlur(width: Int) {
        let opaque = noiseImage(width: width, height: 19, opaque: true)
        var flagged = opaque
        flagged.hasAlpha = true
        for sigma in [0.6, 2.5, 6.0, 11.0] {
            for threads in [1, 2] {
                #expect(opaque.gaussianBlurred(sigma: sigma, threads: threads).pixels
                        == flagged.gaussianBlurred(sigma: sigma, threads: threads).pixels, "\(width) wide, σ \(sigma), \(threads) threads")
            }
        }
    }

    /// The three-channel row conversions against their definitions, 1-9 pixels (four-pixel
    /// steps and every tail): colors ×128 in; out rounded, alpha 255.
    @Test func opaqueRowConversionsMatchTheirDefinition() {
        for pixels in 1...9 {
            let rgba = (0..<(4 * pixels)).map { UInt8(($0 * 97 + 11) % 256) }
            var fixed = [UInt16](repeating: 0xFFFF, count: 3 * pixels + 4)
            rgba.withUnsafeBufferPointer { UInt8.toFixedPoint($0.baseAddress!, pixels: pixels, channels: 3, into: &fixed) }
            let colors = (0..<(3 * pixels)).map { UInt16(rgba[$0 / 3 * 4 + $0 % 3]) << 7 }
            #expect(Array(fixed.prefix(3 * pixels)) == colors, "\(pixels) pixels in")
            let values = (0..<(3 * pixels + 4)).map { UInt16(($0 * 5171) % 32_704) }
            var out = [UInt8](repeating: 0, count: 4 * pixels)
            values.withUnsafeBufferPointer { UInt8.store(fixedPointRow: $0.baseAddress!, pixels: pixels, channels: 3, into: &out) }
            let expected = (0..<(4 * pixels)).map { $0 % 4 == 3 ? 255 : UInt8((Int(values[$0 / 4 * 3 + $0 % 4]) + 64) >> 7) }
            #expect(out == expected, "\(pixels) pixels out")
        }
    }

    @Test(arguments: [1.5, 6.0, 17.0, 90.0])
    func threadsGiveIdenticalPixels(sigma: Double) {
        let image = noiseImage(width: 211, height: 163)
        let one = image.gaussianBlurred(sigma: sigma, threads: 1)
        #expect(image.gaussianBlurred(sigma: sigma, threads: 2) == one)
        #expect(image.gaussianBlurred(sigma: sigma, threads: 7) == one)
        #expect(image.applyLightEffect(threads: 1) == image.applyLightEffect(threads: 2))
    }

    /// The kernel's radius is the smallest whose truncation moves a blurred unit step by at most
    /// half a level from where a gaussian reaching 10σ puts it: convolved here directly in Double,
    /// with the kernel itself and with the renormalised sampled gaussian one tap shorter.
    @Test(arguments: [0.3, 0.5, 1.05, 1.18, 1.77, 2.65, 3.97, 5, 7.9])
    func truncationMovesAStepByAtMostHalfALevel(sigma: Double) {
        func gaussian(radius: Int) -> [Double] {
            let raw = (-radius...radius).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
            let total = raw.reduce(0, +)
            return raw.map { $0 / total }
        }
        func stepDistance(_ kernel: [Double], from wide: [Double]) -> Double {
            let r = kernel.count / 2, f = wide.count / 2
            func step(_ k: [Double], _ reach: Int, at x: Int) -> Double {
                (-reach...reach).reduce(0) { $0 + (x - $1 >= 0 ? k[$1 + reach] : 0) }
            }
            return (-f...f).map { abs(step(kernel, r, at: $0) - step(wide, f, at: $0)) }.max()!
        }
        let half = GaussianPlan.kernelWeights(sigma: sigma).map(Double.init)
        let kernel = half.dropFirst().reversed() + half
        let wide = gaussian(radius: Int((10 * sigma).rounded(.up)))
        #expect(stepDistance(Array(kernel), from: wide) <= 0.5 / 255 + 1e-6, "σ \(sigma)")
        if half.count > 2 { #expect(stepDistance(gaussian(radius: half.count - 2), from: wide) > 0.5 / 255, "σ \(sigma)") }
    }

    /// The plan keeps the kernel bounded: at most 47 taps whatever σ (cost O(1) in σ).
    @Test func kernelLengthIsBoundedForEverySigma() {
        var sigma = 0.3
        while sigma <= 250 {
            if case .kernel(let w) = GaussianPlan(sigma: sigma).method { #expect(w.count <= 24, "σ \(sigma)") }
            sigma *= 1.07
        }
    }
}
