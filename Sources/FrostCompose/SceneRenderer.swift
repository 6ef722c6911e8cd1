@_spi(Kernels) import FrostCore
import FrostEffects

extension Scene {
    /// The most pixels a canvas or a layer's intermediate image may have (the decoders' default limit).
    public static let maximumPixels = 256_000_000
    /// The largest coordinate (points) a scene may give, and the most pixels per point a layer may
    /// be drawn at once its scale and transforms multiply.
    public static let maximumCoordinate = 1_000_000.0
    /// The most pixels per point a layer may be drawn at.
    public static let maximumPixelsPerPoint = 10_000.0

    /// Renders the scene to a premultiplied image of `pixelWidth` × `pixelHeight`, after checking
    /// its values (`validate()`: a scene built in Swift meets the file format's limits). Files the scene
    /// names come from `assets`; an opaque background gives an opaque image (no alpha when written).
    ///
    /// With `retained`, the layers it names are drawn once into rasters it keeps and then only
    /// placed, in this render and the next ones (an animation's frames). `linear`: layers are
    /// blended, and pictures resampled, in linear light (the backdrop's ImageEffects blur stays
    /// Apple's, on sRGB values).
    public func rendered(assets: SceneAssets = SceneAssets(), threads: Int? = nil,
                         retained: RetainedLayers? = nil, linear: Bool = false) throws(ComposeError) -> Image {
        try validate()
        guard width > 0, height > 0, scale > 0, pixelWidth > 0, pixelHeight > 0 else {
            throw ComposeError("canvas", "the size in pixels must be positive (\(width)×\(height) points at scale \(scale))")
        }
        guard pixelWidth * pixelHeight <= Scene.maximumPixels else {
            throw ComposeError("canvas", "\(pixelWidth)×\(pixelHeight) pixels is more than the limit of \(Scene.maximumPixels)")
        }
        let fill = PackedColor.bytes(background.premultiplied255)
        var canvas = Image(width: pixelWidth, height: pixelHeight, filledWith: fill, isPremultiplied: true)
        canvas.hasAlpha = fill.3 < 255
        let space = LayerSpace(originX: 0, originY: 0, pixelsPerPoint: scale, zoom: 1, width: width, height: height)
        try SceneRenderer(assets: assets, threads: RowBands.threads(threads), retained: retained, linear: linear)
            .draw(layers, into: &canvas, space: space, path: "layers")
        return canvas
    }
}

/// A parent's coordinate system: where its point (0, 0) falls in the target's pixels, pixels per
/// point, the product of the transform scales above (`zoom`), and its bounds' size in points.
struct LayerSpace {
    var originX: Double
    var originY: Double
    var pixelsPerPoint: Double
    var zoom: Double
    var width: Double
    var height: Double
}

/// Draws layers the way Core Animation composites a layer tree: each layer's content is rendered
/// for the pixels its (transformed) frame touches, clipped to its rounded frame, bordered, masked,
/// then its shadow and the layer itself are composited with the layer's opacity and blend mode.
struct SceneRenderer {
    let assets: SceneAssets
    let threads: Int
    var retained: RetainedLayers? = nil
    var linear = false

    func draw(_ layers: [Layer], into canvas: inout Image, space: LayerSpace, path: String) throws(ComposeError) {
        for (i, layer) in layers.enumerated() {
            try draw(layer, into: &canvas, space: space, path: "\(path)[\(i)]")
        }
    }

