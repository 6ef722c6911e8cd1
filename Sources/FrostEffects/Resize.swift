import CFrostSystem
@_spi(Kernels) import FrostCore

/// How `resized(width:height:fit:)` fits an image into a box of both sizes (CSS object-fit).
public enum ResizeFit: String, Sendable, CaseIterable {
    /// Inside the box, aspect ratio kept: one side may come out shorter.
    case contain
    /// The whole box, aspect ratio kept, the overflow cut equally from both ends.
    case cover
    /// Exactly the box, stretched.
    case fill
    /// The whole box: the image inside it, aspect kept, centred, the rest filled with a padding
    /// colour (sharp's `contain`, vips's `--crop` none with an embed).
    case pad
}

extension Image {
    /// The image resampled to `width` × `height` with `kernel` (stretched where an axis shrinks, so
    /// nothing aliases). Works in premultiplied space; keeps the image's alpha convention flag.
    /// `linear`: resampled in linear light (`LinearLight`).
    public func resized(width w: Int, height h: Int, kernel: ResampleKernel = .default, linear: Bool = false,
                        threads: Int? = nil) -> Image {
        precondition(w > 0 && h > 0, "size must be positive")
        if w == width && h == height { return self }
        return resized(over: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), width: w, height: h, kernel: kernel,
                       linear: linear, threads: threads)
    }

    /// The image resized to a width, a height or a box (`fit`); a missing size follows the aspect
    /// ratio, rounded to the nearest pixel (at least 1). `.pad` fills the box around the image
    /// with `padding`.
    public func resized(width w: Int?, height h: Int?, fit: ResizeFit, padding: Color = .clear, kernel: ResampleKernel = .default,
                        linear: Bool = false, threads: Int? = nil) -> Image {
        if fit == .pad, let w, let h {
            let inside = resizedSize(width: w, height: h, fit: .contain)
            return resized(width: inside.width, height: inside.height, kernel: kernel, linear: linear, threads: threads)
                .embedded(width: w, height: h, x: (w - inside.width) / 2, y: (h - inside.height) / 2, padding: padding)
        }
        let placement = ResizePlacement(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
        guard fit == .cover else {
            return resized(width: placement.width, height: placement.height, kernel: kernel, linear: linear, threads: threads)
        }
        return resized(over: placement.rect, width: placement.width, height: placement.height, kernel: kernel, linear: linear,
                       threads: threads)
    }

    /// The size `resized(width:height:fit:)` gives, known before any pixel is made (so that a
    /// caller can check it against a limit first).
    public func resizedSize(width w: Int?, height h: Int?, fit: ResizeFit) -> (width: Int, height: Int) {
        ResizePlacement.size(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
    }

    /// The part `region` of the image resized to `width` × `height`: the pixels a resize and then a
    /// crop make, without making the others (the service's scale and crop at a gravity).
    public func resized(width w: Int, height h: Int, keeping region: PixelBounds, kernel: ResampleKernel = .default,
                        threads: Int? = nil) -> Image {
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0 && region.x + region.width <= w
                     && region.y + region.height <= h, "the region lies inside the resized image")
        if region.width == w, region.height == h { return resized(width: w, height: h, kernel: kernel, threads: threads) }
        return resized(over: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), region: region, kernel: kernel, linear: false, threads: threads)
    }

    /// The w × h pixels of the image stretched over `rect`, in the image's alpha convention.
    private func resized(over rect: Rect, width w: Int, height h: Int, kernel: ResampleKernel, linear: Bool, threads: Int?) -> Image {
        resized(over: rect, region: PixelBounds(x: 0, y: 0, width: w, height: h), kernel: kernel, linear: linear, threads: threads)
    }

    /// The pixels of `region` of the image stretched over `rect`, in the image's alpha convention.
    private func resized(over rect: Rect, region: PixelBounds, kernel: ResampleKernel, linear: Bool, threads: Int?) -> Image {
        var result = resampled(over: rect, region: region, kernel: kernel, linear: linear, threads: threads)
        result.isGray = isGray
        result.iccProfile = iccProfile
        return isPremultiplied ? result : result.unpremultiplied()
    }

    /// The image stretched over `rect` (fractional destination pixel coordinates) and sampled at
    /// the destination pixels of `region` with `kernel` (linear by default: drawing an image into
    /// a layer filters as a GPU's texture sampling does). Pixels of `region` outside `rect` repeat
    /// the image's edge (callers clip with a coverage). Premultiplied result. `linear`: in linear
    /// light (`LinearResamplePlan`).
    public func resampled(over rect: Rect, region: PixelBounds, kernel: ResampleKernel = .linear, linear: Bool = false,
                          threads: Int? = nil) -> Image {
        precondition(width > 0 && height > 0 && rect.width > 0 && rect.height > 0 && !region.isEmpty,
                     "resampling needs a non-empty image, rectangle and region")
        // One image pixel per target pixel at a whole-pixel offset: every tap lands on a pixel
        // center with weight 1, so the filter is a copy (an animation's blur frames, drawn as
        // they were rendered, take this path every frame).
        if rect.width == Double(width), rect.height == Double(height), rect.x == rect.x.rounded(), rect.y == rect.y.rounded() {
            // Cropped first: premultiplying works pixel by pixel, so only the region needs it.
            var out = cropped(to: PixelBounds(x: region.x - Int(rect.x), y: region.y - Int(rect.y),
                                              width: region.width, height: region.height)).premultiplied()
            out.isGray = false
            out.iccProfile = nil
            return out
        }
        let threads = RowBands.threads(threads)
        let pixels = [UInt8](unsafeUninitializedCapacity: region.width * region.height * 4) { out, count in
            let dst = Plane(base: out.baseAddress!, width: region.width, height: region.height)
            if linear {
                let plan = LinearResamplePlan(kernel: kernel, width: width, height: height, over: rect, region: region, hasAlpha: hasAlpha)
                withLinearRows { src in RowBands.run(region.height, threads: threads) { band in plan.run(src, rows: band, into: dst) } }
            } else {
                let plan = ResamplePlan(kernel: kernel, width: width, height: height, over: rect, region: region, hasAlpha: hasAlpha)
                premultiplied().withPlane { src in RowBands.run(region.height, threads: threads) { band in plan.run(src, rows: band, into: dst) } }
            }
            count = region.width * region.height * 4
        }
        return Image(width: region.width, height: region.height, pixels: pixels, isPremultiplied: true, hasAlpha: hasAlpha)
    }
}

