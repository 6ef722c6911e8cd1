import FrostCore

/// Which axes a separable filter runs along.
public enum BlurAxes: String, Sendable, CaseIterable {
    case horizontal, vertical, both
}

extension Image {
    /// The mean of the (2r+1)-wide window around every pixel, rounded to nearest (halves up),
    /// edges extended: exactly what a naive double loop computes. Over `.both` axes the window is
    /// the (2r+1)² square and only the final mean is rounded.
    ///
    /// Running sums make the cost per pixel independent of r. Works in premultiplied space; the
    /// result is premultiplied. `radius` is limited to 1000 so that sums stay below 2³¹.
    public func boxBlurred(radius: Int, axes: BlurAxes = .both, threads: Int? = nil) -> Image {
        precondition((0...BoxBlur.maximumRadius).contains(radius), "box radius must be in 0...\(BoxBlur.maximumRadius)")
        var source = premultiplied()
        guard radius > 0, width > 0, height > 0 else { return source }
        let output = [UInt8](unsafeUninitializedCapacity: pixels.count) { out, count in
            source.pixels.withUnsafeBufferPointer { input in
                BoxBlur(width: width, height: height, radius: radius, axes: axes)
                    .run(input.baseAddress!, out.baseAddress!, threads: RowBands.threads(threads))
            }
            count = pixels.count
        }
        source.pixels = output
        return source
    }
}

/// The running-sum box filter behind `boxBlurred`. Each thread streams over a band of output
/// rows: it keeps the last 2r+2 horizontal-sum rows in a ring and one vertical accumulator row,
/// so every input row is read once per band and the cost per pixel does not depend on r.
struct BoxBlur {
    static let maximumRadius = 1000

    let width: Int
    let height: Int
    let radius: Int
    let axes: BlurAxes

    var samplesPerRow: Int { width * 4 }
    var window: Int { 2 * radius + 1 }

    func run(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, threads: Int) {
        RowBands.run(height, threads: threads) { rows in
            switch axes {
            case .horizontal: horizontalOnly(input, output, rows)
            case .vertical, .both: streamVertical(input, output, rows)
            }
        }
    }