    private func draw(_ layer: Layer, into canvas: inout Image, space: LayerSpace, path: String) throws(ComposeError) {
        let frame = layer.frame ?? Rect(x: 0, y: 0, width: space.width, height: space.height)
        let t = layer.transform, k = space.pixelsPerPoint * t.scale
        guard k <= Scene.maximumPixelsPerPoint else {
            throw ComposeError("\(path).transform", "\(k) pixels per point (scale times transforms) is more than \(Int(Scene.maximumPixelsPerPoint))")
        }
        let w = frame.width * k, h = frame.height * k
        let rect = Rect(x: space.originX + (frame.midX + t.translateX) * space.pixelsPerPoint - w / 2,
                        y: space.originY + (frame.midY + t.translateY) * space.pixelsPerPoint - h / 2, width: w, height: h)
        guard w > 0, h > 0, layer.opacity > 0 else { return }
        // A shadow can fall on the canvas from a part of the layer just outside it.
        // (One reduction cell more: a cut layer's blur reaches that far past its kernel.)
        let reach = layer.shadow.map {
            Self.padding(sigma: $0.radius / 2 * k) + GaussianPlan.storageFactor(sigma: $0.radius / 2 * k)
                + Int((max(abs($0.offsetX), abs($0.offsetY)) * k).rounded(.up))
        } ?? 0
        let bounds = rect.pixelBounds.intersection(canvas.bounds.outset(by: reach))
        guard !bounds.isEmpty else { return }
        // A plain color over the whole target (a fade, a tint) is one affine pass, no layer buffer.
        if case .color(let color) = layer.content, layer.shadow == nil, layer.mask == nil, layer.border == nil,
           layer.blendMode == .normal, ShapeCoverage.isPixelAligned(rect, radius: layer.cornerRadius),
           bounds == canvas.bounds, !linear {
            canvas.fill(with: color.withAlpha(color.alpha * layer.opacity), threads: threads)
            return
        }
        if let retained, retained.keys.contains(RetainedLayers.key(for: layer, path: path)) {
            return try drawRetained(layer, frame: frame, space: space, rect: rect, into: &canvas, path: path, retained: retained)
        }
        let inner = LayerSpace(originX: rect.x, originY: rect.y, pixelsPerPoint: k, zoom: space.zoom * t.scale,
                               width: frame.width, height: frame.height)
        let pixels = try clippedContent(of: layer, rect: rect, space: inner, bounds: bounds, beneath: canvas, path: path)
        if let shadow = layer.shadow, shadow.opacity > 0 {
            let box = rect.pixelBounds
            let cast = try Self.shadow(of: pixels, shadow, pixelsPerPoint: k, phase: (bounds.x - box.x, bounds.y - box.y),
                                       threads: threads, path: path)
            canvas.draw(cast.image, x: bounds.x + cast.dx, y: bounds.y + cast.dy, mode: .normal, opacity: layer.opacity, linear: linear, threads: threads)
        }
        canvas.draw(pixels, x: bounds.x, y: bounds.y, mode: layer.blendMode, opacity: layer.opacity, linear: linear, threads: threads)
    }

    /// The layer's content over `bounds`, clipped to its rounded frame, bordered and masked:
    /// everything but its shadow, opacity and blend mode.
    private func clippedContent(of layer: Layer, rect: Rect, space: LayerSpace, bounds: PixelBounds,
                                beneath canvas: Image, path: String) throws(ComposeError) -> Image {
        let k = space.pixelsPerPoint
        var pixels = try content(of: layer, rect: rect, space: space, bounds: bounds, beneath: canvas, path: path)
        if !ShapeCoverage.isPixelAligned(rect, radius: layer.cornerRadius) {
            pixels.scale(byCoverage: ShapeCoverage.roundedRect(rect, radius: layer.cornerRadius * k, bounds: bounds))
        }
        if let border = layer.border, border.width > 0 {
            let ring = ShapeCoverage.border(rect, radius: layer.cornerRadius * k, width: border.width * k, bounds: bounds)
            pixels.draw(Self.image(color: border.color, coverage: ring, bounds), x: 0, y: 0, mode: .normal, linear: linear, threads: threads)
        }
        if let mask = layer.mask {
            pixels.scale(byCoverage: try coverage(of: mask, rect: rect, bounds: bounds, path: "\(path).mask"))
        }
        return pixels
    }

