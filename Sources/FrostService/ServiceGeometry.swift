/// The sizes a processing URL makes of a source, as imgproxy computes them (its
/// processing/prepare.go: `calcScale`, `calcSizes`, `limitScale`), so that every URL gives the
/// size imgproxy gives: the crop before scaling (`c`), the scale of each axis (the box, the
/// resizing type, `el`, `dpr`, `z`, `mw`/`mh`), the result's crop (`fill`, `fill-down`), the
/// extensions (`ex`, `exar`) and the padding. Known before a pixel is decoded, so that every
/// size the request would make is checked against the pixel limit first (`checkLimits`).
///
/// The source's size is the picture as the steps see it: upright (`ar`) and rotated (`rot`).
struct ServiceGeometry: Equatable {
    /// The size of the source as the steps see it.
    let sourceWidth: Int, sourceHeight: Int
    /// The crop before scaling (0: none on that axis).
    let cropWidth: Int, cropHeight: Int
    /// Scale factors of each axis, and the dpr that is left after `el:0` caps it.
    private(set) var wScale = 1.0, hScale = 1.0, dprScale = 1.0
    /// The box × dpr × zoom (0: not given).
    private(set) var targetWidth = 0, targetHeight = 0
    /// The (cropped) source scaled.
    private(set) var scaledWidth = 0, scaledHeight = 0
    /// The result's crop after scaling (0: none on that axis).
    private(set) var resultCropWidth = 0, resultCropHeight = 0
    /// `exar`'s box (0: none).
    private(set) var aspectWidth = 0, aspectHeight = 0

    /// `maxResultDimension`: imgproxy's `IMGPROXY_MAX_RESULT_DIMENSION` (0: none): a result whose
    /// longer side would pass it is scaled down to it.
    init(width: Int, height: Int, options o: ProcessingOptions, maxResultDimension: Int = 0) {
        sourceWidth = width
        sourceHeight = height
        cropWidth = Self.cropSize(width, o.crop?.width ?? 0)
        cropHeight = Self.cropSize(height, o.crop?.height ?? 0)
        let w = PixelRounding.minNonZero(cropWidth, width), h = PixelRounding.minNonZero(cropHeight, height)
        calcScale(w, h, o)
        calcSizes(w, h, o)
        limitScale(w, h, o, maxResultDimension)
    }

    /// A crop option's size: 0 none, 1 or more pixels (truncated), below 1 a fraction.
    private static func cropSize(_ size: Int, _ crop: Double) -> Int {
        crop == 0 ? 0 : crop >= 1 ? PixelRounding.int(crop.rounded(.towardZero)) : max(1, PixelRounding.scale(size, crop))
    }

    private mutating func calcScale(_ width: Int, _ height: Int, _ o: ProcessingOptions) {
        var wShrink = 1.0, hShrink = 1.0
        let srcW = Double(width), srcH = Double(height)
        let dstW = o.width != 0 ? Double(o.width) : srcW, dstH = o.height != 0 ? Double(o.height) : srcH
        if dstW != srcW { wShrink = srcW / dstW }
        if dstH != srcH { hShrink = srcH / dstH }
        if wShrink != 1 || hShrink != 1 {
            var type = o.resizingType
            if type == .auto { type = (srcW - srcH >= 0) == (dstW - dstH >= 0) ? .fill : .fit }
            switch type {
            case _ where o.width == 0 && type != .force: wShrink = hShrink
            case _ where o.height == 0 && type != .force: hShrink = wShrink
            case .fit: (wShrink, hShrink) = (max(wShrink, hShrink), max(wShrink, hShrink))
            case .fill, .fillDown: (wShrink, hShrink) = (min(wShrink, hShrink), min(wShrink, hShrink))
            default: break
            }
        }
        wShrink /= o.zoomWidth
        hShrink /= o.zoomHeight
        dprScale = o.dpr
        if !o.enlarge {
            let minShrink = min(wShrink, hShrink)
            if minShrink < 1 {
                wShrink /= minShrink
                hShrink /= minShrink
                // The image cannot reach the box: a dpr below 1 would take it further away, so it is
                // compensated (not when extending: the composition stays the same whatever the dpr).
                if !o.extend { dprScale /= minShrink }
            }
            // The largest dpr that does not enlarge the image.
            dprScale = min(dprScale, wShrink, hShrink)
        }
        if o.minWidth > 0, case let minShrink = srcW / Double(o.minWidth), minShrink < wShrink {
            hShrink /= wShrink / minShrink
            wShrink = minShrink
        }
        if o.minHeight > 0, case let minShrink = srcH / Double(o.minHeight), minShrink < hShrink {
            wShrink /= hShrink / minShrink
            hShrink = minShrink
        }
        wShrink /= dprScale
        hShrink /= dprScale
        // At least a pixel.
        wScale = 1 / min(wShrink, srcW)
        hScale = 1 / min(hShrink, srcH)
    }

