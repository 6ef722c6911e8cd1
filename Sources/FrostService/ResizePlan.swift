import FrostCore
import FrostEffects
import FrostStream

/// imgproxy's resizing types on Frost's resize (docs/serve.md, "Resizing"): the box is the
/// option's width and height × dpr; `fit` is `frost resize --fit contain`, a centred `fill` is
/// `--fit cover`, `force` is `--fit fill`. A `fill` by another gravity scales to cover the box
/// then crops at the gravity; a box the image would have to grow into (without `el:1`) is not
/// grown into: `fit` keeps the size, `fill` crops to the box's part inside the image, `force`
/// shrinks each side at most to the box.
struct ResizePlan {
    /// The resize, nil when none is asked for or needed.
    private(set) var step: FilterStep?
    /// The crop after it (or without it): width, height and gravity.
    private var crop: (width: Int, height: Int, gravity: ProcessingOptions.Gravity)?
    /// The box an extension fills, when asked for.
    private var extendBox: (width: Int, height: Int, gravity: ProcessingOptions.Gravity)?

    init(_ o: ProcessingOptions, width w0: Int, height h0: Int) {
        var tw = Int((Double(o.width) * o.dpr).rounded()), th = Int((Double(o.height) * o.dpr).rounded())
        if o.extend, tw > 0, th > 0 { extendBox = (tw, th, o.extendGravity) }
        guard tw > 0 || th > 0 else { return }
        var type = o.resizingType
        if type == .auto { type = tw > 0 && th > 0 && (w0 >= h0) != (tw >= th) ? .fit : .fill }
        if tw == 0 || th == 0, type != .force { type = .fit }
        let noEnlarge = !o.enlarge
        switch type {
        case .fit, .auto:
            step = .resize(width: tw > 0 ? tw : nil, height: th > 0 ? th : nil, fit: .contain, noEnlarge: noEnlarge, padding: .clear, kernel: o.kernel)
        case .force:
            if tw == 0 { tw = max(1, Int((Double(w0) * Double(th) / Double(h0)).rounded())) }
            if th == 0 { th = max(1, Int((Double(h0) * Double(tw) / Double(w0)).rounded())) }
            if noEnlarge { (tw, th) = (min(tw, w0), min(th, h0)) }
            if (tw, th) != (w0, h0) { step = .resize(width: tw, height: th, fit: .fill, noEnlarge: false, padding: .clear, kernel: o.kernel) }
        case .fill, .fillDown:
            if type == .fillDown {
                // A box larger than the image: the largest box of its shape inside the image.
                let k = min(1, Double(w0) / Double(tw), Double(h0) / Double(th))
                (tw, th) = (max(1, Int((Double(tw) * k).rounded())), max(1, Int((Double(th) * k).rounded())))
            }
            let scale = max(Double(tw) / Double(w0), Double(th) / Double(h0))
            if scale > 1, noEnlarge {
                crop = (min(tw, w0), min(th, h0), o.gravity)
            } else if o.gravity.isCentre {
                step = .resize(width: tw, height: th, fit: .cover, noEnlarge: false, padding: .clear, kernel: o.kernel)
            } else {
                let (sw, sh) = (max(tw, Int((Double(w0) * scale).rounded())), max(th, Int((Double(h0) * scale).rounded())))
                step = .resize(width: sw, height: sh, fit: .fill, noEnlarge: false, padding: .clear, kernel: o.kernel)
                crop = (tw, th, o.gravity)
            }
        }
    }

    /// The size an extension makes (nil: none asked for), to check against the limits before any work.
    var extensionSize: (width: Int, height: Int)? { extendBox.map { ($0.width, $0.height) } }

    /// The image cropped to the plan's box at its gravity (itself when there is none or it fits);
    /// a smart gravity keeps what draws the eye, a focus point is centred.
    func cropped(_ image: Image) -> Image {
        guard let crop, crop.width < image.width || crop.height < image.height else { return image }
        let (w, h) = (min(crop.width, image.width), min(crop.height, image.height))
        if crop.gravity.smart { return image.cropped(to: image.attentionCrop(width: w, height: h)) }
        if let focus = crop.gravity.focus {
            // Centred on the point, kept inside (imgproxy's focus point).
            let x = min(max(Int((focus.x * Double(image.width) - Double(w) / 2).rounded()), 0), image.width - w)
            let y = min(max(Int((focus.y * Double(image.height) - Double(h) / 2).rounded()), 0), image.height - h)
            return image.cropped(to: PixelBounds(x: x, y: y, width: w, height: h))
        }
        let x = Self.offset(image.width - w, crop.gravity.x, crop.gravity.offsetX)
        let y = Self.offset(image.height - h, crop.gravity.y, crop.gravity.offsetY)
        return image.cropped(to: PixelBounds(x: x, y: y, width: w, height: h))
    }

    /// The image placed on the extension's box at its gravity, the rest `background`.
    func extended(_ image: Image, background: Color) -> Image {
        guard let box = extendBox, image.width < box.width || image.height < box.height else { return image }
        let (w, h) = (max(box.width, image.width), max(box.height, image.height))
        return image.embedded(width: w, height: h, x: Self.offset(w - image.width, box.gravity.x, box.gravity.offsetX),
                              y: Self.offset(h - image.height, box.gravity.y, box.gravity.offsetY), padding: background)
    }

    /// Where a part `room` pixels smaller than the whole begins: at the gravity's fraction, moved
    /// by the offset, kept inside.
    private static func offset(_ room: Int, _ fraction: Double, _ shift: Double) -> Int {
        min(max(Int((Double(room) * fraction + shift).rounded(.down)), 0), room)
    }
}
