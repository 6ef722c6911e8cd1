import ArgumentParser
import FrostCodecs
import FrostCore

/// One operation on a decoded image: what `blur`, `effect`, `adjust` and `resize` do alone and
/// what `frost run` chains. Its options are declared once, as a ParsableArguments: the verb reads
/// them as `--key value`, a chain step as `NAME:key=value,key=value` (same names, ranges and
/// checks).
protocol ImageStep: ParsableArguments, Sendable {
    /// The step's name in a chain, and its verb.
    static var stepName: String { get }
    /// The verb's one-line help.
    static var abstract: String { get }
    /// Other images the step reads (an effect's mask): read once per run, before any input, and
    /// handed to `apply` in `StepContext.images`.
    var auxiliaryFiles: [String] { get }
    func apply(to image: Image, _ context: StepContext) throws -> Image
}

extension ImageStep {
    var auxiliaryFiles: [String] { [] }
}

struct StepContext: Sendable {
    var threads: Int?
    /// The steps' `auxiliaryFiles`, decoded.
    var images: [String: Image] = [:]
}

/// The steps a chain can name.
let chainableSteps: [any ImageStep.Type] = [BlurStep.self, EffectStep.self, AdjustStep.self, ResizeStep.self]

/// `NAME:key=value,key=value,flag` → the step, or nil when `token` does not start with a step
/// name and a colon (it is then a file). Bad options throw a ValidationError naming the step.
func parseStep(_ token: String) throws -> (any ImageStep)? {
    guard let colon = token.firstIndex(of: ":"),
          let kind = chainableSteps.first(where: { $0.stepName == token[..<colon] }) else { return nil }
    let options = token[token.index(after: colon)...].split(separator: ",").map { "--" + $0 }
    do {
        return try kind.parse(options)
    } catch {
        throw ValidationError("\(token): \(kind.message(for: error))")
    }
}

/// The verb of one step (`frost blur`, `effect`, `adjust`, `resize`): the step's options, then
/// the files.
struct FilterVerb<Step: ImageStep>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Step.stepName, abstract: Step.abstract, discussion: filterDiscussion)
    }

    @Argument(help: filesHelp) var files: [String] = []
    @OptionGroup(title: Step.stepName.capitalized) var step: Step
    @OptionGroup var io: FilterFiles

    func run() throws { try io.process(files, steps: [step]) }
}
