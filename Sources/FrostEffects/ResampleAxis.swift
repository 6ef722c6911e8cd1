import FrostCore

/// The taps of one resampling axis: for each output index a run of `span` source indices from
/// `first`, with weights summing to 1 (a triangle of half-width max(1, shrink factor), clamped
/// at the edges by folding outside weights onto the edge sample).
struct ResampleAxis {
    let first: [Int]
    let span: Int
    let weights: [Float]

    init(sourceCount n: Int, origin: Double, length: Double, outputStart: Int, outputCount m: Int) {
        let scale = Double(n) / length
        let support = max(1, scale)
        var runs: [(Int, [Double])] = []
        for o in 0..<m {
            let center = (Double(outputStart + o) + 0.5 - origin) * scale - 0.5
            let lo = Int((center - support).rounded(.up)), hi = Int((center + support).rounded(.down))
            var taps: [Int: Double] = [:]
            for s in lo...max(lo, hi) {
                let weight = max(0, 1 - abs(Double(s) - center) / support)
                if weight > 0 { taps[min(max(s, 0), n - 1), default: 0] += weight }
            }
            if taps.isEmpty { taps[min(max(Int(center.rounded()), 0), n - 1)] = 1 }
            let start = taps.keys.min()!, end = taps.keys.max()!
            let total = taps.values.reduce(0, +)
            runs.append((start, (start...end).map { (taps[$0] ?? 0) / total }))
        }
        span = runs.map(\.1.count).max() ?? 1
        // Every run lies inside 0..<n and is at most span ≤ n long, so this keeps it inside too.
        let span = self.span
        let firsts = runs.map { min($0.0, n - span) }
        var w = [Float](repeating: 0, count: m * span)
        for (o, run) in runs.enumerated() {
            // Runs shorter than `span` are placed inside [first, first + span) at their offset.
            let shift = run.0 - firsts[o]
            for (k, weight) in run.1.enumerated() { w[o * span + shift + k] = Float(weight) }
        }
        first = firsts
        weights = w
    }

    /// One output row from a source row of RGBA samples. Spans of two to four taps (every
    /// enlargement, and shrinks below 1.5×) are unrolled into independent products summed in
    /// pairs: the loop over a runtime span left each pixel one long add chain (perf annotate).
    func apply(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<Float>, count: Int) {
        let raw = UnsafeRawPointer(src)
        @inline(__always) func pixel(_ i: Int) -> SIMD4<Float> {
            LaneConversion.floats(raw.loadUnaligned(fromByteOffset: 4 &* i, as: SIMD4<UInt8>.self))
        }
        @inline(__always) func store(_ v: SIMD4<Float>, _ o: Int) {
            UnsafeMutableRawPointer(dst + 4 &* o).storeBytes(of: v, as: SIMD4<Float>.self)
        }
        first.withUnsafeBufferPointer { first in
            weights.withUnsafeBufferPointer { w in
                let taps = w.baseAddress!
                switch span {
                case 2:
                    for o in 0..<count {
                        let i = first[o], t = taps + 2 &* o
                        store(pixel(i) * t[0] + pixel(i &+ 1) * t[1], o)
                    }
                case 3:
                    for o in 0..<count {
                        let i = first[o], t = taps + 3 &* o
                        store((pixel(i) * t[0] + pixel(i &+ 1) * t[1]) + pixel(i &+ 2) * t[2], o)
                    }
                case 4:
                    for o in 0..<count {
                        let i = first[o], t = taps + 4 &* o
                        let near = pixel(i) * t[0] + pixel(i &+ 1) * t[1], far = pixel(i &+ 2) * t[2] + pixel(i &+ 3) * t[3]
                        store(near + far, o)
                    }
                default:
                    for o in 0..<count {
                        let i = first[o], t = taps + span &* o
                        var acc = pixel(i) * t[0]
                        for k in 1..<span { acc += pixel(i &+ k) * t[k] }
                        store(acc, o)
                    }
                }
            }
        }
    }

    /// Output row `output` of the vertical pass from its `span` horizontally resampled rows
    /// (`rows[k]` is source row first[output] + k): eight samples per step, rounded to bytes.
    /// Spans of two to four are unrolled as in `apply`.
    func applyVertically(_ rows: UnsafePointer<UnsafeMutablePointer<Float>>, output: Int, samples: Int, into dst: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(dst)
        weights.withUnsafeBufferPointer { w in
            let taps = w.baseAddress! + output * span
            @inline(__always) func row(_ k: Int, _ i: Int) -> SIMD8<Float> {
                UnsafeRawPointer(rows[k] + i).loadUnaligned(as: SIMD8<Float>.self)
            }
            @inline(__always) func store(_ v: SIMD8<Float>, _ i: Int) {
                raw.storeBytes(of: LaneConversion.bytes(v), toByteOffset: i, as: SIMD8<UInt8>.self)
            }
            let t0 = taps[0], t1 = span > 1 ? taps[1] : 0, t2 = span > 2 ? taps[2] : 0, t3 = span > 3 ? taps[3] : 0
            var i = 0
            switch span {
            case 2:
                while i + 8 <= samples { store(row(0, i) * t0 + row(1, i) * t1, i); i += 8 }
            case 3:
                while i + 8 <= samples { store((row(0, i) * t0 + row(1, i) * t1) + row(2, i) * t2, i); i += 8 }
            case 4:
                while i + 8 <= samples { store((row(0, i) * t0 + row(1, i) * t1) + (row(2, i) * t2 + row(3, i) * t3), i); i += 8 }
            default:
                while i + 8 <= samples {
                    var acc = row(0, i) * t0
                    for k in 1..<span { acc += row(k, i) * taps[k] }
                    store(acc, i)
                    i += 8
                }
            }
            while i < samples {
                var acc: Float = 0
                for k in 0..<span { acc += rows[k][i] * taps[k] }
                dst[i] = LaneConversion.byte(acc)
                i += 1
            }
        }
    }
}
