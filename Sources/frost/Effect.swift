import ArgumentParser
import FrostCodecs
import FrostCore
import FrostEffects

struct EffectStep: ImageStep {
    static let stepName = "effect"
    static let abstract = "UIImage+ImageEffects: blur radius in points, tint, saturation, mask; or a preset."

    @Option(help: "Preset: light, extra-light, dark or tint:COLOR.")
    var preset: EffectParameters?

    @Option(help: "Blur radius in points (× --scale pixels), 0 to 500.")
    var radius: Double = 0

    @Option(help: "Tint color drawn over the result: #RRGGBB, #RRGGBBAA, white:W@A or a palette name.")
    var tint: Color?

    @Option(parsing: .unconditional, help: "Saturation delta factor, -100 to 100 (1 leaves color alone; negative inverts hue).")
    var saturation: Double = 1

    @Option(help: "Mask image: where it is opaque (or white) the effect replaces the original.")
    var mask: String?

    @Option(help: "Pixels per point (the UIImage scale), above 0 up to 4.")
    var scale: Double = 1

    func validate() throws {
        guard radius.isFinite, radius >= 0, radius <= 500 else { throw ValidationError("--radius must be between 0 and 500") }
        guard scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("--scale must be between 0 and 4") }
        guard saturation.isFinite, abs(saturation) <= 100 else { throw ValidationError("--saturation must be between -100 and 100") }
    }

    var auxiliaryFiles: [String] { mask.map { [$0] } ?? [] }

    func apply(to image: Image, _ context: StepContext) throws -> Image {
        let maskImage = mask.map { context.images[$0]! }   // read by FilterFiles (auxiliaryFiles)
        let effect = preset ?? EffectParameters(radius: radius, tint: tint, saturation: saturation)
        return image.applyEffect(effect, maskImage: maskImage, scale: scale, threads: context.threads)
    }
}

extension EffectParameters: ExpressibleByArgument {
    public init?(argument: String) { self.init(preset: argument) }
}