    /// Rows blurred along x only: h / w, rounded.
    private func horizontalOnly(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, _ rows: Range<Int>) {
        let padded = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: width + 2 * radius + 2)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: samplesPerRow + 8)
        defer { padded.deallocate(); sums.deallocate() }
        let divide = ExactDivision(divisor: UInt64(2 * window))
        for y in rows {
            horizontalSums(input + y * samplesPerRow, into: sums, padded: padded)
            roundedMeans(sums, count: samplesPerRow, divisor: UInt32(window), divide, into: output + y * samplesPerRow)
        }
    }

    /// The vertical running sum over rows that are either the pixels themselves (vertical only)
    /// or their horizontal sums (both axes).
    private func streamVertical(_ input: UnsafePointer<UInt8>, _ output: UnsafeMutablePointer<UInt8>, _ rows: Range<Int>) {
        let n = samplesPerRow
        let slots = window + 1
        let ring = UnsafeMutablePointer<UInt32>.allocate(capacity: slots * n)
        let accumulator = UnsafeMutablePointer<UInt32>.allocate(capacity: n + 8)
        let padded = UnsafeMutablePointer<SIMD4<UInt32>>.allocate(capacity: width + 2 * radius + 2)
        defer { ring.deallocate(); accumulator.deallocate(); padded.deallocate() }
        let area = axes == .both ? window * window : window
        let divide = ExactDivision(divisor: UInt64(2 * area))

        // Logical row L (may be outside the image) lives in slot (L + offset) % slots.
        let offset = radius + 1 + slots
        func produce(_ logical: Int) -> UnsafeMutablePointer<UInt32> {
            let slot = ring + ((logical + offset) % slots) * n
            let row = input + min(max(logical, 0), height - 1) * n
            if axes == .both {
                horizontalSums(row, into: slot, padded: padded)
            } else {
                for i in 0..<n { slot[i] = UInt32(row[i]) }
            }
            return slot
        }

        accumulator.initialize(repeating: 0, count: n)
        for k in -radius...radius {
            let slot = produce(rows.lowerBound + k)
            for i in 0..<n { accumulator[i] &+= slot[i] }
        }
        for y in rows {
            roundedMeans(accumulator, count: n, divisor: UInt32(area), divide, into: output + y * n)
            guard y + 1 < rows.upperBound else { break }
            let entering = produce(y + radius + 1)
            let leaving = ring + ((y - radius + offset) % slots) * n
            slideAccumulator(accumulator, entering, leaving, count: n)
        }
    }

    /// accumulator += entering − leaving, 8 lanes at a time.
    @inline(__always)
    private func slideAccumulator(_ acc: UnsafeMutablePointer<UInt32>, _ entering: UnsafePointer<UInt32>,
                                  _ leaving: UnsafePointer<UInt32>, count n: Int) {
        var i = 0
        let a = UnsafeMutableRawPointer(acc), e = UnsafeRawPointer(entering), l = UnsafeRawPointer(leaving)
        while i + 8 <= n {
            let o = i * 4
            let v = a.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt32>.self)
                &+ e.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt32>.self)
                &- l.loadUnaligned(fromByteOffset: o, as: SIMD8<UInt32>.self)
            a.storeBytes(of: v, toByteOffset: o, as: SIMD8<UInt32>.self)
            i += 8
        }
        while i < n {
            acc[i] = acc[i] &+ entering[i] &- leaving[i]
            i += 1
        }
    }

    /// h[x] = Σ_{k=−r…r} p[clamp(x+k)] for each channel of one row.
    @inline(__always)
    private func horizontalSums(_ row: UnsafePointer<UInt8>, into sums: UnsafeMutablePointer<UInt32>,
                                padded: UnsafeMutablePointer<SIMD4<UInt32>>) {
        // Widen the row once, with r+1 copies of the edge pixels on each side.
        let raw = UnsafeRawPointer(row)
        @inline(__always) func pixel(_ x: Int) -> SIMD4<UInt32> {
            SIMD4<UInt32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: 4 * x, as: SIMD4<UInt8>.self))
        }
        let pad = radius + 1
        let first = pixel(0), last = pixel(width - 1)
        for i in 0..<pad { padded[i] = first }
        for x in 0..<width { padded[pad + x] = pixel(x) }
        for i in 0...radius { padded[pad + width + i] = last }
        // Running sum; p[x] sits at padded[pad + x].
        var sum = SIMD4<UInt32>(repeating: 0)
        for k in -radius...radius { sum &+= padded[pad + k] }
        let out = UnsafeMutableRawPointer(sums)
        for x in 0..<width {
            out.storeBytes(of: sum, toByteOffset: 16 * x, as: SIMD4<UInt32>.self)
            sum &+= padded[pad + x + radius + 1] &- padded[pad + x - radius]
        }
    }

    /// out = ⌊(2s + d) / 2d⌋: the rounded mean of sums s over d samples, exactly.
    @inline(__always)
    private func roundedMeans(_ sums: UnsafePointer<UInt32>, count n: Int, divisor d: UInt32,
                              _ divide: ExactDivision, into out: UnsafeMutablePointer<UInt8>) {
        var i = 0
        let s = UnsafeRawPointer(sums), o = UnsafeMutableRawPointer(out)
        while i + 8 <= n {
            let v = s.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<UInt32>.self)
            let q = divide.divide(v &* 2 &+ d)
            o.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: q), toByteOffset: i, as: SIMD8<UInt8>.self)
            i += 8
        }
        while i < n {
            out[i] = UInt8(truncatingIfNeeded: divide.divide(sums[i] &* 2 &+ d))
            i += 1
        }
    }
}
