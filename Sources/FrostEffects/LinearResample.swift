import CFrostSystem
@_spi(Kernels) import FrostCore

/// How `resampled(over:region:kernel:linear: true)` makes its rows: the vertical taps first, over
/// source rows decoded to linear 8.7 into a ring as the windows move down (each source row decoded
/// once), only across the source columns the output reads, two output rows at a time where their
/// windows overlap enough; then the horizontal taps over those rows (their pixels stored paired,
/// as its multiply-adds take them, with the weights laid out for it once here); then encoded.
/// While the vertical pass computes, the source rows the next window decodes are asked of memory
/// (`frost_rows_ahead`): their first read, from DRAM, was most of the decode's time.
/// Vertical first because decoding is the costly part here: each source sample is decoded once
/// whichever pass comes first (the multiply-adds number the same either way), and only a vertical
/// pass over whole rows leaves time to ask for the next rows while it computes
/// (`frost_linear_vertical`, `frost_linear_horizontal`).
/// Both passes clamp to 0…1, as the gamma-space passes do; the ring's rows are padded by a cache
/// line so that the rows of one window (4096 pixels apart, a power of two) do not share cache sets.
struct LinearResamplePlan {
    let xs: ResampleAxis
    let ys: ResampleAxis
    let xPairs: [UInt32]
    let yPairs: [UInt32]
    /// The source columns the output reads.
    let columns: Range<Int>
    /// The horizontal windows' first columns, from `columns.lowerBound`.
    let firsts: [Int32]
    /// `xPairs` laid out for the horizontal pass's vector form (`frost_linear_horizontal_weights`).
    let xLaid: [UInt32]
    /// Whether colors are capped at their alpha (`ResamplePlan.capsColors`).
    let capsColors: Bool
    /// The most rows one output row's window starts below the one before.
    let longestStep: Int

    init(kernel: ResampleKernel, width: Int, height: Int, over rect: Rect, region: PixelBounds, hasAlpha: Bool) {
        let top = Int(FROST_RESAMPLE_TOP)
        xs = ResampleAxis.part(kernel: kernel, sourceCount: width, origin: rect.x, length: rect.width, outputStart: region.x,
                               outputCount: region.width, multiple: 2, sampleMaximum: top)
        ys = ResampleAxis.part(kernel: kernel, sourceCount: height, origin: rect.y, length: rect.height, outputStart: region.y,
                               outputCount: region.height, multiple: 2, sampleMaximum: top)
        let xPairs = xs.pairs
        self.xPairs = xPairs
        yPairs = ys.pairs
        let columns = xs.sources(for: 0..<region.width)
        self.columns = columns
        let firsts = xs.first.map { $0 - Int32(columns.lowerBound) }
        self.firsts = firsts
        let taps = Int32(xs.span), laidCount = 8 * Int(frost_linear_horizontal_steps(taps)) * region.width
        xLaid = [UInt32](unsafeUninitializedCapacity: laidCount) { laid, made in
            frost_linear_horizontal_weights(firsts, xPairs, taps, region.width, laid.baseAddress!)
            made = laid.count
        }
        capsColors = hasAlpha && kernel.hasNegativeLobes
        longestStep = ys.longestStep
    }

    /// The source rows that output rows `rows` read.
    func sourceRows(for rows: Range<Int>) -> Range<Int> { ys.sources(for: rows) }

