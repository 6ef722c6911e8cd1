@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// The streamed chain must give the bytes of its definition: the source edge-extended by the
/// kernels' total reach, blurred stage after stage in 8.7 fixed point through whole planes
/// (each stage extending its own edges, its vertical pass clamped to 255 × 128), every stage
/// cropped back and rounded. Written here in scalar integers from FixedPointKernel's formula.
@Suite struct GaussianChainTests {
    static let kernels: [[Float]] = [GaussianPlan.kernelWeights(sigma: 0.9), GaussianPlan.kernelWeights(sigma: 2.1),
                                     GaussianPlan.kernelWeights(sigma: 0.5), GaussianPlan.kernelWeights(sigma: 3.3)]

    /// Level by level, through materialised planes.
    static func reference(_ source: Image, _ weights: [[Float]]) -> [Image] {
        let premultiplied = source.premultiplied()
        let reach = weights.map { $0.count - 1 }.reduce(0, +)
        let extended = premultiplied.extended(by: reach)
        let W = extended.width, H = extended.height
        var plane = extended.pixels.map { Int($0) << 7 }
        return weights.map { floats in
            plane = FixedPointReference.sums(plane, width: W, height: H, weights: floats).map { min($0, 255 << 7) }
            var level = premultiplied
            level.pixels = (0..<source.height).flatMap { y in
                (0..<4 * source.width).map { i in UInt8((plane[((y + reach) * W + reach) * 4 + i] + 64) >> 7) }
            }
            return level
        }
    }

    static func streamed(_ source: Image, _ weights: [[Float]], threads: Int) -> [Image] {
        GaussianChain(kernels: weights.map { SeparableKernel(weights: $0, threads: threads) }, threads: threads).levels(of: source)
    }

    /// Odd sizes (pixel tails after every vector step), every alpha value (noise), bands
    /// narrower than the chain's reach (22 rows: 5×40 in two bands), and a 1×1 image; opaque
    /// sources run the chain on their three colors, whose bytes must be the same.
    @Test(arguments: [(67, 45), (130, 9), (5, 40), (3, 70), (1, 1)], [false, true])
    func streamedEqualsLevelByLevel(size: (width: Int, height: Int), opaque: Bool) {
        let source = noiseImage(width: size.width, height: size.height, opaque: opaque)
        let expected = Self.reference(source, Self.kernels)
        for threads in [1, 2, 3] {
            let got = Self.streamed(source, Self.kernels, threads: threads)
            for (i, (g, e)) in zip(got, expected).enumerated() {
                #expect(g == e, "\(size), opaque \(opaque), stage \(i), \(threads) threads: \(PixelDifference(g, e))")
            }
        }
    }

    @Test func emptySourceGivesEmptyLevels() {
        let empty = Image(width: 0, height: 5, pixels: [])
        #expect(Self.streamed(empty, Self.kernels, threads: 2).map(\.pixels.count) == [0, 0, 0, 0])
    }

}