/// How `resampled(over:region:kernel:)` makes its rows, any strip of them from a window of
/// source rows: the horizontal taps turn source rows, four at a time, into rows of 8.7
/// fixed-point samples (clamped to [0, 255]) in a ring of `span` rows, just before the vertical
/// taps need them (tap windows only move down), and the vertical taps make the output bytes. Both
/// passes clamp, as Pillow's and libvips's 8-bit passes do. (Vertical first, over the full-width
/// rows, took twice as long: its windows of 22 rows lie a power of two apart and thrash the
/// cache sets, and interleaving two rows of bytes costs two shuffles per multiply-add.)
struct ResamplePlan {
    let xs: ResampleAxis
    let ys: ResampleAxis
    /// The vertical weights two to a word (`frost_resample_vertical`).
    let pairs: [UInt32]
    /// The most rows one output row's window starts below the one before.
    let longestStep: Int
    /// Per output row, its vertical taps up to the last nonzero weight (rounded up to a pair).
    let verticalTaps: [Int32]
    /// The horizontal weights as the VNNI pass takes them, their base and groups of taps per
    /// output, or none where it cannot (`ResampleAxis.split`).
    let split: [Int8]
    let splitBase: Int32
    let groups: [Int32]
    /// Whether the horizontal samples are clamped: only a filter with negative lobes has a negative
    /// weight, which can take a sum out of range.
    let horizontalClamps: Bool
    /// Whether colors are capped at their alpha after the taps: a filter with negative lobes can
    /// ring a premultiplied color above its alpha, which compositing would then overflow.
    let capsColors: Bool