    /// A layer whose look does not change between renders: its clipped content, and its shadow's
    /// blurred cast, are drawn once for each size and sub-pixel phase it takes (at its transform's
    /// scale 1) and then only copied into place, so the result is the same as drawing it afresh.
    /// Under a transform scale the scale-1 raster is resampled onto the scaled rectangle (bilinear,
    /// area-averaged when it shrinks), as Core Animation scales a layer's backing store.
    private func drawRetained(_ layer: Layer, frame: Rect, space: LayerSpace, rect: Rect, into canvas: inout Image,
                              path: String, retained: RetainedLayers) throws(ComposeError) {
        let k = space.pixelsPerPoint, s = layer.transform.scale
        let w = frame.width * k, h = frame.height * k
        let unscaled = s == 1 ? rect : Rect(x: rect.midX - w / 2, y: rect.midY - h / 2, width: w, height: h)
        let box = unscaled.pixelBounds
        let key = RetainedRaster.Key(unscaled)
        var raster: RetainedRaster
        let retainedKey = RetainedLayers.key(for: layer, path: path)
        if let kept = retained.raster(retainedKey, key) {
            raster = kept
        } else {
            let area = box.width.multipliedReportingOverflow(by: box.height)
            guard !area.overflow, area.partialValue <= Scene.maximumPixels else {
                throw ComposeError(path, "the layer's \(box.width)×\(box.height) pixels are more than the limit of \(Scene.maximumPixels)")
            }
            let empty = Image(width: 1, height: 1, filledWith: (0, 0, 0, 0), isPremultiplied: true)
            let inner = LayerSpace(originX: unscaled.x, originY: unscaled.y, pixelsPerPoint: k, zoom: space.zoom,
                                   width: frame.width, height: frame.height)
            raster = RetainedRaster(pixels: try clippedContent(of: layer, rect: unscaled, space: inner, bounds: box, beneath: empty, path: path))
        }
        func draw(_ image: Image, at origin: PixelBounds, mode: BlendMode, offset: (x: Int, y: Int) = (0, 0)) {
            if s == 1 {
                canvas.draw(image, x: origin.x + offset.x, y: origin.y + offset.y, mode: mode, opacity: layer.opacity, linear: linear, threads: threads)
                return
            }
            // The raster's pixels scaled about the layer's center.
            let target = Rect(x: rect.midX + (Double(origin.x) - rect.midX) * s + Double(offset.x),
                              y: rect.midY + (Double(origin.y) - rect.midY) * s + Double(offset.y),
                              width: Double(image.width) * s, height: Double(image.height) * s)
            let region = target.pixelBounds.intersection(canvas.bounds)
            guard !region.isEmpty else { return }
            var pixels = image.resampled(over: target, region: region, linear: linear, threads: threads)
            if !ShapeCoverage.isPixelAligned(target, radius: 0) {
                pixels.scale(byCoverage: ShapeCoverage.roundedRect(target, radius: 0, bounds: region))
            }
            canvas.draw(pixels, x: region.x, y: region.y, mode: mode, opacity: layer.opacity, linear: linear, threads: threads)
        }
        if let shadow = layer.shadow, shadow.opacity > 0 {
            // The cast is kept for one color, opacity and radius; an offset only moves it.
            var unmoved = shadow
            (unmoved.offsetX, unmoved.offsetY) = (0, 0)
            if raster.shadow?.shadow != unmoved {
                let cast = try Self.shadow(of: raster.pixels, unmoved, pixelsPerPoint: k, threads: threads, path: path)
                raster.shadow = (unmoved, cast.image, cast.dx)
            }
            let cast = raster.shadow!
            let offset = (x: Int((shadow.offsetX * k * s).rounded()), y: Int((shadow.offsetY * k * s).rounded()))
            draw(cast.image, at: PixelBounds(x: box.x + cast.shift, y: box.y + cast.shift, width: 0, height: 0), mode: .normal, offset: offset)
        }
        retained.keep(raster, retainedKey, key)
        draw(raster.pixels, at: box, mode: layer.blendMode)
    }

