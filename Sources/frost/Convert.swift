import ArgumentParser

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert between PNG, JPEG, WebP, AVIF, HEIC and GIF (format from the output's name or --format).",
        discussion: filterDiscussion)

    @Argument(help: filesHelp) var files: [String] = []
    @OptionGroup var io: FilterFiles

    func run() throws { try io.process(files, steps: []) }
}

let filesHelp = ArgumentHelp("Input images (PNG, JPEG, WebP, AVIF, HEIC, GIF; animations' every frame; - for standard input), folders or lists, then the output unless -o is given.",
                             valueName: "inputs… output")

let filterDiscussion = """
    One image: frost VERB IN OUT. Many: frost VERB IN… -o FOLDER/ (relative paths mirrored) or \
    -o 'out/%s.webp' (%s: each input's name without extension), with --jobs and --shard; a bad \
    input is reported and the others finish (exit status 1). - reads standard input or writes \
    standard output (format from the content, or --format).
    """
