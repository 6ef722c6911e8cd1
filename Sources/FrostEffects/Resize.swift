import FrostCore

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
    /// The image resampled to `width` × `height`: bilinear with pixel centers aligned, and, where
    /// an axis shrinks, an area average (a triangle as wide as the shrink factor) so it does not
    /// alias. Works in premultiplied space; keeps the image's alpha convention flag.
    public func resized(width w: Int, height h: Int, threads: Int? = nil) -> Image {
        precondition(w > 0 && h > 0, "size must be positive")
        if w == width && h == height { return self }
        return resized(over: Rect(x: 0, y: 0, width: Double(w), height: Double(h)), width: w, height: h, threads: threads)
    }

    /// The image resized to a width, a height or a box (`fit`); a missing size follows the aspect
    /// ratio, rounded to the nearest pixel (at least 1). `.pad` fills the box around the image
    /// with `padding`.
    public func resized(width w: Int?, height h: Int?, fit: ResizeFit, padding: Color = .clear, threads: Int? = nil) -> Image {
        if fit == .pad, let w, let h {
            let inside = resizedSize(width: w, height: h, fit: .contain)
            return resized(width: inside.width, height: inside.height, threads: threads)
                .embedded(width: w, height: h, x: (w - inside.width) / 2, y: (h - inside.height) / 2, padding: padding)
        }
        let placement = ResizePlacement(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
        guard fit == .cover else { return resized(width: placement.width, height: placement.height, threads: threads) }
        return resized(over: placement.rect, width: placement.width, height: placement.height, threads: threads)
    }

    /// The size `resized(width:height:fit:)` gives, known before any pixel is made (so that a
    /// caller can check it against a limit first).
    public func resizedSize(width w: Int?, height h: Int?, fit: ResizeFit) -> (width: Int, height: Int) {
        ResizePlacement.size(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
    }

    /// The w × h pixels of the image stretched over `rect`, in the image's alpha convention.
    private func resized(over rect: Rect, width w: Int, height h: Int, threads: Int?) -> Image {
        var result = resampled(over: rect, region: PixelBounds(x: 0, y: 0, width: w, height: h), threads: threads)
        result.isGray = isGray
        result.iccProfile = iccProfile
        return isPremultiplied ? result : result.unpremultiplied()
    }

    /// The image stretched over `rect` (fractional destination pixel coordinates) and sampled at
    /// the destination pixels of `region`, with the same filter as `resized`. Pixels of `region`
    /// outside `rect` repeat the image's edge (callers clip with a coverage). Premultiplied result.
    public func resampled(over rect: Rect, region: PixelBounds, threads: Int? = nil) -> Image {
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
        let plan = ResamplePlan(width: width, height: height, over: rect, region: region)
        let source = premultiplied(), threads = RowBands.threads(threads)
        let pixels = [UInt8](unsafeUninitializedCapacity: region.width * region.height * 4) { out, count in
            let dst = Plane(base: out.baseAddress!, width: region.width, height: region.height)
            source.withPlane { src in
                RowBands.run(region.height, threads: threads) { band in plan.run(src, rows: band, into: dst) }
            }
            count = region.width * region.height * 4
        }
        return Image(width: region.width, height: region.height, pixels: pixels, isPremultiplied: true, hasAlpha: hasAlpha)
    }
}

/// How `resampled(over:region:)` makes its rows, any strip of them from a window of source rows:
/// where both axes shrink by f ≥ 2, an f×f box average first (the reducing step Pillow calls
/// reducing_gap, `Resample.boxReduce` rounded to bytes), so that the triangle taps stay short;
/// then a triangle per axis (`ResampleAxis`), horizontal into a ring of Float rows, vertical to
/// bytes.
struct ResamplePlan {
    let width: Int
    let height: Int
    /// The box reduction's factor (1: none).
    let factor: Int
    /// The axes over the reduced image.
    let xs: ResampleAxis
    let ys: ResampleAxis
    let outputWidth: Int

    init(width: Int, height: Int, over rect: Rect, region: PixelBounds) {
        self.width = width
        self.height = height
        // Capped at the image's size: beyond that the reduction is one pixel either way.
        let f = max(1, Int(min(Double(width) / rect.width, Double(height) / rect.height, Double(max(width, height)))))
        factor = f
        // The box grid covers f·⌈n/f⌉ source pixels.
        let rw = (width + f - 1) / f, rh = (height + f - 1) / f
        let covered = Rect(x: rect.x, y: rect.y, width: rect.width * Double(rw * f) / Double(width),
                           height: rect.height * Double(rh * f) / Double(height))
        xs = ResampleAxis(sourceCount: rw, origin: covered.x, length: covered.width, outputStart: region.x, outputCount: region.width)
        ys = ResampleAxis(sourceCount: rh, origin: covered.y, length: covered.height, outputStart: region.y, outputCount: region.height)
        outputWidth = region.width
    }

    /// The rows of the reduced image that output rows `rows` read.
    private func reducedRows(for rows: Range<Int>) -> Range<Int> {
        ys.first[rows.lowerBound]..<(ys.first[rows.upperBound - 1] + ys.span)
    }

    /// The source rows that output rows `rows` read.
    func sourceRows(for rows: Range<Int>) -> Range<Int> {
        let reduced = reducedRows(for: rows)
        return clampedRows(reduced.lowerBound * factor, reduced.upperBound * factor - 1, height)
    }

    /// Output rows `rows` (premultiplied) into `dst` from the premultiplied rows of `src`, which
    /// holds at least `sourceRows(for: rows)`; on the calling thread.
    func run<Source: RowSource<UInt8>>(_ src: Source, rows: Range<Int>, into dst: Plane<UInt8>) {
        guard !rows.isEmpty else { return }
        guard factor > 1 else { return resample(src, rows: rows, into: dst) }
        let needed = reducedRows(for: rows)
        let reduced = Resample.boxReduce(src, factor: factor, margin: 0, threads: 1, rows: needed)
        let bytes = PlaneStorage<UInt8>(width: reduced.width, height: reduced.height, rows: needed)
        let fixed = reduced.plane, small = bytes.plane
        for y in needed { UInt8.store(fixedPointRow: fixed.row(y), pixels: small.width, channels: 4, into: small.row(y)) }
        resample(small, rows: rows, into: dst)
    }

    /// The triangle passes: the horizontal one fills a ring of `span` Float rows just before the
    /// vertical taps need them (tap windows only move down), so the intermediate stays in cache.
    private func resample<Source: RowSource<UInt8>>(_ src: Source, rows: Range<Int>, into dst: Plane<UInt8>) {
        let rowFloats = outputWidth * 4, span = ys.span
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: span * rowFloats)
        let window = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: span)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * src.width)
        defer { ring.deallocate(); window.deallocate(); scratch.deallocate() }
        var computedEnd = Int.min
        for y in rows {
            let top = ys.first[y]
            for r in max(top, computedEnd)..<(top + span) {
                xs.apply(src.row(r, scratch: scratch), into: ring + (r % span) * rowFloats, count: outputWidth)
            }
            computedEnd = top + span
            for k in 0..<span { window[k] = ring + ((top + k) % span) * rowFloats }
            ys.applyVertically(window, output: y, samples: rowFloats, into: dst.row(y))
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
