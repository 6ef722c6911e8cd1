@testable import FrostEffects
import Testing

/// FixedPointKernel's definition, written in scalar integers for the tests that hold the SIMD
/// kernel (BlurPropertiesTests) and the streamed cache chain (GaussianChainTests) to it.
enum FixedPointReference {
    /// Both passes over a W×H plane of 8.7 samples: pairs added, products ⌊a·W/2¹⁶⌋ from each
    /// pass's bias up, edges extended, pairs checked to fit 16 bits; the vertical sums.
    static func sums(_ samples: [Int], width W: Int, height H: Int, weights floats: [Float]) -> [Int] {
        let w = FixedPointKernel.weights(floats).map(Int.init), r = w.count - 1
        let (rowBias, columnBias) = FixedPointKernel.biases(radius: r)
        #expect(w[0] + 2 * w.dropFirst().reduce(0, +) == 65_536)
        func pass(_ input: [Int], dx: Int, dy: Int, bias: UInt16) -> [Int] {
            func at(_ x: Int, _ y: Int, _ c: Int) -> Int { input[(min(max(y, 0), H - 1) * W + min(max(x, 0), W - 1)) * 4 + c] }
            var out = input
            for y in 0..<H { for x in 0..<W { for c in 0..<4 {
                var acc = Int(bias) + (at(x, y, c) * w[0]) >> 16
                for k in 1...r {
                    let pair = at(x - k * dx, y - k * dy, c) + at(x + k * dx, y + k * dy, c)
                    #expect(pair < 65_536)
                    acc += (pair * w[k]) >> 16
                }
                out[(y * W + x) * 4 + c] = acc
            } } }
            return out
        }
        return pass(pass(samples, dx: 1, dy: 0, bias: rowBias), dx: 0, dy: 1, bias: columnBias)
    }
}
