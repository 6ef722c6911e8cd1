import ArgumentParser
import FrostCore
import FrostEffects

struct BlurStep: ImageStep {
    static let stepName = "blur"
    static let abstract = "Gaussian blur (--sigma) or exact box blur (--box), edges extended, premultiplied alpha."

    @Option(help: "Gaussian standard deviation in pixels, 0 to 250 (below 0.3 copies).")
    var sigma: Double?

    @Option(help: "Box radius in pixels (window 2R+1), 0 to 1000.")
    var box: Int?

    @Option(help: "Axes for --box: horizontal, vertical or both.")
    var axes: BlurAxes = .both

    func validate() throws {
        switch (sigma, box) {
        case (nil, nil), (.some, .some): throw ValidationError("give exactly one of --sigma or --box")
        case (let s?, nil): guard s.isFinite, (0...250).contains(s) else { throw ValidationError("--sigma must be between 0 and 250") }
        case (nil, let r?): guard (0...1000).contains(r) else { throw ValidationError("--box must be between 0 and 1000") }
        }
    }

    func apply(to image: Image, _ context: StepContext) throws -> Image {
        if let sigma { image.gaussianBlurred(sigma: sigma, threads: context.threads) }
        else { image.boxBlurred(radius: box!, axes: axes, threads: context.threads) }
    }
}

extension BlurAxes: ExpressibleByArgument {}