    /// Output rows `rows` into `dst` from `src`, which holds at least `sourceRows(for: rows)`; on
    /// the calling thread. Where the next row's window starts at most a quarter of the span lower,
    /// both rows are made from their union window, read once (as `ResamplePlan` does).
    func run<Bytes: HeldRows>(_ src: LinearRows<Bytes>, rows: Range<Int>, into dst: Plane<UInt8>) {
        guard !rows.isEmpty else { return }
        let span = ys.span, samples = 4 * columns.count, stride = 4 * src.width + 32
        let slots = span + longestStep + 1
        // Paired rows: the pixels rounded up to even, and 4 pixels of zeros the horizontal pass reads past the last window.
        let verticalStride = (samples + 7) / 8 * 8 + 16
        let ring = UnsafeMutablePointer<UInt16>.allocate(capacity: slots * stride)
        let window = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: slots)
        let shared = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
        let ahead = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: slots)
        let vertical = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * verticalStride)
        vertical.initialize(repeating: 0, count: 2 * verticalStride)
        let horizontal = UnsafeMutablePointer<UInt16>.allocate(capacity: 2 * 4 * dst.width)
        defer { ring.deallocate(); window.deallocate(); shared.deallocate(); ahead.deallocate(); vertical.deallocate(); horizontal.deallocate() }
        let verticals: [UnsafePointer<UInt16>?] = [UnsafePointer(vertical), UnsafePointer(vertical + verticalStride)]
        let horizontals: [UnsafeMutablePointer<UInt16>?] = [horizontal, horizontal + 4 * dst.width]
        firsts.withUnsafeBufferPointer { firsts in
            xPairs.withUnsafeBufferPointer { xPairs in
                xLaid.withUnsafeBufferPointer { xLaid in
                    yPairs.withUnsafeBufferPointer { yPairs in
                        /// Output rows y ..< y + count from the vertical pass's rows.
                        func finish(_ y: Int, _ count: Int) {
                            frost_linear_horizontal(verticals, Int32(count), firsts.baseAddress!, xPairs.baseAddress!, xLaid.baseAddress!,
                                                    Int32(xs.span), Int32(xs.bits), dst.width, horizontals)
                            for r in 0..<count {
                                if capsColors { ResamplePlan.capColors(horizontals[r]!, pixels: dst.width) }
                                LinearLight.encode(horizontals[r]!, pixels: dst.width, into: dst.row(y + r))
                            }
                        }
                        /// Output row y's window: its first row, whether y + 1 shares it, and how many rows it reads.
                        func windowOf(_ y: Int) -> (top: Int, two: Bool, needed: Int) {
                            let top = Int(ys.first[y])
                            let step = y + 1 < rows.upperBound ? Int(ys.first[y + 1]) - top : span
                            let two = span % 2 == 0 && 4 * step <= span
                            return (top, two, two ? span + step : span)
                        }
                        var made = Int.min, y = rows.lowerBound
                        while y < rows.upperBound {
                            let (top, two, needed) = windowOf(y)
                            let step = needed - span
                            for r in max(top, made)..<(top + needed) {
                                // Decoded into its slot (a source that makes rows writes the scratch it is lent).
                                _ = src.row(r, scratch: ring + (r % slots) * stride)
                            }
                            made = max(made, top + needed)
                            var next = frost_rows_ahead(rows: ahead, count: 0, bytes: 4 * src.width)
                            if y + (two ? 2 : 1) < rows.upperBound {
                                let (nextTop, _, nextNeeded) = windowOf(y + (two ? 2 : 1))
                                for r in max(nextTop, made)..<(nextTop + nextNeeded) {
                                    ahead[Int(next.count)] = UnsafePointer(src.bytes.row(r))
                                    next.count += 1
                                }
                            }
                            for k in 0..<needed { window[k] = UnsafePointer(ring + ((top + k) % slots) * stride + 4 * columns.lowerBound) }
                            if two {
                                // An odd union gets a last row of weight 0 (any row made will do).
                                let taps = (needed + 1) / 2 * 2
                                if taps > needed { window[needed] = window[needed - 1] }
                                ResamplePlan.weightPairs(ys.weights, output: y, span: span, offset: 0, taps: taps, into: shared)
                                ResamplePlan.weightPairs(ys.weights, output: y + 1, span: span, offset: step, taps: taps, into: shared + taps / 2)
                                frost_linear_vertical_two(window, shared, shared + taps / 2, Int32(taps), Int32(ys.bits), samples,
                                                          vertical, vertical + verticalStride, &next)
                                finish(y, 2)
                            } else {
                                frost_linear_vertical(window, yPairs.baseAddress! + y * ys.pairStride, Int32(span), Int32(ys.bits), samples,
                                                      vertical, &next)
                                finish(y, 1)
                            }
                            y += two ? 2 : 1
                        }
                    }
                }
            }
        }
    }
}
