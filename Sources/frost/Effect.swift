import ArgumentParser
import FrostCodecs
import FrostCore
import FrostEffects

struct EffectStep: ImageStep {
    static let stepName = "effect"
    static let abstract = "UIImage+ImageEffects: blur radius in points, tint, saturation, mask; or a preset."

    @Option(help: "Preset: light, extra-light, dark or tint:COLOR.")
    var preset: EffectParameters?

    static let radiusRange = OptionRange(0, 500)
    static let saturationRange = OptionRange(-100, 100)
    static let scaleRange = OptionRange(0, 4, excludingLower: true)

    @Option(parsing: .unconditional, help: "Blur radius in points (× --scale pixels), \(radiusRange).")
    var radius: Double = 0

    @Option(help: ArgumentHelp("Tint color drawn over the result: \(colorHelp).", valueName: "color"))
    var tint: Color?

    @Option(parsing: .unconditional, help: "Saturation delta factor, \(saturationRange) (1 leaves color alone; negative inverts hue).")
    var saturation: Double = 1

    @Option(help: "Mask image: where it is opaque (or white) the effect replaces the original.")
    var mask: String?

    @Option(parsing: .unconditional, help: "Pixels per point (the UIImage scale), \(scaleRange).")
    var scale: Double = 1

    func validate() throws {
        try Self.radiusRange.check(radius, "--radius")
        try Self.scaleRange.check(scale, "--scale")
        try Self.saturationRange.check(saturation, "--saturation")
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
    /// What a wrong --preset is told (tint takes any colour after the colon). Not `allValueStrings`:
    /// the help would list tint:COLOR as a value to type as it is.
    static let presetNames = ["light", "extra-light", "dark", "tint:COLOR"]
}