    /// What the layer draws, premultiplied, over the pixels of `bounds` (not yet clipped).
    private func content(of layer: Layer, rect: Rect, space: LayerSpace, bounds: PixelBounds,
                         beneath canvas: Image, path: String) throws(ComposeError) -> Image {
        switch layer.content {
        case .color(let color):
            return Image(width: bounds.width, height: bounds.height, filledWith: Self.bytes(color), isPremultiplied: true)
        case .gradient(let gradient):
            return Self.image(gradient.pixels(in: rect, bounds: bounds), bounds)
        case .image(let source, let mode):
            let image = try assets.image(source, subject: "\(path).file")
            let placed = Self.place(width: image.width, height: image.height, in: rect, mode: mode, zoom: space.zoom)
            var out = image.resampled(over: placed, region: bounds, linear: linear, threads: threads)
            // Clip to the picture's edges where they fall inside the bounds (aspect-fit, center);
            // a picture covering every pixel (fill, aspect-fill) stays opaque and is copied.
            if !placed.covers(bounds) {
                out.scale(byCoverage: ShapeCoverage.roundedRect(placed, radius: 0, bounds: bounds))
            }
            return out
        case .texture(.pattern(let pattern, let spacing, let seed)):
            let gray = pattern.pixels(originX: rect.x, originY: rect.y, spacing: spacing * space.pixelsPerPoint, seed: seed, bounds: bounds)
            var out = Self.image(gray, bounds)
            out.hasAlpha = false
            return out
        case .texture(.tiled(let source)):
            return try assets.image(source, subject: "\(path).file").tiled(originX: rect.x, originY: rect.y, bounds: bounds)
        case .text(let text):
            return try render(text, rect: rect, pixelsPerPoint: space.pixelsPerPoint, bounds: bounds, path: path)
        case .group(let layers):
            var group = Image(width: bounds.width, height: bounds.height, filledWith: (0, 0, 0, 0), isPremultiplied: true)
            var local = space
            local.originX -= Double(bounds.x)
            local.originY -= Double(bounds.y)
            try draw(layers, into: &group, space: local, path: "\(path).layers")
            return group
        case .backdrop(let effect):
            // Blur with the surroundings the boxes reach, so the frame's edges are not edge-extended.
            let box = ImageEffectsMath.boxRadius(radius: effect.radius, scale: space.pixelsPerPoint)
            guard box <= ImageEffectsMath.maximumBoxRadius else {
                throw ComposeError("\(path).radius", "\(effect.radius) points at \(space.pixelsPerPoint) pixels per point needs boxes wider than \(2 * ImageEffectsMath.maximumBoxRadius + 1) pixels")
            }
            let reach = 3 * box + 1
            let area = bounds.outset(by: reach).intersection(canvas.bounds)
            guard !area.isEmpty else { return Image(width: bounds.width, height: bounds.height, filledWith: (0, 0, 0, 0), isPremultiplied: true) }
            let blurred = canvas.cropped(to: area).applyEffect(effect, scale: space.pixelsPerPoint, threads: threads)
            return blurred.cropped(to: PixelBounds(x: bounds.x - area.x, y: bounds.y - area.y, width: bounds.width, height: bounds.height))
        }
    }

    private func render(_ text: TextContent, rect: Rect, pixelsPerPoint k: Double, bounds: PixelBounds, path: String) throws(ComposeError) -> Image {
        let key = text.font ?? SceneAssets.defaultFontKey
        guard let bytes = assets.fonts[key] else {
            throw ComposeError("\(path).font", "the font was not loaded (use SceneAssets(for:relativeTo:))")
        }
        guard text.size * k <= 4096 else {
            throw ComposeError("\(path).size", "\(text.size) points at \(k) pixels per point is more than 4096 pixels")
        }
        let face = try FontFace(bytes: bytes, name: "\(path).font", pixelSize: text.size * k)
        let layout = TextLayout(text.text, face: face, maxWidth: text.wraps ? rect.width : nil)
        let coverage = layout.coverage(face: face, in: rect, alignment: text.alignment,
                                       lineHeight: text.lineHeight.map { $0 * k } ?? face.lineHeight, bounds: bounds)
        return Self.image(color: text.color, coverage: coverage, bounds)
    }

    private func coverage(of mask: Mask, rect: Rect, bounds: PixelBounds, path: String) throws(ComposeError) -> [UInt8] {
        let pixels: [UInt8], channel: MaskChannel
        switch mask {
        case .gradient(let gradient):
            pixels = gradient.pixels(in: rect, bounds: bounds)
            channel = .alpha
        case .image(let source, let c):
            pixels = try assets.image(source, subject: "\(path).file").resampled(over: rect, region: bounds, threads: threads).pixels
            channel = c
        }
        // A luminance mask's coverage is the luma of the premultiplied color, luma × alpha (CSS
        // mask-type: luminance).
        return (0..<(bounds.width * bounds.height)).map { n in
            channel == .alpha ? pixels[4 * n + 3] : rec709Luma(pixels[4 * n], pixels[4 * n + 1], pixels[4 * n + 2])
        }
    }

