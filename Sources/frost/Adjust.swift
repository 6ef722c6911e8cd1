import ArgumentParser
import FrostCore
import FrostEffects
import FrostStream

struct AdjustStep: ImageStep {
    static let stepName = "adjust"
    static let abstract = "Color controls: brightness, contrast, saturation (CIColorControls) and gamma (CIGammaAdjust)."

    static let brightnessRange = OptionRange(-1, 1)
    static let factorRange = OptionRange(0, 4)
    static let gammaRange = OptionRange(0.1, 10)

    @Option(parsing: .unconditional, help: "Added to every color component, \(brightnessRange).")
    var brightness: Double = 0

    @Option(parsing: .unconditional, help: "Contrast factor around mid-gray, \(factorRange).")
    var contrast: Double = 1

    @Option(parsing: .unconditional, help: "Saturation, \(factorRange): 0 gray, 1 unchanged, above 1 more vivid.")
    var saturation: Double = 1

    @Option(parsing: .unconditional, help: "Gamma power c^P, \(gammaRange).")
    var gamma: Double = 1

    func validate() throws {
        try Self.brightnessRange.check(brightness, "--brightness")
        try Self.factorRange.check(contrast, "--contrast")
        try Self.factorRange.check(saturation, "--saturation")
        try Self.gammaRange.check(gamma, "--gamma")
    }

    func filterStep(_ context: StepContext) -> FilterStep? {
        .adjust(ColorAdjustment(brightness: brightness, contrast: contrast, saturation: saturation, gamma: gamma))
    }
}
