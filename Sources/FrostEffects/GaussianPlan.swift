#if canImport(Glibc)
import Glibc
#endif

/// How a gaussian of standard deviation σ is computed (docs/design.md, Algorithms).
///
/// 1. σ < 0.3: the kernel is below one sample's worth of blur; the image is copied.
/// 2. Reduction: the largest power of two f with σ/f ≥ 4 (so f ≥ 2 from σ = 8). The image is
///    box-averaged f×f, blurred at σ' = √(σ² − (f²−1)/12) / f (the averaging already contributed
///    variance (f²−1)/12), and enlarged bilinearly.
/// 3. At the working resolution, a direct separable kernel of the sampled gaussian, truncated
///    where that moves a blurred edge by at most half a level (2.6σ'–3.1σ', `kernelWeights`).
///    Since σ' < 8 after reduction, the kernel never exceeds 47 taps: the cost per pixel is
///    bounded whatever σ (and falls as σ grows past 8).
///
/// Deliberate departure from the box cascades (docs/design.md, Algorithms): measured against an exact float64
/// gaussian on photo crops over σ 0.3…250 (GaussianAccuracyTests), four extended-box passes
/// (Gwosdek et al. 2011) reached max 4 / mean 0.66 levels, the direct kernel max 1 / mean 0.12
/// (0.09 when it was truncated at 3σ).
/// Box passes remain the tool where a box is the definition (ImageEffects, `boxBlurred`).
public struct GaussianPlan: Sendable, Equatable {
    /// How the blur is computed at the working size.
    public enum Method: Sendable, Equatable {
        /// No blur: the image as it is (σ too small to move a sample).
        case copy
        /// Symmetric kernel weights w₀…w_R (w₀ the center), summing to 1 over −R…R.
        case kernel([Float])
    }

    /// The σ asked for, in source pixels.
    public let sigma: Double
    /// The working size's reduction: 1 (full size), 2, 4 or 8.
    public let factor: Int
    /// σ at the working size, what remains after the reduction's own blur.
    public let workingSigma: Double
    /// The kernel run at the working size.
    public let method: Method

    /// Reduce only while σ/f stays at or above this (docs/design.md, Algorithms, Skia). Measured: 3 reaches
    /// max error 2.0 at σ = 6; 4 keeps it at 1.
    public static let minimumReducedSigma = 4.0

    /// The largest power of two f with σ/f ≥ 4: the coarsest resolution that holds a blur of σ
    /// within a third of a level (also how compact caches store their levels).
    public static func storageFactor(sigma: Double) -> Int {
        var f = 1
        while sigma / Double(2 * f) >= minimumReducedSigma { f *= 2 }
        return f
    }

    /// The plan for σ; without `allowReduction` it works at full size.
    public init(sigma: Double, allowReduction: Bool = true) {
        self.sigma = sigma
        guard sigma >= 0.3 else {
            (factor, workingSigma, method) = (1, sigma, .copy)
            return
        }
        let f = allowReduction ? Self.storageFactor(sigma: sigma) : 1
        factor = f
        let fd = Double(f)
        workingSigma = f == 1 ? sigma : (sigma * sigma - (fd * fd - 1) / 12).squareRoot() / fd
        method = .kernel(Self.kernelWeights(sigma: workingSigma))
    }

    /// How far truncating the kernel may move a blurred step edge from 0 to 1: half an 8-bit level.
    static let truncationTolerance = 0.5 / 255

    /// The sampled gaussian over |k| ≤ R, normalised to sum 1, R the smallest radius whose
    /// truncation moves no point of a blurred step edge by more than `truncationTolerance` from
    /// where the untruncated kernel puts it (`truncationError`): R between 2.6σ and 3.1σ from σ = 2,
    /// at most 23 below σ = 8. A fixed ⌈3σ⌉ ran 9% more taps on average over σ 0.3…8 (the cache
    /// chain's five kernels 34 pairs a pass, now 30) to stay within a quarter level instead of half.
    static func kernelWeights(sigma: Double) -> [Float] {
        // Beyond 8σ the samples are below 10⁻¹³ of the center: the untruncated kernel, in effect.
        let full = sampled(sigma: sigma, radius: max(2, Int((8 * sigma).rounded(.up))))
        var radius = 1
        while truncationError(full, radius: radius) > truncationTolerance { radius += 1 }
        return sampled(sigma: sigma, radius: radius).map { Float($0) }
    }

    /// exp(−k²/2σ²) for k = 0…radius, normalised so that the symmetric kernel sums to 1.
    private static func sampled(sigma: Double, radius: Int) -> [Double] {
        let raw = (0...radius).map { k in exp(-Double(k * k) / (2 * sigma * sigma)) }
        let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
        return raw.map { $0 / total }
    }

    /// The largest difference between a unit step blurred by `full` (w₀…w_F) and by its
    /// truncation to |k| ≤ radius renormalised: max over x of |Σ_{k ≤ x} w_k − Σ_{k ≤ x, |k| ≤ R} w_k / T_R|.
    private static func truncationError(_ full: [Double], radius r: Int) -> Double {
        let f = full.count - 1
        guard r < f else { return 0 }
        let kept = full[0] + 2 * full[1...r].reduce(0, +)
        @inline(__always) func weight(_ k: Int) -> Double { full[abs(k)] }
        var stepFull = 0.0, stepTruncated = 0.0, worst = 0.0
        for x in -f...f {
            stepFull += weight(x)
            if abs(x) <= r { stepTruncated += weight(x) / kept }
            worst = max(worst, abs(stepFull - stepTruncated))
        }
        return worst
    }

    /// Samples each side that the kernel reaches.
    var padding: Int {
        switch method {
        case .copy: 0
        case .kernel(let w): w.count - 1
        }
    }
}