    init(kernel: ResampleKernel, width: Int, height: Int, over rect: Rect, region: PixelBounds, hasAlpha: Bool) {
        horizontalClamps = kernel.hasNegativeLobes
        capsColors = hasAlpha && kernel.hasNegativeLobes
        xs = ResampleAxis.part(kernel: kernel, sourceCount: width, origin: rect.x, length: rect.width, outputStart: region.x,
                               outputCount: region.width, multiple: Int(frost_resample_tap_multiple()), sampleMaximum: 255,
                               weightMaximum: 16_383)
        ys = ResampleAxis.part(kernel: kernel, sourceCount: height, origin: rect.y, length: rect.height, outputStart: region.y,
                               outputCount: region.height, multiple: 2, sampleMaximum: Int(FROST_RESAMPLE_TOP))
        pairs = ys.pairs
        longestStep = ys.longestStep
        verticalTaps = ys.usedTaps(multiple: 2)
        (split, splitBase, groups) = xs.split(shift: xs.bits - 7) ?? ([], 0, [])
    }

    /// The source rows that output rows `rows` read.
    func sourceRows(for rows: Range<Int>) -> Range<Int> { ys.sources(for: rows) }

    /// Output rows `rows` into `dst` from `src`, which holds at least `sourceRows(for: rows)`; on
    /// the calling thread.
    func run<Source: RowSource<UInt8>>(_ src: Source, rows: Range<Int>, into dst: Plane<UInt8>) {
        guard !rows.isEmpty else { return }
        // Rows are made four at a time, up to three beyond the current window (never beyond the
        // strip's), and two output rows may share a window of span + step rows (one more to make
        // it even): the ring holds span + step + 4.
        let span = ys.span, longest = span + longestStep + 1, slots = longest + 3
        let samples = 4 * xs.first.count, rowBytes = 4 * src.width
        let end = sourceRows(for: rows).upperBound
        let ring = UnsafeMutablePointer<UInt16>.allocate(capacity: slots * samples)
        let window = UnsafeMutablePointer<UnsafePointer<UInt16>?>.allocate(capacity: longest)
        let shared = UnsafeMutablePointer<UInt32>.allocate(capacity: longest)   // two outputs' weights over one window
        let sources = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 4)
        let targets = UnsafeMutablePointer<UnsafeMutablePointer<UInt16>?>.allocate(capacity: 4)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: Source.makesRows ? 4 * rowBytes : 0)
        defer {
            ring.deallocate(); window.deallocate(); shared.deallocate(); sources.deallocate(); targets.deallocate(); scratch.deallocate()
        }
        withTables { t in
            var made = Int.min, y = rows.lowerBound
            while y < rows.upperBound {
                let top = Int(ys.first[y])
                // The next output row's window starts `step` rows lower; where that is short
                // against the span, both rows are made from one window (read once).
                let step = y + 1 < rows.upperBound ? Int(ys.first[y + 1]) - top : span
                let two = span % 2 == 0 && 4 * step <= span, needed = two ? span + step : span
                var r = max(top, made)
                while r < top + needed {
                    let n = min(4, end - r)
                    for k in 0..<n {
                        sources[k] = src.row(r + k, scratch: scratch + k * rowBytes)
                        targets[k] = ring + ((r + k) % slots) * samples
                    }
                    frost_resample_horizontal(sources, Int32(n), t.firsts, t.weights, t.split, t.groups, splitBase,
                                              horizontalClamps ? 1 : 0, Int32(xs.span),
                                              Int32(xs.bits - 7), xs.first.count, targets)
                    r += n
                }
                made = r
                for k in 0..<needed { window[k] = UnsafePointer(ring + ((top + k) % slots) * samples) }
                if two {
                    // An odd union gets a last row of weight 0 (any row made will do).
                    let taps = (needed + 1) / 2 * 2
                    if taps > needed { window[needed] = window[needed - 1] }
                    Self.weightPairs(ys.weights, output: y, span: span, offset: 0, taps: taps, into: shared)
                    Self.weightPairs(ys.weights, output: y + 1, span: span, offset: step, taps: taps, into: shared + taps / 2)
                    frost_resample_vertical_two(window, shared, shared + taps / 2, Int32(taps), Int32(ys.bits + 7), samples,
                                                dst.row(y), dst.row(y + 1))
                } else {
                    frost_resample_vertical(window, t.pairs + y * ys.pairStride, verticalTaps[y], Int32(ys.bits + 7), samples, dst.row(y))
                }
                for row in y..<(y + (two ? 2 : 1)) where capsColors { Self.capColors(dst.row(row), pixels: xs.first.count) }
                y += two ? 2 : 1
            }
        }
    }

    /// Output `output`'s vertical weights as pairs over a window of `taps` rows in which its own
    /// span starts `offset` rows down (zero elsewhere), as `frost_resample_vertical` takes them.
    static func weightPairs(_ weights: [Int16], output: Int, span: Int, offset: Int, taps: Int,
                                    into pairs: UnsafeMutablePointer<UInt32>) {
        func weight(_ k: Int) -> UInt32 {
            let j = k - offset
            return j >= 0 && j < span ? UInt32(UInt16(bitPattern: weights[output * span + j])) : 0
        }
        for p in 0..<(taps / 2) { pairs[p] = weight(2 * p) | weight(2 * p + 1) << 16 }
    }

    /// The tables as the C passes take them (`split` and `groups` nil where the VNNI pass cannot run).
    private struct Tables {
        let firsts: UnsafePointer<Int32>, weights: UnsafePointer<Int16>, pairs: UnsafePointer<UInt32>
        let split: UnsafePointer<Int8>?, groups: UnsafePointer<Int32>?
    }

    private func withTables<R>(_ body: (Tables) -> R) -> R {
        xs.first.withUnsafeBufferPointer { firsts in
            xs.weights.withUnsafeBufferPointer { weights in
                pairs.withUnsafeBufferPointer { pairs in
                    split.withUnsafeBufferPointer { split in
                        groups.withUnsafeBufferPointer { groups in
                            body(Tables(firsts: firsts.baseAddress!, weights: weights.baseAddress!, pairs: pairs.baseAddress!,
                                        split: split.isEmpty ? nil : split.baseAddress, groups: groups.isEmpty ? nil : groups.baseAddress))
                        }
                    }
                }
            }
        }
    }
}