    private mutating func calcSizes(_ width: Int, _ height: Int, _ o: ProcessingOptions) {
        targetWidth = PixelRounding.scale(o.width, dprScale * o.zoomWidth)
        targetHeight = PixelRounding.scale(o.height, dprScale * o.zoomHeight)
        // At least a pixel, whatever a URL's extreme numbers made of the scales (an underflow's NaN).
        scaledWidth = max(1, PixelRounding.scale(width, wScale))
        scaledHeight = max(1, PixelRounding.scale(height, hScale))
        (resultCropWidth, resultCropHeight) = (targetWidth, targetHeight)
        if o.resizingType == .fillDown, !o.enlarge {
            // The box cut to its shape inside the scaled image.
            let diffW = Double(targetWidth) / Double(scaledWidth), diffH = Double(targetHeight) / Double(scaledHeight)
            if diffW > diffH, diffW > 1 {
                (resultCropWidth, resultCropHeight) = (scaledWidth, PixelRounding.scale(scaledWidth, Double(targetHeight) / Double(targetWidth)))
            } else if diffH > diffW, diffH > 1 {
                (resultCropWidth, resultCropHeight) = (PixelRounding.scale(scaledHeight, Double(targetWidth) / Double(targetHeight)), scaledHeight)
            }
        }
        (aspectWidth, aspectHeight) = (0, 0)
        if o.extendAspectRatio, targetWidth > 0, targetHeight > 0 {
            let outW = PixelRounding.minNonZero(scaledWidth, resultCropWidth), outH = PixelRounding.minNonZero(scaledHeight, resultCropHeight)
            let diffW = Double(targetWidth) / Double(outW), diffH = Double(targetHeight) / Double(outH)
            if diffH > diffW {
                (aspectWidth, aspectHeight) = (outW, PixelRounding.scale(outW, Double(targetHeight) / Double(targetWidth)))
            } else if diffW > diffH {
                (aspectWidth, aspectHeight) = (PixelRounding.scale(outH, Double(targetWidth) / Double(targetHeight)), outH)
            }
        }
    }

    private mutating func limitScale(_ width: Int, _ height: Int, _ o: ProcessingOptions, _ limit: Int) {
        guard limit > 0 else { return }
        var outW = PixelRounding.minNonZero(scaledWidth, resultCropWidth), outH = PixelRounding.minNonZero(scaledHeight, resultCropHeight)
        if o.extend {
            (outW, outH) = (max(outW, targetWidth), max(outH, targetHeight))
        } else if o.extendAspectRatio {
            (outW, outH) = (max(outW, aspectWidth), max(outH, aspectHeight))
        }
        let p = padding(o)
        (outW, outH) = (PixelRounding.sum(outW, p.left, p.right), PixelRounding.sum(outH, p.top, p.bottom))
        guard outW > limit || outH > limit else { return }
        let down = Double(limit) / Double(max(outW, outH))
        wScale = max(wScale * down, 1 / Double(width))
        hScale = max(hScale * down, 1 / Double(height))
        dprScale *= down
        calcSizes(width, height, o)
    }

    /// The padding in result pixels (× the dpr left), as imgproxy rounds it.
    func padding(_ o: ProcessingOptions) -> ProcessingOptions.Padding {
        let p = o.padding, s = dprScale
        return .init(top: PixelRounding.scaleToEven(p.top, s), right: PixelRounding.scaleToEven(p.right, s),
                     bottom: PixelRounding.scaleToEven(p.bottom, s), left: PixelRounding.scaleToEven(p.left, s))
    }

    /// The result's crop of the scaled image: its size (each side at most the scaled image's).
    var regionSize: (width: Int, height: Int) {
        (PixelRounding.minNonZero(resultCropWidth, scaledWidth), PixelRounding.minNonZero(resultCropHeight, scaledHeight))
    }

    /// The size of every picture the steps make, in order: the scaled region, then each extension
    /// (`ex`, `exar`) and the padding that changes it. The last is the result's (before an
    /// encoder's limit); each is checked against the pixel limit before any work.
    func stageSizes(_ o: ProcessingOptions) -> [(width: Int, height: Int)] {
        var sizes = [regionSize]
        func extended(to w: Int, _ h: Int) {
            let (iw, ih) = sizes.last!
            guard w > iw || h > ih else { return }
            sizes.append((w > 0 ? w : iw, h > 0 ? h : ih))
        }
        if o.extend { extended(to: targetWidth, targetHeight) }
        if o.extendAspectRatio, aspectWidth > 0, aspectHeight > 0 { extended(to: aspectWidth, aspectHeight) }
        let p = padding(o), (w, h) = sizes.last!
        if !p.isEmpty { sizes.append((PixelRounding.sum(w, p.left, p.right), PixelRounding.sum(h, p.top, p.bottom))) }
        return sizes
    }

    /// The result's size (before an encoder's limit).
    func resultSize(_ o: ProcessingOptions) -> (width: Int, height: Int) { stageSizes(o).last! }
}
