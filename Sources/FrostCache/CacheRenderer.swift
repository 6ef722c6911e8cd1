import FrostCore
import FrostEffects

/// Renders the levels of a `CachePlan` from a source image, each at its stored size: premultiplied,
/// but for an untouched level 0 (`CachePlan.Level.isSource`), which is the source as given.
public struct CacheRenderer: Sendable {
    /// The levels to render.
    public let plan: CachePlan
    /// Threads per level (nil: the compute budget's share).
    public let threads: Int?

    /// A renderer of `plan`'s levels.
    public init(plan: CachePlan, threads: Int? = nil) {
        self.plan = plan
        self.threads = threads
    }

    /// Every level of `source`, premultiplied, each at its stored size (level 0 the source itself).
    public func render(_ source: Image) -> [Image] {
        let levels: [Image]
        switch plan.renderer {
        case .imageEffects:
            // Twitter's way: every level from the source with ImageEffects' own box widths.
            levels = plan.levels.map { level in
                let effect = source.applyBlur(radius: level.radius, tintColor: level.tint,
                                              saturationDeltaFactor: level.saturation, scale: plan.scale, threads: threads)
                return level.factor == 1 ? effect : effect.reduced(by: level.factor, margin: CachePlan.storageMargin, threads: threads)
            }
        case .gaussian:
            let blurred = GaussianLevels(sigmas: plan.levels.map(\.sigma), threads: threads)
                .render(source, factors: plan.levels.map(\.factor))
            levels = zip(plan.levels, blurred).map { level, image in
                // Saturation and tint are affine per pixel, so they commute with the bilinear
                // enlargement: applying them at the stored size is exact and cheaper.
                level.tint == nil && level.saturation == 1 ? image
                    : image.applyBlur(radius: 0, tintColor: level.tint, saturationDeltaFactor: level.saturation, threads: threads)
            }
        }
        return levels
    }
}