extension ResamplePlan {
    /// Each color at most its alpha (a negative lobe can ring one above it): bytes or 8.7 samples.
    static func capColors<Sample: FixedWidthInteger>(_ row: UnsafeMutablePointer<Sample>, pixels: Int) {
        for i in 0..<pixels {
            let a = row[4 * i + 3]
            for c in 0..<3 { row[4 * i + c] = min(row[4 * i + c], a) }
        }
    }
}

/// Where `resized(width:height:fit:)` draws an image: the result's size and the rectangle of it
/// the image is stretched over (`.cover` overflows it; `.pad` places `.contain`'s result).
package struct ResizePlacement: Sendable, Equatable {
    package let rect: Rect
    package let width: Int
    package let height: Int

    package init(sourceWidth: Int, sourceHeight: Int, width w: Int?, height h: Int?, fit: ResizeFit) {
        if fit == .cover, let w, let h {
            let s = max(Double(w) / Double(sourceWidth), Double(h) / Double(sourceHeight))
            let scaledWidth = Double(sourceWidth) * s, scaledHeight = Double(sourceHeight) * s
            rect = Rect(x: (Double(w) - scaledWidth) / 2, y: (Double(h) - scaledHeight) / 2, width: scaledWidth, height: scaledHeight)
            (width, height) = (w, h)
        } else {
            (width, height) = Self.size(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: w, height: h,
                                        fit: fit == .pad ? .contain : fit)
            rect = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        }
    }

    /// A missing side follows the aspect ratio, rounded to the nearest pixel (at least 1).
    package static func size(sourceWidth: Int, sourceHeight: Int, width w: Int?, height h: Int?, fit: ResizeFit) -> (width: Int, height: Int) {
        let sourceWidth = Double(sourceWidth), sourceHeight = Double(sourceHeight)
        func side(_ x: Double) -> Int { max(1, Int(x.rounded())) }
        switch (w, h) {
        case (nil, nil): return (Int(sourceWidth), Int(sourceHeight))
        case (let w?, nil): return (w, side(sourceHeight * Double(w) / sourceWidth))
        case (nil, let h?): return (side(sourceWidth * Double(h) / sourceHeight), h)
        case (let w?, let h?):
            guard fit == .contain else { return (w, h) }
            let s = min(Double(w) / sourceWidth, Double(h) / sourceHeight)
            return (side(sourceWidth * s), side(sourceHeight * s))
        }
    }
}
