import ArgumentParser
import FrostCodecs
import FrostCore
import FrostEffects

struct Effect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "UIImage+ImageEffects: blur radius in points, tint, saturation, mask; or a preset.")

    @OptionGroup var job: ImageJob

    @Option(help: "Preset: light, extra-light, dark or tint:COLOR.")
    var preset: EffectParameters?

    @Option(help: "Blur radius in points (× --scale pixels).")
    var radius: Double = 0

    @Option(help: "Tint color drawn over the result: #RRGGBB, #RRGGBBAA, white:W@A or a palette name.")
    var tint: Color?

    @Option(help: "Saturation delta factor (1 leaves color alone).")
    var saturation: Double = 1

    @Option(help: "Mask image: where it is opaque (or white) the effect replaces the original.")
    var mask: String?

    @Option(help: "Pixels per point (the UIImage scale).")
    var scale: Double = 1

    @OptionGroup var threads: ThreadsFlag

    func validate() throws {
        guard radius.isFinite, radius >= 0, radius <= 500 else { throw ValidationError("--radius must be between 0 and 500") }
        guard scale.isFinite, scale > 0, scale <= 4 else { throw ValidationError("--scale must be between 0 and 4") }
        guard saturation.isFinite, abs(saturation) <= 100 else { throw ValidationError("--saturation must be between -100 and 100") }
    }

    func run() throws {
        let image = try job.read()
        let maskImage = try mask.map { path in try attempt(path) { try Image(contentsOfFile: path, options: job.decode.options) } }
        let effect = preset ?? EffectParameters(radius: radius, tint: tint, saturation: saturation)
        try job.write(image.applyEffect(effect, maskImage: maskImage, scale: scale, threads: threads.threads))
    }
}

extension EffectParameters: ExpressibleByArgument {
    public init?(argument: String) { self.init(preset: argument) }
}
