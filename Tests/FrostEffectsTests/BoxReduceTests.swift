@testable import FrostEffects
import FrostCore
import FrostTestSupport
import Testing

/// The reduction under every reduced-resolution blur against its definition, summed naively.
@Suite struct BoxReduceTests {
    /// Reduced pixel (i, j) = the mean of the f×f source pixels from (f·(i−m), f·(j−m)),
    /// coordinates clamped to the image, in 8.7: 128·sum/f² rounded to nearest.
    static func naive(_ image: Image, factor f: Int, margin m: Int) -> [Double] {
        let rw = (image.width + f - 1) / f + 2 * m, rh = (image.height + f - 1) / f + 2 * m
        var out = [Double](repeating: 0, count: rw * rh * 4)
        for j in 0..<rh {
            for i in 0..<rw {
                for c in 0..<4 {
                    var sum = 0
                    for dy in 0..<f {
                        for dx in 0..<f {
                            let x = min(max((i - m) * f + dx, 0), image.width - 1)
                            let y = min(max((j - m) * f + dy, 0), image.height - 1)
                            sum += Int(image.pixels[(y * image.width + x) * 4 + c])
                        }
                    }
                    out[(j * rw + i) * 4 + c] = Double(sum) * 128 / Double(f * f)
                }
            }
        }
        return out
    }

    /// Widths that leave a partial block and fewer than two inside pixels (odd tails of the
    /// two-at-a-time loop), an image narrower than one block, margins 0…3, 1 and 2 threads.
    /// Exact for f = 2, 4, 8; rounded to nearest for 32 (ties to even); 300: beyond 16-bit column
    /// sums and exact float sums (resizing far down), Float sums, within one unit.
    @Test(arguments: [(2, 0), (2, 3), (4, 1), (8, 2), (32, 1), (300, 1)])
    func reductionIsTheMeanOfEachBlock(factor: Int, margin: Int) {
        for (width, height) in [(67, 45), (9, 70), (5, 3)] {
            let image = noiseImage(width: width, height: height, opaque: true)
            let expected = Self.naive(image, factor: factor, margin: margin)
            for threads in [1, 2] {
                let reduced = image.withPlane { Resample.boxReduce($0, factor: factor, margin: margin, threads: threads) }
                let got = Array(UnsafeBufferPointer(start: reduced.storage, count: reduced.width * reduced.height * 4))
                let wrong = zip(got, expected).filter { Double($0) != $1.rounded(.toNearestOrEven) }.count
                let worst = zip(got, expected).map { abs(Double($0) - $1) }.max() ?? 0
                #expect(got.count == expected.count && (factor <= 181 ? wrong == 0 : worst <= 1),
                        "\(width)×\(height), f \(factor), m \(margin), \(threads) threads: \(wrong) samples differ, worst \(worst)")
            }
        }
    }
}

extension BoxReduceTests {
    /// Halving an f×f reduction gives the 2f×2f one bit for bit (f = 2, 4), for sizes that leave
    /// partial blocks at both factors, parent margins 1…3 (odd and even), child margins 0…4
    /// (wider than the parent's: clamped into it), 1 and 2 threads.
    @Test(arguments: [2, 4])
    func halvingAReductionIsTheCoarserReduction(factor f: Int) {
        for (width, height) in [(67, 45), (9, 70), (5, 3), (64, 32)] {
            let image = noiseImage(width: width, height: height, opaque: false)
            for (m, childMargin) in [(1, 0), (1, 4), (2, 1), (3, 2), (3, 3)] {
                let expected = image.withPlane { Resample.boxReduce($0, factor: 2 * f, margin: childMargin, threads: 1) }
                for threads in [1, 2] {
                    let parent = image.withPlane { Resample.boxReduce($0, factor: f, margin: m, threads: threads) }
                    let halved = Resample.halved(parent, factor: f, parentMargin: m, imageWidth: width, imageHeight: height,
                                                 margin: childMargin, threads: threads)
                    let got = Array(UnsafeBufferPointer(start: halved.storage, count: halved.width * halved.height * 4))
                    let want = Array(UnsafeBufferPointer(start: expected.storage, count: expected.width * expected.height * 4))
                    #expect(halved.width == expected.width && halved.height == expected.height && got == want,
                            "\(width)×\(height), f \(f), margins \(m)→\(childMargin), \(threads) threads")
                }
            }
        }
    }
}
