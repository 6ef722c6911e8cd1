import ArgumentParser

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert between PNG and JPEG (output format from OUT's extension).")

    @OptionGroup var job: ImageJob

    func run() throws {
        try job.write(try job.read())
    }
}
