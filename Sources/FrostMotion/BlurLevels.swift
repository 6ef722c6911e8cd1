import FrostCache
import FrostCodecs
import FrostCompose
@_spi(Kernels) import FrostCore
import FrostCrossfade
import FrostEffects
import FrostFiles

/// A blurred layer's levels, made once per render, and the frames drawn from them: level 0 is the
/// layer's content as it is (sharp, untinted), levels 1…N a Frost blur cache of it (or the levels
/// of a cache folder); a frame at progress p is `CrossfadeCache.frame(at:mode:)`, never a live blur.
/// Frames are kept under a lock: renders of one renderer may run on several threads.
final class BlurLevels: Sendable {
    let cache: CrossfadeCache
    let mode: FadeMode
    /// How the frame fills the layer: the image layer's content mode, or `fill` for a group.
    let contentMode: ContentMode
    private struct Kept {
        var nearest: [Int: Image] = [:]
        var last: (p: Double, image: Image)?
    }
    private let kept = Locked(Kept())

    init(cache: CrossfadeCache, mode: FadeMode, contentMode: ContentMode) {
        self.cache = cache
        self.mode = mode
        self.contentMode = contentMode
    }

    /// The frame at progress p. Frames of one level (nearest mode, or the ends) are kept: Twitter's
    /// header shows eleven images in all.
    func frame(at p: Double, threads: Int?) -> Image {
        let selection = cache.plan.selection(at: p, mode: mode), used = selection.levels
        if used.count == 1 {
            if let image = kept.withLock({ $0.nearest[used[0]] }) { return image }
            let image = cache.level(used[0], threads: threads)
            kept.withLock { $0.nearest[used[0]] = image }
            return image
        }
        if let last = kept.withLock({ $0.last }), last.p == p { return last.image }
        let image = cache.frame(at: p, mode: mode, threads: threads)
        kept.withLock { $0.last = (p, image) }
        return image
    }

    /// The levels for the layer at `path` of `scene` (as seen at the reference state): its content
    /// drawn at the size it shows at (an image shrunk to its placed pixels, a group rendered at its
    /// frame's), blurred by the plan `blur` describes in points; or a cache folder's levels.
    static func make(_ blur: LayerBlur, layer: Layer, parent: (width: Double, height: Double), scene: Scene,
                     assets: SceneAssets, directory: String, path: String, threads: Int?) throws(ComposeError) -> BlurLevels {
        let frame = layer.frame ?? Rect(x: 0, y: 0, width: parent.width, height: parent.height)
        var contentMode = ContentMode.fill
        if case .image(_, let mode) = layer.content { contentMode = mode }
        if let folder = blur.cache {
            let resolved: String
            do { resolved = try assets.options.assetPath(folder, relativeTo: directory) } catch { throw ComposeError("\(path).blur.cache", error.message) }
            do {
                return BlurLevels(cache: CrossfadeCache(try CacheStore.load(resolved, decode: assets.options)), mode: blur.mode, contentMode: contentMode)
            } catch {
                throw ComposeError("\(path).blur.cache", "\(resolved): \((error as? CodecError)?.message ?? "\(error)")")
            }
        }
        let source: Image, pixelsPerPoint: Double
        switch layer.content {
        case .image(let imageSource, let mode):
            let image: Image
            switch imageSource {
            case .pixels(let pixels): image = pixels
            case .file(let file):
                guard let loaded = assets.images[file] else { throw ComposeError("\(path).file", "the image was not loaded") }
                image = loaded
            }
            // The pixels it covers on the canvas, at the resting frame: a larger picture is shrunk
            // to them first (Secret rescaled its photos before blurring, to save memory).
            let iw = Double(image.width), ih = Double(image.height), s = scene.scale
            let fit: Double
            switch mode {
            case .fill: fit = min(frame.width * s / iw, frame.height * s / ih)
            case .aspectFill: fit = max(frame.width / iw, frame.height / ih) * s
            case .aspectFit: fit = min(frame.width / iw, frame.height / ih) * s
            case .center: fit = 1
            }
            if fit < 1 {
                let w = max(1, Int((iw * fit).rounded())), h = max(1, Int((ih * fit).rounded()))
                // The area average: the blur that follows decides the look; this only drops pixels it would not see.
                source = image.resized(width: w, height: h, kernel: .area, threads: threads)
                pixelsPerPoint = s * Double(w) / (iw * fit)
            } else {
                source = image
                pixelsPerPoint = s / fit
            }
        case .group(let children):
            let group = Scene(width: frame.width, height: frame.height, scale: scene.scale, background: .clear, layers: children)
            source = try group.rendered(assets: assets, threads: threads)
            pixelsPerPoint = scene.scale
        default:
            throw ComposeError("\(path).blur", "only image and group layers can be blurred")
        }
        if let radius = blur.spec.topRadius,
           ImageEffectsMath.boxRadius(radius: radius, scale: pixelsPerPoint) > ImageEffectsMath.maximumBoxRadius {
            throw ComposeError("\(path).blur", "radius \(radius) points at \(pixelsPerPoint) pixels per point needs boxes wider than \(2 * ImageEffectsMath.maximumBoxRadius + 1) pixels")
        }
        // σ and radii are in points: the source's pixels per point scales both.
        let plan = blur.spec.plan(scale: pixelsPerPoint, sigmaScale: pixelsPerPoint)
        var levels = CacheRenderer(plan: plan, threads: threads).render(source)
        levels[0] = source
        return BlurLevels(cache: CrossfadeCache(plan: plan, levels: levels, width: source.width, height: source.height),
                          mode: blur.mode, contentMode: contentMode)
    }
}
