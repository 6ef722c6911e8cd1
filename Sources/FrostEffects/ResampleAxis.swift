import FrostCore

/// The taps of one resampling axis in fixed point: for each output index a run of `span` source
/// indices from `first`, with 16-bit weights w·2^bits summing to exactly 2^bits (a flat row stays
/// flat), for CFrostSystem's multiply-add passes (resample.c).
struct ResampleAxis {
    let first: [Int32]
    let span: Int
    /// Output o's weights at o·span ..< (o + 1)·span.
    let weights: [Int16]
    let bits: Int

    /// `multiple`: the span is padded to a multiple of it (zero weights) where the source is wide
    /// enough, for the passes' four-tap steps. `sampleMaximum`: the largest sample the pass reads,
    /// which bounds the precision so that no 32-bit sum can overflow.
    init(kernel: ResampleKernel, sourceCount n: Int, origin: Double, length: Double, outputStart: Int, outputCount m: Int,
         multiple: Int, sampleMaximum: Int) {
        let scale = Double(n) / length
        let runs = (0..<m).map { o in
            kernel.taps(center: (Double(outputStart + o) + 0.5 - origin) * scale - 0.5, scale: scale, count: n)
        }
        let longest = runs.map(\.weights.count).max() ?? 1
        let padded = (longest + multiple - 1) / multiple * multiple
        span = padded <= n ? padded : longest
        bits = Self.bits(runs.map(\.weights), sampleMaximum: sampleMaximum)
        var first = [Int32](repeating: 0, count: m), weights = [Int16](repeating: 0, count: m * span)
        let one = 1 << bits
        for (o, run) in runs.enumerated() {
            // Every run lies inside 0..<n and span ≤ n, so the window stays inside too.
            let start = min(run.first, n - span), shift = run.first - start
            var fixed = run.weights.map { Int(($0 * Double(one)).rounded()) }
            // The rounding's remainder goes to the largest weight.
            let largest = fixed.indices.max { abs(fixed[$0]) < abs(fixed[$1]) }!
            fixed[largest] += one - fixed.reduce(0, +)
            first[o] = Int32(start)
            for (k, w) in fixed.enumerated() { weights[o * span + shift + k] = Int16(w) }
        }
        self.first = first
        self.weights = weights
    }

    /// The most fractional bits (at most 22) for which every weight fits 16 bits and a sum of
    /// products (with the rounding bias) stays below 2³¹.
    private static func bits(_ runs: [[Double]], sampleMaximum: Int) -> Int {
        let largest = runs.joined().map(abs).max() ?? 1, count = Double(runs.map(\.count).max() ?? 1)
        let widest = runs.map { $0.map(abs).reduce(0, +) }.max() ?? 1
        // Rounding moves each weight by at most ½ and the remainder adds at most ½ per tap: Σ|W| ≤ Σ|w|·2^b + count.
        var b = 22
        while b > 8, largest * Double(1 << b) + count > 32_767
                || Double(sampleMaximum) * (widest * Double(1 << b) + count) + Double(1 << (b + 7)) >= Double(1 << 31) {
            b -= 1
        }
        return b
    }

    /// The source indices output indices `outputs` read.
    func sources(for outputs: Range<Int>) -> Range<Int> {
        Int(first[outputs.lowerBound])..<(Int(first[outputs.upperBound - 1]) + span)
    }

    /// The weights two to a word, as `frost_resample_vertical` takes them: output o's at
    /// o·pairStride ..< (o + 1)·pairStride.
    var pairs: [UInt32] {
        let stride = pairStride
        return (0..<first.count).flatMap { o in
            (0..<stride).map { j -> UInt32 in
                let low = UInt32(UInt16(bitPattern: weights[o * span + 2 * j]))
                let high = 2 * j + 1 < span ? UInt32(UInt16(bitPattern: weights[o * span + 2 * j + 1])) : 0
                return high << 16 | low
            }
        }
    }

    var pairStride: Int { (span + 1) / 2 }
}
