import ArgumentParser
import FrostCodecs
import FrostCore

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert between PNG and JPEG (output format from OUT's extension).")

    @Argument(help: "Input image (PNG or JPEG, detected by content).")
    var input: String

    @Argument(help: "Output image: .png, .jpg or .jpeg.")
    var output: String

    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags

    func validate() throws { _ = try outputFormat(output) }

    func run() throws {
        let image = try attempt(input) { try Image(contentsOfFile: input, options: decode.options) }
        try attempt(output) { try image.write(toFile: output, options: encode.options) }
    }
}
