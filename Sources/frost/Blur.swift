import ArgumentParser
import FrostCore
import FrostEffects
import FrostStream

struct BlurStep: ImageStep {
    static let stepName = "blur"
    static let abstract = "Gaussian blur (--sigma) or exact box blur (--box), edges extended, premultiplied alpha."

    static let sigmaRange = OptionRange(0, 250)
    static let boxRange = OptionRange(0, Double(ImageEffectsMath.maximumBoxRadius))

    @Option(parsing: .unconditional, help: "Gaussian standard deviation in pixels, \(sigmaRange) (below 0.3 copies).")
    var sigma: Double?

    @Option(parsing: .unconditional, help: "Box radius in pixels (window 2R+1), \(boxRange).")
    var box: Int?

    @Option(help: "Axes for --box: horizontal, vertical or both.")
    var axes: BlurAxes = .both

    @Flag(help: "Blur in linear light (--sigma): light spreads as light does, a highlight keeps its glow over a dark ground (libvips's --linear, Core Image's default). Off by default: ImageEffects blurs sRGB values.")
    var linear = false

    func validate() throws {
        switch (sigma, box) {
        case (nil, nil), (.some, .some): throw ValidationError("give exactly one of --sigma or --box")
        case (let s?, nil): try Self.sigmaRange.check(s, "--sigma")
        case (nil, let r?):
            try Self.boxRange.check(r, "--box")
            if linear { throw ValidationError("--linear blurs with --sigma (a box blur sums sRGB values exactly)") }
        }
    }

    func filterStep(_ context: StepContext) -> FilterStep? { sigma.map { .gaussian(sigma: $0, linear: linear || context.linear) } }

    func apply(to image: Image, _ context: StepContext) throws -> Image {
        if let step = filterStep(context) { return try step.apply(to: image, limits: context.limits, threads: context.threads) }
        return image.boxBlurred(radius: box!, axes: axes, threads: context.threads)
    }
}

extension BlurAxes: ExpressibleByArgument {}
