import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import FrostCodecs
import FrostCore
import FrostFiles

/// Reading options shared by every subcommand that opens images.
struct DecodeFlags: ParsableArguments {
    @Flag(name: .customLong("no-auto-orient"), help: "Keep JPEG pixels as stored; ignore the EXIF orientation.")
    var noAutoOrient = false

    @Flag(help: "Decode what a truncated or corrupt file holds instead of failing: a JPEG's missing part gray, a PNG's rows before the cut (the rest transparent), a GIF's whole frames before a broken one.")
    var allowTruncated = false

    static let maxPixelsRange = OptionRange(1, 1e12)

    @Option(parsing: .unconditional, help: "Refuse images, and results (resize targets, canvases, sheets), with more pixels than this, \(maxPixelsRange).")
    var maxPixels: Int = DecodeOptions.defaultMaxPixels

    @Option(help: ArgumentHelp("Refuse input files larger than this, before reading them: bytes, or with a k, M or G suffix.", valueName: "SIZE"))
    var maxFileSize: ByteCount = ByteCount(DecodeOptions.defaultMaxFileBytes)

    static let frameRange = OptionRange(0, 1e6)

    @Option(parsing: .unconditional, help: "Of an animation (GIF, APNG, WebP, AVIF sequence), take this one frame, \(frameRange) (default: every frame where the output holds an animation, else the first).")
    var frame: Int?

    static let maxFramesRange = OptionRange(1, 1e6)

    @Option(parsing: .unconditional, help: "Refuse animations of more frames than this, \(maxFramesRange), counted before any is decoded (the pixels of all frames together count against --max-pixels).")
    var maxFrames: Int = DecodeOptions.defaultMaxFrames

    var options: DecodeOptions {
        var options = DecodeOptions(maxPixels: maxPixels, autoOrient: !noAutoOrient, allowTruncated: allowTruncated, maxFileBytes: maxFileSize.bytes)
        options.frame = frame ?? 0
        options.requiresEveryFrame = frame == nil
        options.maxFrames = maxFrames
        return options
    }

    /// `options`, the conversions a decode makes (a CMYK JPEG's, a gray picture's profile into
    /// sRGB) by the rendering intent `color` asks for.
    func options(_ color: ColorFlags) -> DecodeOptions {
        var options = options
        options.intent = color.rendering
        return options
    }

    func validate() throws {
        try Self.maxPixelsRange.check(maxPixels, "--max-pixels")
        try Self.frameRange.check(frame, "--frame")
        try Self.maxFramesRange.check(maxFrames, "--max-frames")
    }
}

/// A size in bytes as options take it: 1500000, 1500k, 20M, 2G (powers of 1024).
struct ByteCount: ExpressibleByArgument, Equatable {
    let bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let units: [Character: Int] = ["k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20, "g": 1 << 30, "G": 1 << 30]
        let unit = argument.last.flatMap { units[$0] }
        guard let number = Int(unit == nil ? argument : String(argument.dropLast())), number > 0 else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    var defaultValueDescription: String { bytes % (1 << 30) == 0 ? "\(bytes >> 30)G" : "\(bytes)" }
}

/// Writing options shared by every subcommand that writes images.
struct EncodeFlags: ParsableArguments {
    static let qualityRange = OptionRange(1, 100)
    static let compressionRange = OptionRange(0, 9)

    @Option(parsing: .unconditional, help: "JPEG quality \(qualityRange) (default 90; 4:4:4 chroma from 90 up, 4:2:0 below); for WebP, lossy at this quality (default \(EncodeFlags.defaultWebPQuality), as cwebp, libvips and sharp; --lossless for lossless); for AVIF, \(EncodeOptions.defaultAVIFQuality) by default, 100 lossless; for HEIC, \(EncodeOptions.defaultHEICQuality) by default, 100 lossless. Not for PNG.")
    var quality: Int?

    @Flag(help: "Write a progressive JPEG.")
    var progressive = false

    /// WebP's default quality on the command line: lossy, as cwebp's, libvips's, sharp's and
    /// imgproxy's defaults (75–80); a photo's lossless WebP is several times the bytes of a JPEG.
    static let defaultWebPQuality = 80

    @Flag(help: "Lossless WebP (lossy at quality \(EncodeFlags.defaultWebPQuality) without it), AVIF or HEIC (their quality 100).")
    var lossless = false

    @Option(parsing: .unconditional, help: "PNG deflate level or lossless WebP effort, \(compressionRange). PNG: 1 (the default) is Frost's run-length deflate over Paeth residuals, 2 libdeflate over Up, higher levels zlib with adaptive filters; WebP: default effort \(EncodeOptions.defaultWebPEffort); AVIF: effort, default \(EncodeOptions.defaultAVIFEffort) (aom's speed 10 − effort); HEIC: effort, default \(EncodeOptions.defaultHEICEffort) (x265's presets ultrafast … placebo). Not for JPEG.")
    var compression: Int?

    static let loopRange = OptionRange(0, 65535)

    @Option(parsing: .unconditional, help: "How many times an animation plays, \(loopRange), 0 forever (default: the input's count, which GIF, APNG and WebP files keep; a motion plays forever). GIF, APNG and WebP only.")
    var loop: Int?

    static let colorsRange = OptionRange(2, 256)

    @Option(parsing: .unconditional, help: "A palette of at most this many colours, \(colorsRange), made by libimagequant: a GIF's (default 256), or a PNG's instead of true colour (what pngquant does).")
    var colors: Int?

