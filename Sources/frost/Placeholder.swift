import ArgumentParser
import Foundation
import FrostClients
import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects
import FrostFiles
import FrostService

struct Placeholder: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "placeholder",
        abstract: "Print the placeholder a page or an app shows while an image loads: a BlurHash, a ThumbHash or a tiny blurred data URL; or draw one (--decode).",
        discussion: """
        Each image is shrunk by area averaging to fit 100x100 (JPEG and WebP decoded at a reduced size \
        where that keeps 200 pixels) and hashed: BlurHash with 4 components along the longer side and \
        as many across as keep their spacing (at least 3; --components XxY to choose), ThumbHash with \
        its alpha and aspect ratio (standard base64), or a data URL of a WebP of at most --max-bytes \
        characters. One line per image as it finishes ("file: placeholder", or JSON with --json: file, \
        width, height, kind, placeholder); a failed image is reported and the others go on. \
        --decode HASH draws a hash as a PNG, --width wide (a ThumbHash keeps its own shape), in sRGB \
        or the --colorspace asked for.
        """)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case blurhash, thumbhash
        case dataURL = "data-url"
    }

    @Argument(help: "Image files, or folders of them (- for standard input).")
    var files: [String] = []

    @OptionGroup var lists: InputLists
    var inputsFrom: [String] { lists.inputsFrom }

    @Option(help: "blurhash (default), thumbhash or data-url.")
    var kind: Kind = .blurhash

    @Option(help: ArgumentHelp("BlurHash components across and down, at most 9 each, e.g. 4x3 (default: from the image's shape).", valueName: "XxY"))
    var components: String?

    static let maxBytesRange = OptionRange(100, 100_000)

    @Option(parsing: .unconditional, help: "A data URL's most characters, \(maxBytesRange).")
    var maxBytes: Int = 400

    @Flag(help: "One JSON object per image.")
    var json = false

    @Option(help: ArgumentHelp("Draw this hash (of --kind blurhash or thumbhash) instead of reading images.", valueName: "HASH"))
    var decode: String?

    @Option(name: .customShort("o"), help: "With --decode: the picture to write, in the format its name says (.png, .jpg, .webp, .avif, .heic, .gif), or - for a PNG on standard output.")
    var output: String?

    static let widthRange = OptionRange(1, 4096)

    @Option(parsing: .unconditional, help: "With --decode: the picture's width (a BlurHash's height too unless --height), \(widthRange).")
    var width: Int = 32

    @Option(parsing: .unconditional, help: "With --decode of a BlurHash: the picture's height, \(widthRange).")
    var height: Int?

    @OptionGroup(title: "Many images") var batchFlags: BatchFlags
    @OptionGroup var color: ColorFlags
    @OptionGroup var decodeFlags: DecodeFlags

    func validate() throws {
        try Self.maxBytesRange.check(maxBytes, "--max-bytes")
        try Self.widthRange.check(width, "--width")
        try Self.widthRange.check(height, "--height")
        if let components { _ = try parsedComponents(components) }
        if decode != nil {
            guard let output else { throw ValidationError("--decode needs -o FILE.png") }
            if output != "-", ImageFormat(pathExtension: output) == nil {
                throw ValidationError("-o '\(output)' must end in .png, .jpg, .jpeg, .webp, .avif, .heic or .gif (or be - for standard output)")
            }
            guard files.isEmpty, inputsFrom.isEmpty else { throw ValidationError("--decode draws a hash: give no images") }
            guard kind != .dataURL else { throw ValidationError("a data URL is an image already: --decode takes blurhash or thumbhash") }
        } else {
            guard !files.isEmpty || !inputsFrom.isEmpty else { throw ValidationError("give an image, a folder or --inputs-from") }
            if output != nil { throw ValidationError("-o goes with --decode (placeholders are printed)") }
            // Hashes and data URLs hold sRGB (docs/formats.md, "Colour"): any other space is for a drawn one.
            if let target = try color.target(), target != .sRGB {
                throw ValidationError("placeholders are sRGB: --colorspace p3 or PROFILE.icc goes with --decode")
            }
        }
    }

    func run() throws {
        if let decode { return try draw(decode) }
        var inputs: [FileBatch.Input] = []
        var failed = 0
        // A name that cannot be read fails alone; the others still run.
        for file in files {
            do { inputs += try FileBatch.inputs(fromArguments: [file]) } catch {
                report(file == "-" ? "<stdin>" : file, error)
                failed += 1
            }
        }
        for list in inputsFrom {
            do { inputs += try FileBatch.inputs(fromList: list) } catch {
                report(list == "-" ? "<stdin>" : list, error)
                failed += 1
            }
        }
        inputs = try batchFlags.shard(inputs)
        let components = try self.components.map(parsedComponents)
        let (kind, maxBytes, json, options) = (self.kind, self.maxBytes, self.json, decodeFlags.options)
        // Objects in a bucket are downloaded ahead of their turn; files are read when it comes.
        let remote = inputs.contains { ObjectAddress.isObject($0.path) }
        let outcomes = FileBatch.run(inputs, jobs: batchFlags.jobs, readAhead: remote ? batchFlags.jobs : 0) { input in
            Result { try input.read(maxBytes: options.maxFileBytes) }
        } work: { input, bytes, _ in
            Result { () throws -> String in
                try Self.line(for: input, bytes: try bytes.get(), kind: kind, components: components, maxBytes: maxBytes, json: json, options: options)
            }
        } progress: { input, outcome, _ in
            switch outcome {
            case .success(let line): print(line)
            case .failure(let error): report(input.path == "-" ? "<stdin>" : input.path, error)
            }
        }
        failed += outcomes.filter { if case .failure = $0 { true } else { false } }.count
        if failed > 0 { throw ExitCode.failure }
    }

    /// One image's output line.
    static func line(for input: FileBatch.Input, bytes: [UInt8], kind: Kind, components: (Int, Int)?, maxBytes: Int, json: Bool,
                     options: DecodeOptions) throws -> String {
        let (image, info) = try PlaceholderDecode.image(bytes, options: options)
        // The size the picture shows at: the header's, turned as the decoder turned it.
        let turned = options.autoOrient && Orientation(exifValue: info?.orientation ?? 1).swapsAxes
        let size = info.map { turned ? ($0.height, $0.width) : ($0.width, $0.height) } ?? (image.width, image.height)
        let text: String
        switch kind {
        case .blurhash: text = try image.blurHash(componentsX: components?.0, componentsY: components?.1)
        case .thumbhash: text = try image.thumbHash().base64EncodedString()
        case .dataURL: text = try dataURL(image.placeholderSource(), maxBytes: maxBytes)
        }
        let name = input.path == "-" ? "<stdin>" : input.path
        guard json else { return "\(name): \(text)" }
        let stored = info.map { ($0.width, $0.height) } ?? size
        return jsonObject([("file", jsonString(name)), ("width", "\(size.0)"), ("height", "\(size.1)"),
                           ("stored_width", "\(stored.0)"), ("stored_height", "\(stored.1)"),
                           ("display_width", "\(size.0)"), ("display_height", "\(size.1)"),
                           ("kind", jsonString(kind.rawValue)), ("placeholder", jsonString(text))])
    }

    /// The largest, best lossy WebP of the picture, lightly blurred (σ 1 per 16 pixels: the
    /// browser enlarges it), whose data URL fits `maxBytes`: 32, 24, 16, 12, 8, 6 then 4 pixels
    /// along the longer side, each at quality 70, 50, 30 and 10.
    static func dataURL(_ image: Image, maxBytes: Int) throws -> String {
        for side in [32, 24, 16, 12, 8, 6, 4] {
            var small = image.placeholderSource(maxSide: side).gaussianBlurred(sigma: Double(side) / 16, threads: 1)
            small.iccProfile = nil   // a profile alone outweighs the budget; the colours are a blur's
            for quality in stride(from: 70, through: 10, by: -20) {
                let webp = try small.encoded(as: .webp, options: EncodeOptions(compressionLevel: 6, webpQuality: quality), threads: 1)
                let url = "data:image/webp;base64," + Data(webp).base64EncodedString()
                if url.utf8.count <= maxBytes { return url }
            }
        }
        throw CodecError(.tooLarge, "no WebP of the picture fits \(maxBytes) characters (raise --max-bytes)")
    }

    /// Draws a hash as a PNG.
    private func draw(_ hash: String) throws {
        var image: Image
        do {
            switch kind {
            case .thumbhash:
                guard let bytes = Data(base64Encoded: hash) else { throw PlaceholderError("not a ThumbHash (not base64)") }
                image = try ThumbHash.decode([UInt8](bytes), size: width)
            default:
                image = try BlurHash.decode(hash, width: width, height: height ?? width)
            }
        } catch {
            throw failure("--decode", error)
        }
        // A hash's colours are sRGB: converted and tagged when another space is asked for.
        image = try attempt("--decode") { try color.apply(image) }
        let output = output!
        if output == "-" {
            try refuseTerminal()
            return try attempt("<stdout>") { try FileIO.writeStandardOutput(try image.encoded(as: .png)) }
        }
        try attempt(output) { try image.write(toFile: output, format: ImageFormat(pathExtension: output)) }
    }

    private func parsedComponents(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...9).contains(parts[0]), (1...9).contains(parts[1]) else {
            throw ValidationError("--components takes XxY, at most 9 each (4x3)")
        }
        return (parts[0], parts[1])
    }

    private func failure(_ subject: String, _ error: any Error) -> ExitCode {
        report(subject, error)
        return ExitCode.failure
    }
}
