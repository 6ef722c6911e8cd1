import ArgumentParser
import FrostCodecs

/// Reading options shared by every subcommand that opens images.
struct DecodeFlags: ParsableArguments {
    @Flag(name: .customLong("no-auto-orient"), help: "Keep JPEG pixels as stored; ignore the EXIF orientation.")
    var noAutoOrient = false

    @Flag(help: "Accept a truncated JPEG (the missing part decodes gray) instead of failing.")
    var allowTruncated = false

    @Option(help: "Refuse images with more pixels than this (default 256000000).")
    var maxPixels: Int = DecodeOptions.defaultMaxPixels

    @Option(help: ArgumentHelp("Refuse input files larger than this, before reading them: bytes, or with a k, M or G suffix.", valueName: "SIZE"))
    var maxFileSize: ByteCount = ByteCount(DecodeOptions.defaultMaxFileBytes)

    var options: DecodeOptions {
        DecodeOptions(maxPixels: maxPixels, autoOrient: !noAutoOrient, allowTruncated: allowTruncated, maxFileBytes: maxFileSize.bytes)
    }

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be positive") }
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
    @Option(help: "JPEG quality 1-100 (default 90; 4:4:4 chroma from 90 up, 4:2:0 below); for WebP, lossy at this quality (default lossless).")
    var quality: Int?

    @Flag(help: "Write a progressive JPEG.")
    var progressive = false

    @Option(help: "PNG zlib level, or lossless WebP effort, 0-9 (default \(EncodeOptions.defaultCompressionLevel)).")
    var compression: Int = EncodeOptions.defaultCompressionLevel

    var options: EncodeOptions {
        // An explicit level above the fast default also asks for libpng's adaptive filtering.
        let filter = compression > EncodeOptions.defaultCompressionLevel ? nil : EncodeOptions.defaultPNGFilter
        return EncodeOptions(quality: quality ?? 90, progressive: progressive, compressionLevel: compression,
                             pngFilter: filter, webpQuality: quality)
    }

    func validate() throws {
        if let quality { guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") } }
        guard (0...9).contains(compression) else { throw ValidationError("--compression must be between 0 and 9") }
    }
}

/// Checks that an output path names a format Frost writes.
func outputFormat(_ path: String) throws -> ImageFormat {
    guard let format = ImageFormat(pathExtension: path) else {
        throw ValidationError("output '\(path)' must end in .png, .jpg, .jpeg or .webp")
    }
    return format
}

extension ImageFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument.lowercased()) }
    public static var allValueStrings: [String] { ["png", "jpg", "webp"] }
}