    static let ditherRange = OptionRange(0, 1)

    @Option(parsing: .unconditional, help: "Dithering of a palette (GIF, PNG with --colors), \(ditherRange): 0 none, 1 full Floyd–Steinberg (the default).")
    var dither: Double?

    @Option(help: ArgumentHelp("What transparency is flattened onto, in every output when given (else only in a JPEG, onto white, with a note on standard error), and the padding of resize --fit pad (default clear): \(colorHelp).", valueName: "color"))
    var background: Color?

    var options: EncodeOptions {
        var options = EncodeOptions(quality: quality ?? 90, progressive: progressive, compressionLevel: compression,
                                    pngFilter: EncodeOptions.pngFilter(forLevel: compression),
                                    webpQuality: lossless ? nil : quality ?? Self.defaultWebPQuality,
                                    background: background ?? EncodeOptions.defaultBackground)
        options.avifQuality = lossless ? 100 : quality
        options.heicQuality = lossless ? 100 : quality
        options.colors = colors
        options.dither = dither ?? 1
        options.loops = loop
        return options
    }

    /// Says on standard error when `image`'s transparency is flattened onto the default background
    /// because `format` has no alpha (a JPEG) and no --background was given.
    func noteFlattening(_ image: Image, as format: ImageFormat, for file: String) {
        guard format == .jpeg, background == nil, image.hasAlpha, image.containsTransparency else { return }
        writeError("frost: \(file): note: transparency flattened onto white in the JPEG (--background COLOR chooses)\n")
    }

    func validate() throws {
        try Self.qualityRange.check(quality, "--quality")
        try Self.compressionRange.check(compression, "--compression")
        try Self.colorsRange.check(colors, "--colors")
        try Self.ditherRange.check(dither, "--dither")
        try Self.loopRange.check(loop, "--loop")
        if lossless, let quality { throw ValidationError("--lossless and --quality \(quality) disagree: give one") }
    }

    /// Refuses options that the format written does not use (a quality for a PNG), rather than
    /// ignoring them.
    func check(_ format: ImageFormat) throws {
        let given: [(String, Bool)] = [("--quality", quality != nil), ("--compression", compression != nil),
                                       ("--progressive", progressive), ("--colors", colors != nil), ("--dither", dither != nil),
                                       ("--lossless", lossless), ("--loop", loop != nil)]
        let applies: [String] = switch format {
        case .png: ["--compression", "--colors", "--loop"] + (colors == nil ? [] : ["--dither"])
        case .jpeg: ["--quality", "--progressive"]
        case .webp: ["--quality", "--compression", "--lossless", "--loop"]
        case .avif, .heic: ["--quality", "--compression", "--lossless"]
        case .gif: ["--colors", "--dither", "--loop"]
        }
        if let first = given.first(where: { $0.1 && !applies.contains($0.0) }) {
            throw ValidationError("\(first.0) does not apply to \(format.displayName) output"
                                  + (first.0 == "--dither" && format == .png ? " without --colors" : ""))
        }
    }
}

extension EncodeFlags {
    /// An MP4 takes ffmpeg's H.264 settings: none of the image options apply.
    func checkVideo() throws {
        let given = [("--quality", quality != nil), ("--compression", compression != nil), ("--progressive", progressive),
                     ("--colors", colors != nil), ("--dither", dither != nil), ("--lossless", lossless), ("--loop", loop != nil)]
        if let first = given.first(where: \.1) {
            throw ValidationError("\(first.0) does not apply to MP4 output (ffmpeg's H.264 settings)")
        }
    }

    /// The format an output path names (refused unless Frost writes it, or when `chosen`, a
    /// `--format`, contradicts it), checked against the options given. `-` is standard output,
    /// PNG unless `chosen` says otherwise, refused when it is a terminal.
    func format(writing path: String, chosen: ImageFormat? = nil) throws -> ImageFormat {
        if path == "-" {
            try refuseTerminal()
            try check(chosen ?? .png)
            return chosen ?? .png
        }
        guard let named = ImageFormat(pathExtension: path) else {
            throw ValidationError("output '\(path)' must end in .png, .jpg, .jpeg, .webp, .avif, .heic or .gif")
        }
        if let chosen, chosen != named {
            throw ValidationError("--format \(chosen.fileExtension) disagrees with the output's name '\(path)'")
        }
        try check(named)
        return named
    }
}

extension ImageFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = ImageFormat(name: argument.lowercased()) else { return nil }
        self = format
    }
    public static var allValueStrings: [String] { ImageFormat.writable.map(\.fileExtension) }
}

/// Image data is not written to a terminal (as gzip refuses): a usage error when standard output is one.
func refuseTerminal() throws {
    guard isatty(1) == 0 else { throw ValidationError("image data is not written to a terminal: redirect standard output, or name a file") }
}

/// Writes one image: to a file atomically, or for `-` to standard output as PNG.
func write(_ image: Image, to output: String, encode: EncodeFlags, color: ColorFlags? = nil) throws {
    let converted = try color?.apply(image) ?? image
    let image = encode.background.map { converted.hasAlpha ? converted.flattened(onto: $0) : converted } ?? converted
    guard output != "-" else { return try FileIO.writeStandardOutput(try image.encoded(as: .png, options: encode.options)) }
    if let format = ImageFormat(pathExtension: output) { encode.noteFlattening(image, as: format, for: output) }
    try image.write(toFile: output, options: encode.options)
}
