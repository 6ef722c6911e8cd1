import ArgumentParser
import FrostCodecs
import FrostCore

/// The read → transform → write shape of blur, effect and adjust.
struct ImageJob: ParsableArguments {
    @Argument(help: "Input image (PNG or JPEG).")
    var input: String

    @Argument(help: "Output image: .png, .jpg or .jpeg.")
    var output: String

    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags

    func validate() throws { _ = try outputFormat(output) }

    func read() throws -> Image {
        try attempt(input) { try Image(contentsOfFile: input, options: decode.options) }
    }

    func write(_ image: Image) throws {
        try attempt(output) { try image.write(toFile: output, options: encode.options) }
    }
}
