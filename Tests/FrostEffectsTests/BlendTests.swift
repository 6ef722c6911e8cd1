@_spi(Kernels) import FrostCore
@testable import FrostEffects
import FrostTestSupport
import Testing

/// The crossfade's kernel: (1 − t)·a + t·b on premultiplied pixels, against its scalar reference.
@Suite struct BlendTests {
    @Test func blendIsExactAtTheEnds() {
        let a = noiseImage(width: 67, height: 13).premultiplied(), b = noiseImage(width: 67, height: 13, seed: 7).premultiplied()
        #expect(a.blended(with: b, fraction: 0) == a)
        #expect(a.blended(with: b, fraction: 1).pixels == b.pixels)
        #expect(a.blended(with: b, fraction: 1e-4) == a)
    }

    @Test(arguments: [0.1, 0.37, 0.5, 0.99])
    func blendKernelEqualsScalarReference(t: Double) {
        let a = noiseImage(width: 101, height: 7).premultiplied(), b = noiseImage(width: 101, height: 7, seed: 3).premultiplied()
        let w = UInt16((t * 256).rounded())
        var expected = a.pixels
        b.pixels.withUnsafeBufferPointer { bp in
            expected.withUnsafeMutableBufferPointer { BlendKernel.runScalar($0.baseAddress!, bp.baseAddress!, into: $0.baseAddress!, count: $0.count, weight: w) }
        }
        #expect(a.blended(with: b, fraction: t, threads: 1).pixels == expected)
        #expect(a.blended(with: b, fraction: t, threads: 3) == a.blended(with: b, fraction: t, threads: 1))
    }

    /// Streaming stores need aligned targets: the kernel equals the scalar reference at every
    /// output alignment and length around the 32-byte steps, walking backwards (offsets 1…2047
    /// past the inputs modulo 4096) and forwards (0, 4048: StreamOrder). Straight inputs,
    /// premultiplied as they are read (whole pixels: a target off the 4-byte grid takes the scalar
    /// path throughout), give the reference's blend of the premultiplied ones.
    @Test(arguments: [false, true])
    func blendKernelHandlesEveryAlignment(premultiplying: Bool) {
        let a = noiseImage(width: 40, height: 1), b = noiseImage(width: 40, height: 1, seed: 5)
        let (pa, pb) = premultiplying ? (a.premultiplied().pixels, b.premultiplied().pixels) : (a.pixels, b.pixels)
        let counts = premultiplying ? [0, 4, 28, 32, 36, 96, 124] : [0, 1, 31, 32, 33, 95, 96, 127]
        for offset in Array(0..<32) + [48, 4048] {
            for count in counts {
                var expected = [UInt8](repeating: 0, count: count)
                expected.withUnsafeMutableBufferPointer { BlendKernel.runScalar(pa, pb, into: $0.baseAddress!, count: count, weight: 77) }
                let out = withStreamPlacement([a.pixels, b.pixels], targetBytes: count, targetOffset: offset) { inputs, target in
                    BlendKernel.run(inputs[0], inputs[1], into: target, count: count, weight: 77,
                                    premultiplying: (premultiplying, premultiplying))
                    return Array(UnsafeBufferPointer(start: target, count: count))
                }
                #expect(out == expected, "offset \(offset), count \(count)")
            }
        }
    }

    /// Straight-alpha inputs are premultiplied as the kernel reads them: the same bytes as
    /// premultiplying first, for each input kind on either side.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func blendPremultipliesStraightInputsAsItReads(_ straight: (Bool, Bool)) {
        let a = noiseImage(width: 101, height: 7), b = noiseImage(width: 101, height: 7, seed: 3)
        let x = straight.0 ? a : a.premultiplied(), y = straight.1 ? b : b.premultiplied()
        let expected = a.premultiplied().blended(with: b.premultiplied(), fraction: 0.37, threads: 1)
        #expect(x.blended(with: y, fraction: 0.37, threads: 1) == expected)
        #expect(x.blended(with: y, fraction: 0.37, threads: 3) == expected)
        #expect(x.blended(with: y, fraction: 0) == a.premultiplied())
        #expect(x.blended(with: y, fraction: 1).pixels == b.premultiplied().pixels)
    }
}