    /// The drop shadow of premultiplied layer pixels: their alpha × the shadow's color and opacity,
    /// blurred by σ = radius / 2, placed at (dx, dy) from the layer's top-left (offset included).
    ///
    /// `phase` is where `pixels` start inside the layer's whole pixel box (they may be cut to the
    /// canvas): the cast's buffer starts a multiple of the blur's reduction factor from the box, so
    /// a reduced-resolution blur samples the same grid whether the layer is cut or whole, and a
    /// retained layer's cast (made from the whole box) is the very bytes of one made afresh.
    static func shadow(of pixels: Image, _ shadow: Shadow, pixelsPerPoint k: Double, phase: (x: Int, y: Int) = (0, 0),
                       threads: Int, path: String) throws(ComposeError) -> (image: Image, dx: Int, dy: Int) {
        let sigma = shadow.radius / 2 * k
        let pad = padding(sigma: sigma), f = GaussianPlan.storageFactor(sigma: sigma)
        let lead = (x: phase.x % f, y: phase.y % f)
        guard (pixels.width + 2 * pad + lead.x) * (pixels.height + 2 * pad + lead.y) <= Scene.maximumPixels else {
            throw ComposeError("\(path).shadow", "a blur this wide needs more than \(Scene.maximumPixels) pixels")
        }
        let w = pixels.width + 2 * pad + lead.x, h = pixels.height + 2 * pad + lead.y
        // The cast is the shadow's color (times its opacity) times the layer's alpha as a coverage.
        let table = PackedColor.coverageTable(shadow.color.premultiplied255 * min(max(shadow.opacity, 0), 1))
        var cast = [UInt8](repeating: 0, count: w * h * 4)
        pixels.pixels.withUnsafeBufferPointer { source in
            cast.withUnsafeMutableBytes { target in
                let words = target.bindMemory(to: UInt32.self).baseAddress!
                for y in 0..<pixels.height {
                    let from = source.baseAddress! + y * pixels.width * 4, to = words + (y + pad + lead.y) * w + pad + lead.x
                    for x in 0..<pixels.width { to[x] = table[Int(from[4 * x + 3])] }
                }
            }
        }
        let image = Image(width: w, height: h, pixels: cast, isPremultiplied: true).gaussianBlurred(sigma: sigma, threads: threads)
        return (image, Int((shadow.offsetX * k).rounded()) - pad - lead.x, Int((shadow.offsetY * k).rounded()) - pad - lead.y)
    }

    /// Transparent pixels around a shadow so its blur fades out inside the image (3σ and one more).
    static func padding(sigma: Double) -> Int { sigma < 0.3 ? 0 : Int((3 * sigma).rounded(.up)) + 1 }

    /// Where an image of `width` × `height` pixels goes inside `rect` for a content mode.
    static func place(width: Int, height: Int, in rect: Rect, mode: ContentMode, zoom: Double) -> Rect {
        let iw = Double(width), ih = Double(height)
        let s: Double
        switch mode {
        case .fill: return rect
        case .aspectFill: s = max(rect.width / iw, rect.height / ih)
        case .aspectFit: s = min(rect.width / iw, rect.height / ih)
        case .center: s = zoom
        }
        return Rect(x: rect.midX - iw * s / 2, y: rect.midY - ih * s / 2, width: iw * s, height: ih * s)
    }

    static func bytes(_ color: Color) -> (UInt8, UInt8, UInt8, UInt8) { PackedColor.bytes(color.premultiplied255) }

    /// A color times a coverage (0…255 per pixel), premultiplied: one table lookup per pixel.
    static func image(color: Color, coverage: [UInt8], _ bounds: PixelBounds) -> Image {
        let table = PackedColor.coverageTable(color.premultiplied255)
        let pixels = [UInt8](unsafeUninitializedCapacity: coverage.count * 4) { bytes, count in
            let words = UnsafeMutableRawPointer(bytes.baseAddress!).bindMemory(to: UInt32.self, capacity: coverage.count)
            for (i, k) in coverage.enumerated() { words[i] = table[Int(k)] }
            count = coverage.count * 4
        }
        return image(pixels, bounds)
    }

    private static func image(_ pixels: [UInt8], _ bounds: PixelBounds) -> Image {
        Image(width: bounds.width, height: bounds.height, pixels: pixels, isPremultiplied: true)
    }
}
