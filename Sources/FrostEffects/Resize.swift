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
        guard fit == .cover, let w, let h else {
            let size = resizedSize(width: w, height: h, fit: fit)
            return resized(width: size.width, height: size.height, threads: threads)
        }
        let s = max(Double(w) / Double(width), Double(h) / Double(height))
        let scaledWidth = Double(width) * s, scaledHeight = Double(height) * s
        let rect = Rect(x: (Double(w) - scaledWidth) / 2, y: (Double(h) - scaledHeight) / 2, width: scaledWidth, height: scaledHeight)
        return resized(over: rect, width: w, height: h, threads: threads)
    }

    /// The size `resized(width:height:fit:)` gives, known before any pixel is made (so that a
    /// caller can check it against a limit first).
    public func resizedSize(width w: Int?, height h: Int?, fit: ResizeFit) -> (width: Int, height: Int) {
        let sourceWidth = Double(width), sourceHeight = Double(height)
        func side(_ x: Double) -> Int { max(1, Int(x.rounded())) }
        switch (w, h) {
        case (nil, nil): return (width, height)
        case (let w?, nil): return (w, side(sourceHeight * Double(w) / sourceWidth))
        case (nil, let h?): return (side(sourceWidth * Double(h) / sourceHeight), h)
        case (let w?, let h?):
            guard fit == .contain else { return (w, h) }
            let s = min(Double(w) / sourceWidth, Double(h) / sourceHeight)
            return (side(sourceWidth * s), side(sourceHeight * s))
        }
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
        // Shrinking by f ≥ 2 on both axes: an f×f box average first (the reducing step Pillow calls
        // reducing_gap), so the triangle taps stay short. The box grid covers f·⌈n/f⌉ source pixels.
        // (Capped at the image's size: beyond that the reduction is one pixel either way.)
        let f = Int(min(Double(width) / rect.width, Double(height) / rect.height, Double(max(width, height))))
        if f >= 2 {
            let small = reduced(by: f, threads: threads)
            let covered = Rect(x: rect.x, y: rect.y, width: rect.width * Double(small.width * f) / Double(width),
                               height: rect.height * Double(small.height * f) / Double(height))
            return small.resampled(over: covered, region: region, threads: threads)
        }
        let source = premultiplied()
        let xs = ResampleAxis(sourceCount: width, origin: rect.x, length: rect.width, outputStart: region.x, outputCount: region.width)
        let ys = ResampleAxis(sourceCount: height, origin: rect.y, length: rect.height, outputStart: region.y, outputCount: region.height)
        let threads = RowBands.threads(threads)
        let rowFloats = region.width * 4, span = ys.span
        // Each band streams: the horizontal pass fills a ring of `span` Float rows just before the
        // vertical taps need them (tap windows only move down), so the intermediate stays in cache.
        let pixels = [UInt8](unsafeUninitializedCapacity: region.width * region.height * 4) { out, count in
            source.pixels.withUnsafeBufferPointer { src in
                RowBands.run(region.height, threads: threads) { band in
                    let ring = UnsafeMutablePointer<Float>.allocate(capacity: span * rowFloats)
                    let window = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: span)
                    defer { ring.deallocate(); window.deallocate() }
                    var computedEnd = Int.min
                    for y in band {
                        let top = ys.first[y]
                        for r in max(top, computedEnd)..<(top + span) {
                            xs.apply(src.baseAddress! + r * width * 4, into: ring + (r % span) * rowFloats, count: region.width)
                        }
                        computedEnd = top + span
                        for k in 0..<span { window[k] = ring + ((top + k) % span) * rowFloats }
                        ys.applyVertically(window, output: y, samples: rowFloats, into: out.baseAddress! + y * rowFloats)
                    }
                }
            }
            count = region.width * region.height * 4
        }
        return Image(width: region.width, height: region.height, pixels: pixels, isPremultiplied: true, hasAlpha: hasAlpha)
    }
}

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
