import ArgumentParser
import Foundation
import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles
import FrostStream

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
    /// The step as FrostStream defines it (so that a command of such steps can be streamed), or
    /// nil for a step only whole images take.
    func filterStep(_ context: StepContext) -> FilterStep?
    func apply(to image: Image, _ context: StepContext) throws -> Image
}

extension ImageStep {
    var auxiliaryFiles: [String] { [] }
    func filterStep(_ context: StepContext) -> FilterStep? { nil }

    /// A step FrostStream defines runs as it defines it.
    func apply(to image: Image, _ context: StepContext) throws -> Image {
        try filterStep(context)!.apply(to: image, limits: context.limits, threads: context.threads)
    }
}

struct StepContext: Sendable {
    var threads: Int?
    /// The reading limits, which bound what a step makes as well (`DecodeOptions.checkPixels`).
    var limits = DecodeOptions()
    /// `--background`: the padding of `resize --fit pad` (nil: clear).
    var background: Color?
    /// The steps' `auxiliaryFiles`, decoded.
    var images: [String: Image] = [:]
    /// The files read (every input and auxiliary file), which no output may replace without
    /// `--in-place`.
    var inputFiles: Set<FileIdentity> = []
    /// `--colorspace` (nil: keep) and `--intent`.
    var colorTarget: ColorTarget?
    var intent = RenderingIntent.relative
    /// `run --linear`: blurs and resizes in linear light.
    var linear = false
}

/// The steps a chain can name.
let chainableSteps: [any ImageStep.Type] = [BlurStep.self, EffectStep.self, AdjustStep.self, ResizeStep.self]

/// `NAME:key=value,key=value,flag` → the step, or nil when `token` is a file. A word and a colon
/// that names no step is a misspelt step (unless a file has that name), refused with the nearest
/// step's name; unknown keys are refused before any value is checked. Errors are ValidationErrors
/// naming the token.
func parseStep(_ token: String) throws -> (any ImageStep)? {
    guard let colon = token.firstIndex(of: ":") else { return nil }
    let name = String(token[..<colon]), names = chainableSteps.map { $0.stepName }
    guard let kind = chainableSteps.first(where: { $0.stepName == name }) else {
        if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "-" }), !FileManager.default.fileExists(atPath: token) {
            throw ValidationError("\(token): unknown step '\(name)'\(suggestion(for: name, in: names)); steps are \(names.joined(separator: ", "))")
        }
        return nil
    }
    let options = token[token.index(after: colon)...].split(separator: ",").map { "--" + $0 }
    let known = optionNames(in: kind.helpMessage()).filter { $0 != "--help" }
    for option in options {
        let key = String(option.prefix(while: { $0 != "=" }))
        guard known.contains(key) else {
            let keys = known.map { String($0.dropFirst(2)) }
            throw ValidationError("\(token): \(name) has no key '\(key.dropFirst(2))'\(suggestion(for: String(key.dropFirst(2)), in: keys)); its keys are \(keys.joined(separator: ", "))")
        }
    }
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
