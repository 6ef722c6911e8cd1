import CFrostSystem
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
    /// which bounds the precision so that no 32-bit sum can overflow. `weightMaximum`: the largest
    /// magnitude a weight may take (16383 for the VNNI horizontal pass, which splits each weight
    /// into a signed byte of high bits and seven low bits).
    init(kernel: ResampleKernel, sourceCount n: Int, origin: Double, length: Double, outputStart: Int, outputCount m: Int,
         multiple: Int, sampleMaximum: Int, weightMaximum: Int = 32_767) {
        let scale = Double(n) / length
        // The runs one after another in one array: key paths, arrays of tuples and an array per
        // run went through the runtime's generic paths and the allocator (a sixth of a 4096² →
        // 1170² box resize, perf).
        var starts = [Int](repeating: 0, count: m), ends = [Int](repeating: 0, count: m + 1)
        var taps = [Double](), scratch = [Double]()
        taps.reserveCapacity(m * (Int(kernel.support * max(1, scale)) * 2 + 3))
        var longest = 1
        for o in 0..<m {
            starts[o] = kernel.taps(center: (Double(outputStart + o) + 0.5 - origin) * scale - 0.5, scale: scale, count: n,
                                    appendingTo: &taps, scratch: &scratch)
            ends[o + 1] = taps.count
            longest = max(longest, ends[o + 1] - ends[o])
        }
        let padded = (longest + multiple - 1) / multiple * multiple
        span = padded <= n ? padded : longest
        bits = Self.bits(taps, ends: ends, sampleMaximum: sampleMaximum, weightMaximum: weightMaximum)
        var first = [Int32](repeating: 0, count: m), weights = [Int16](repeating: 0, count: m * span)
        var fixed = [Int](repeating: 0, count: longest)
        let one = Double(1 << bits)
        for o in 0..<m {
            // Every run lies inside 0..<n and span ≤ n, so the window stays inside too.
            let start = min(starts[o], n - span), shift = starts[o] - start, count = ends[o + 1] - ends[o]
            var total = 0, largest = 0
            for k in 0..<count {
                fixed[k] = Int((taps[ends[o] + k] * one).rounded())
                total += fixed[k]
                if abs(fixed[k]) > abs(fixed[largest]) { largest = k }
            }
            // The rounding's remainder goes to the largest weight.
            fixed[largest] += 1 << bits - total
            first[o] = Int32(start)
            for k in 0..<count { weights[o * span + shift + k] = Int16(fixed[k]) }
        }
        self.first = first
        self.weights = weights
    }

    /// The axis of outputs `outputStart ..< outputStart + m`. Where the outputs are part of a
    /// whole resize (an image stretched over whole pixels from 0), the whole axis is made and its
    /// part taken: the weights' precision (`bits`) follows every output's taps, so a part made
    /// alone could round apart from the whole resize it is cut from (the service's crops).
    static func part(kernel: ResampleKernel, sourceCount n: Int, origin: Double, length: Double, outputStart: Int, outputCount m: Int,
                     multiple: Int, sampleMaximum: Int, weightMaximum: Int = 32_767) -> ResampleAxis {
        let whole = Int(exactly: length) ?? 0
        guard origin == 0, whole > m, outputStart >= 0, outputStart + m <= whole else {
            return ResampleAxis(kernel: kernel, sourceCount: n, origin: origin, length: length, outputStart: outputStart, outputCount: m,
                                multiple: multiple, sampleMaximum: sampleMaximum, weightMaximum: weightMaximum)
        }
        let axis = ResampleAxis(kernel: kernel, sourceCount: n, origin: 0, length: length, outputStart: 0, outputCount: whole,
                                multiple: multiple, sampleMaximum: sampleMaximum, weightMaximum: weightMaximum)
        return ResampleAxis(first: Array(axis.first[outputStart..<(outputStart + m)]), span: axis.span,
                            weights: Array(axis.weights[(outputStart * axis.span)..<((outputStart + m) * axis.span)]), bits: axis.bits)
    }

    private init(first: [Int32], span: Int, weights: [Int16], bits: Int) {
        self.first = first
        self.span = span
        self.weights = weights
        self.bits = bits
    }

    /// The most fractional bits (at most 22) for which every weight stays within `weightMaximum`
    /// and a sum of products (with the rounding bias) stays below 2³¹; run o is taps[ends[o] ..< ends[o + 1]].
    private static func bits(_ taps: [Double], ends: [Int], sampleMaximum: Int, weightMaximum: Int) -> Int {
        var largest = 0.0, widest = 0.0, count = 1
        for o in 0..<(ends.count - 1) {
            var sum = 0.0
            for w in taps[ends[o]..<ends[o + 1]] {
                largest = max(largest, abs(w))
                sum += abs(w)
            }
            widest = max(widest, sum)
            count = max(count, ends[o + 1] - ends[o])
        }
        // Rounding moves each weight by at most ½ and the remainder adds at most ½ per tap: Σ|W| ≤ Σ|w|·2^b + count.
        var b = 22
        while b > 8, largest * Double(1 << b) + Double(count) > Double(weightMaximum)
                || Double(sampleMaximum) * (widest * Double(1 << b) + Double(count)) + Double(1 << (b + 7)) >= Double(1 << 31) {
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

    /// The most source indices one output's window starts beyond the one before.
    var longestStep: Int { zip(first, first.dropFirst()).map { Int($1 - $0) }.max() ?? 0 }

    /// The weights split for the VNNI horizontal pass whose samples shift right by `shift`, the
    /// split's base and each output's groups of four taps in use (`frost_resample_split_weights`),
    /// where the span is a multiple of four and every weight within ±16383; else nil.
    func split(shift: Int) -> (weights: [Int8], base: Int32, groups: [Int32])? {
        guard span % 4 == 0, weights.allSatisfy({ abs(Int($0)) <= 16_383 }) else { return nil }
        var groups = [Int32](repeating: 0, count: first.count), base: Int32 = 0
        let split = [Int8](unsafeUninitializedCapacity: 2 * weights.count) { out, count in
            base = frost_resample_split_weights(weights, first.count, Int32(span), Int32(shift), out.baseAddress!, &groups)
            count = 2 * weights.count
        }
        return (split, base, groups)
    }

    /// Per output, its taps up to the last nonzero weight, rounded up to a multiple of `multiple`
    /// (at most the span): the passes need not multiply the zeros after it.
    func usedTaps(multiple: Int) -> [Int32] {
        (0..<first.count).map { o in
            let run = weights[(o * span)..<((o + 1) * span)]
            let used = (run.lastIndex { $0 != 0 } ?? o * span) - o * span + 1
            return Int32(min(span, (used + multiple - 1) / multiple * multiple))
        }
    }
}
