import ArgumentParser
import FrostCore
import FrostEffects

struct AdjustStep: ImageStep {
    static let stepName = "adjust"
    static let abstract = "Color controls: brightness, contrast, saturation (CIColorControls) and gamma (CIGammaAdjust)."

    @Option(parsing: .unconditional, help: "Added to every color component, -1 to 1 (default 0).")
    var brightness: Double = 0

    @Option(help: "Contrast factor around mid-gray, 0 to 4 (default 1).")
    var contrast: Double = 1

    @Option(help: "Saturation, 0 to 4: 0 gray, 1 unchanged, above 1 more vivid.")
    var saturation: Double = 1

    @Option(help: "Gamma power c^P, 0.1 to 10 (default 1).")
    var gamma: Double = 1

    func validate() throws {
        guard (-1...1).contains(brightness) else { throw ValidationError("--brightness must be between -1 and 1") }
        guard (0...4).contains(contrast) else { throw ValidationError("--contrast must be between 0 and 4") }
        guard (0...4).contains(saturation) else { throw ValidationError("--saturation must be between 0 and 4") }
        guard (0.1...10).contains(gamma) else { throw ValidationError("--gamma must be between 0.1 and 10") }
    }

    func apply(to image: Image, _ context: StepContext) throws -> Image {
        image.adjusted(ColorAdjustment(brightness: brightness, contrast: contrast, saturation: saturation, gamma: gamma),
                       threads: context.threads)
    }
}
