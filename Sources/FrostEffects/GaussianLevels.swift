@_spi(Kernels) import FrostCore

/// Renders a rising sequence of gaussian blurs of one image, as the blur cache needs them
/// (docs/design.md, Algorithms): each level at the coarsest power-of-two reduction its σ allows.
///
/// Full-resolution levels (σ < 8) follow the semigroup G(σa) ∗ G(σb) = G(√(σa² + σb²)): each is the
/// previous one blurred by σ_inc = √(σᵢ² − σᵢ₋₁²), all in one streamed pass (`GaussianChain`).
/// Reduced levels blur one box-reduced copy of the source per factor (with an edge-extended
/// margin, as `gaussianBlurred` does): at 1/4 of the pixels and less they cost little. Up to
/// 8×8, a reduction is made by halving the previous one when there is one (`Resample.halved`,
/// the same bits), not from the source again.
/// A straight-alpha source is premultiplied as it is read (`StraightAlphaRows`). A level of
/// σ < 0.3 at full size is the source as given (premultiplied or not): the cache's untouched
/// level 0, which the cache store copies as a file and `CrossfadeCache` premultiplies with the
/// other levels when it is made. For the same reason a full-resolution level less than σ_inc = 0.3
/// above the one before (many levels close together) repeats that level: a kernel that narrow is
/// below one sample's worth, and its 16-bit fixed-point weights would leave only the center.
public struct GaussianLevels: Sendable {
    /// The levels' σ, rising.
    public let sigmas: [Double]
    /// Threads per level.
    public let threads: Int

    /// Levels at `sigmas`.
    public init(sigmas: [Double], threads: Int? = nil) {
        precondition(zip(sigmas, sigmas.dropFirst()).allSatisfy { $0 < $1 }, "sigmas must rise")
        self.sigmas = sigmas
        self.threads = RowBands.threads(threads)
    }

    /// One image per σ: level i at 1/factors[i] of the source size (factor 1 is full size;
    /// `storageFactor(σ)` is the coarsest allowed; a factor below it is reached by enlarging).
    /// Reduced levels carry one block of edge margin on every side (see `Image.reduced(by:margin:)`).
    public func render(_ source: Image, factors: [Int]) -> [Image] {
        precondition(factors.count == sigmas.count)
        var chained = chainLevels(source).makeIterator()
        var out: [Image] = []
        var reductions: [Int: (plane: PlaneStorage<UInt16>, margin: Int)] = [:]
        for (sigma, stored) in zip(sigmas, factors) {
            let render = GaussianPlan.storageFactor(sigma: sigma)
            if sigma < 0.3 {
                out.append(stored == 1 ? source : source.reduced(by: stored, margin: 1, threads: threads))
                continue
            }
            if render == 1 {
                let level = chained.next()!
                out.append(stored == 1 ? level : level.reduced(by: stored, margin: 1, threads: threads))
                continue
            }
            // Reduced: σ' at 1/render, from the source's reduction (margin for the widest kernel).
            let working = (sigma * sigma - Double(render * render - 1) / 12).squareRoot() / Double(render)
            let weights = GaussianPlan.kernelWeights(sigma: working)
            if reductions[render] == nil {
                let margin = maximumPadding(at: render) + 1
                if render <= 8, let (parent, m) = reductions[render / 2] {
                    let halved = Resample.halved(parent, factor: render / 2, parentMargin: m, imageWidth: source.width,
                                                 imageHeight: source.height, margin: margin, threads: threads)
                    reductions[render] = (halved, margin)
                } else {
                    let reduced = source.withPlane { plane in
                        source.readsStraightAlpha
                            ? Resample.boxReduce(StraightAlphaRows(plane: plane), factor: render, margin: margin, threads: threads)
                            : Resample.boxReduce(plane, factor: render, margin: margin, threads: threads)
                    }
                    reductions[render] = (reduced, margin)
                }
            }
            let (reduced, margin) = reductions[render]!
            let kernel = SeparableKernel(weights: weights, threads: threads)
            if stored == render {
                out.append(compactLevel(kernel, reduced, crop: margin - 1, like: source))
            } else {
                // A finer storage than the render: enlarge to full size, then reduce to the stored factor.
                let blurred = PlaneStorage<UInt16>(width: reduced.width, height: reduced.height)
                kernel.run(reduced.plane, blurred.plane)
                let full = Image(enlarging: blurred.plane, factor: render, margin: margin, width: source.width,
                                 height: source.height, like: source, threads: threads)
                out.append(stored == 1 ? full : full.reduced(by: stored, margin: 1, threads: threads))
            }
        }
        return out
    }

    /// The full-resolution levels, at full size, in order.
    private func chainLevels(_ source: Image) -> [Image] {
        let steps = chainSteps()
        let kernels = steps.compactMap { step in
            if case .blur(let weights) = step { SeparableKernel(weights: weights, threads: threads) } else { nil }
        }
        var blurred = GaussianChain(kernels: kernels, threads: threads).levels(of: source).makeIterator()
        var levels: [Image] = []
        for step in steps {
            levels.append(step == .repeatPrevious ? levels.last! : blurred.next()!)
        }
        return levels
    }

    /// How a full-resolution level comes from the one before.
    private enum ChainStep: Equatable {
        /// Blurred by σ_inc, these weights.
        case blur([Float])
        /// σ_inc < 0.3: the same pixels.
        case repeatPrevious
    }

    /// The chain's step for each full-resolution level, in order (other levels have none).
    private func chainSteps() -> [ChainStep] {
        var last = 0.0
        return sigmas.compactMap { sigma -> ChainStep? in
            guard sigma >= 0.3, GaussianPlan.storageFactor(sigma: sigma) == 1 else { return nil }
            let increment = (sigma * sigma - last * last).squareRoot()
            guard increment >= 0.3 else { return .repeatPrevious }
            last = sigma
            return .blur(GaussianPlan.kernelWeights(sigma: increment))
        }
    }

    /// The widest kernel reach among the levels rendered at factor f.
    func maximumPadding(at f: Int) -> Int {
        sigmas.filter { $0 >= 0.3 && GaussianPlan.storageFactor(sigma: $0) == f }.map { sigma in
            let working = (sigma * sigma - Double(f * f - 1) / 12).squareRoot() / Double(f)
            return GaussianPlan.kernelWeights(sigma: working).count - 1
        }.max() ?? 0
    }

    /// A level stored at its render factor: the kernel's bytes straight into the image, the margin
    /// but one block cropped as they are written (no Float plane to write, read and quantise).
    private func compactLevel(_ kernel: SeparableKernel, _ reduced: PlaneStorage<UInt16>, crop c: Int, like source: Image) -> Image {
        let w = reduced.width - 2 * c, h = reduced.height - 2 * c
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            kernel.run(reduced.plane, Plane(base: buffer.baseAddress!, width: w, height: h), crop: c)
            count = w * h * 4
        }
        return Image(width: w, height: h, pixels: pixels, isPremultiplied: true, hasAlpha: source.hasAlpha,
                     isGray: source.isGray, iccProfile: source.iccProfile)
    }
}
