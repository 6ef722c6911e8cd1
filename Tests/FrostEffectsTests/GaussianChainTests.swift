@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// The streamed chain must give the bytes of its definition: the source edge-extended by the
/// kernels' total reach, blurred stage after stage through whole Float planes (each stage
/// extending its own edges), every stage cropped back and quantised.
@Suite struct GaussianChainTests {
    static let kernels: [[Float]] = [GaussianPlan.kernelWeights(sigma: 0.9), GaussianPlan.kernelWeights(sigma: 2.1),
                                     GaussianPlan.kernelWeights(sigma: 0.5), GaussianPlan.kernelWeights(sigma: 3.3)]

    /// Level by level, through materialised planes.
    static func reference(_ source: Image, _ weights: [[Float]]) -> [Image] {
        let premultiplied = source.premultiplied()
        let reach = weights.map { $0.count - 1 }.reduce(0, +)
        let extended = premultiplied.extended(by: reach)
        var previous: FloatPlane? = nil
        return weights.map { w in
            let next = FloatPlane(width: extended.width, height: extended.height)
            let kernel = SeparableKernel(weights: w, threads: 1)
            if let previous { kernel.run(previous.plane, next.plane) } else { extended.withPlane { kernel.run($0, next.plane) } }
            previous = next
            return Image(plane: next.plane, crop: reach, like: premultiplied, threads: 1)
        }
    }

    static func streamed(_ source: Image, _ weights: [[Float]], threads: Int) -> [Image] {
        GaussianChain(kernels: weights.map { SeparableKernel(weights: $0, threads: threads) }, threads: threads).levels(of: source)
    }

    /// Odd sizes (pixel tails after every vector step), every alpha value (noise), bands
    /// narrower than the chain's reach (22 rows: 5×40 in two bands), and a 1×1 image.
    @Test(arguments: [(67, 45), (130, 9), (5, 40), (3, 70), (1, 1)])
    func streamedEqualsLevelByLevel(width: Int, height: Int) {
        let source = noiseImage(width: width, height: height)
        let expected = Self.reference(source, Self.kernels)
        for threads in [1, 2, 3] {
            let got = Self.streamed(source, Self.kernels, threads: threads)
            for (i, (g, e)) in zip(got, expected).enumerated() {
                #expect(g == e, "\(width)×\(height), stage \(i), \(threads) threads: \(PixelDifference(g, e))")
            }
        }
    }

    @Test func emptySourceGivesEmptyLevels() {
        let empty = Image(width: 0, height: 5, pixels: [])
        #expect(Self.streamed(empty, Self.kernels, threads: 2).map(\.pixels.count) == [0, 0, 0, 0])
    }

    @Test func opaqueSourceIsReadInPlace() {
        let source = noiseImage(width: 40, height: 33, opaque: true)
        #expect(!source.readsStraightAlpha)
        #expect(Self.streamed(source, Self.kernels, threads: 2) == Self.reference(source, Self.kernels))
    }
}
