import CFrostSystem
@_spi(Kernels) import FrostCore

/// How `resampled(over:region:kernel:linear: true)` makes its rows: the vertical taps first, over source rows decoded to
/// linear 8.7 into a ring of `span` rows as the windows move down (each source row decoded once),
/// only across the source columns the output reads; then the horizontal taps over that one row;
/// then the output row encoded. Vertical first because decoding is the costly part here: each
/// source sample is decoded once whichever pass comes first, and the vertical pass multiplies
/// sixteen samples of two rows per step where the horizontal one multiplies eight
/// (`frost_linear_vertical`, `frost_linear_horizontal`). Both passes clamp to 0…1, as the
/// gamma-space passes do; the ring's rows are padded by a cache line so that the rows of one
/// window (4096 pixels apart, a power of two) do not share cache sets.
struct LinearResamplePlan {
    let xs: ResampleAxis
    let ys: ResampleAxis
    let xPairs: [UInt32]
    let yPairs: [UInt32]
    /// The source columns the output reads.
    let columns: Range<Int>
    /// The horizontal windows' first columns, from `columns.lowerBound`.
    let firsts: [Int32]
    /// Whether colors are capped at their alpha (`ResamplePlan.capsColors`).
    let capsColors: Bool

    init(kernel: ResampleKernel, width: Int, height: Int, over rect: Rect, region: PixelBounds, hasAlpha: Bool) {
        let top = Int(FROST_RESAMPLE_TOP)
        xs = ResampleAxis(kernel: kernel, sourceCount: width, origin: rect.x, length: rect.width, outputStart: region.x,
                          outputCount: region.width, multiple: 2, sampleMaximum: top)
        ys = ResampleAxis(kernel: kernel, sourceCount: height, origin: rect.y, length: rect.height, outputStart: region.y,
                          outputCount: region.height, multiple: 2, sampleMaximum: top)
        xPairs = xs.pairs
        yPairs = ys.pairs
        let columns = xs.sources(for: 0..<region.width)
        self.columns = columns
        firsts = xs.first.map { $0 - Int32(columns.lowerBound) }
        capsColors = hasAlpha && kernel.hasNegativeLobes
    }

    /// The source rows that output rows `rows` read.
    func sourceRows(for rows: Range<Int>) -> Range<Int> { ys.sources(for: rows) }

    /// Output rows `rows` into `dst` from `src`, which holds at least `sourceRows(for: rows)`; on
    /// the calling thread.
    func run<Bytes: HeldRows>(_ src: LinearRows<Bytes>, rows: Range<Int>, into dst: Plane<UInt8>) {
        guard !rows.isEmpty else { return }
        let span = ys.span, samples = 4 * columns.count, stride = 4 * src.width + 32
        let ring = UnsafeMutablePointer<UInt16>.allocate(capacity: span * stride)
        let window = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: span)
        let vertical = UnsafeMutablePointer<UInt16>.allocate(capacity: samples + 8)
        let horizontal = UnsafeMutablePointer<UInt16>.allocate(capacity: 4 * dst.width)
        defer { ring.deallocate(); window.deallocate(); vertical.deallocate(); horizontal.deallocate() }
        var made = Int.min
        firsts.withUnsafeBufferPointer { firsts in
            xPairs.withUnsafeBufferPointer { xPairs in
                yPairs.withUnsafeBufferPointer { yPairs in
                    for y in rows {
                        let top = Int(ys.first[y])
                        for r in max(top, made)..<(top + span) {
                            let slot = ring + (r % span) * stride
                            // Decoded into its slot (a source that makes rows writes the scratch it is lent).
                            _ = src.row(r, scratch: slot)
                        }
                        made = top + span
                        for k in 0..<span { window[k] = UnsafePointer(ring + ((top + k) % span) * stride + 4 * columns.lowerBound) }
                        frost_linear_vertical(window, yPairs.baseAddress! + y * ys.pairStride, Int32(span), Int32(ys.bits), samples,
                                              vertical)
                        frost_linear_horizontal(vertical, firsts.baseAddress!, xPairs.baseAddress!, Int32(xs.span), Int32(xs.bits),
                                                dst.width, horizontal)
                        if capsColors { Self.capColors(horizontal, pixels: dst.width) }
                        LinearLight.encode(horizontal, pixels: dst.width, into: dst.row(y))
                    }
                }
            }
        }
    }

    /// Each color at most its alpha (a negative lobe can ring one above it).
    private static func capColors(_ row: UnsafeMutablePointer<UInt16>, pixels: Int) {
        for i in 0..<pixels {
            let a = row[4 * i + 3]
            for c in 0..<3 { row[4 * i + c] = min(row[4 * i + c], a) }
        }
    }
}
