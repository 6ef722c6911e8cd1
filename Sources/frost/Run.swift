import ArgumentParser

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "A chain of operations on each image, in the order given: decoded once, encoded once.",
        discussion: """
        Steps are NAME:key=value,key=value with the options of the verb of that name (blur, effect, \
        adjust, resize), e.g. frost run in.jpg out.webp blur:sigma=4 adjust:brightness=-0.1,gamma=1.2 \
        effect:preset=light resize:width=1170. A flag is named alone (blur:box=3,axes=horizontal; resize:width=300,linear). \
        The other arguments are the inputs and the output, as for every filter.
        """ + "\n\n" + filterDiscussion)

    @Argument(help: ArgumentHelp("Inputs, output and steps, in any order (steps run in the order given).",
                                 valueName: "inputs… output steps…"))
    var items: [String] = []
    @Flag(help: "Every blur (--sigma) and resize in linear light (each step may also say 'linear').")
    var linear = false
    @OptionGroup var io: FilterFiles

    func run() throws {
        var files: [String] = [], steps: [any ImageStep] = []
        for item in items {
            if let step = try parseStep(item) { steps.append(step) } else { files.append(item) }
        }
        guard !steps.isEmpty else { throw ValidationError("give at least one step, e.g. blur:sigma=4 (convert changes the format alone)") }
        if linear, steps.contains(where: { ($0 as? BlurStep)?.box != nil }) {
            throw ValidationError("--linear blurs with sigma (a box blur sums sRGB values exactly): give blur:sigma=…")
        }
        try io.process(files, steps: steps, linear: linear)
    }
}
