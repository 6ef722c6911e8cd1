import ArgumentParser
import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles

/// `--colorspace` and `--intent` of the verbs that write pictures (the filters, cache, compose,
/// animate, fade, sheet, a drawn placeholder): the policy of docs/formats.md, "Colour".
struct ColorFlags: ParsableArguments {
    /// Where output pixels are put.
    enum Space: ExpressibleByArgument, Equatable {
        case keep, sRGB, displayP3, profile(String)

        init?(argument: String) {
            switch argument.lowercased() {
            case "keep": self = .keep
            case "srgb": self = .sRGB
            case "p3", "display-p3": self = .displayP3
            default:
                let lower = argument.lowercased()
                guard lower.hasSuffix(".icc") || lower.hasSuffix(".icm") else { return nil }
                self = .profile(argument)
            }
        }

        static var allValueStrings: [String] { ["keep", "srgb", "p3", "PROFILE.icc"] }
    }

    @Option(help: ArgumentHelp("keep (the default: the pixels as they are, their profile kept where the output holds one; GIFs and placeholders are converted to sRGB), srgb (converted, written untagged), p3 (converted to Display P3 and tagged) or PROFILE.icc (converted to that RGB profile and tagged).", valueName: "space"))
    var colorspace: Space = .keep

    enum Intent: String, ExpressibleByArgument, CaseIterable {
        case perceptual, relative, saturation, absolute
        var rendering: RenderingIntent {
            switch self {
            case .perceptual: .perceptual
            case .relative: .relative
            case .saturation: .saturation
            case .absolute: .absolute
            }
        }
    }

    @Option(help: "The ICC rendering intent of a conversion: perceptual, relative (colorimetric, the default, as libvips and imgproxy), saturation or absolute. Alone, it converts to sRGB with that intent.")
    var intent: Intent?

    func validate() throws {
        _ = try target()
    }

    /// The conversion asked for, its profile file read and checked (nil: keep). `--intent` without
    /// `--colorspace` asks for sRGB.
    func target() throws -> ColorTarget? {
        switch colorspace {
        case .keep: return intent == nil ? nil : .sRGB
        case .sRGB: return .sRGB
        case .displayP3: return .displayP3
        case .profile(let path):
            let bytes = try attempt(path) { try FileIO.read(path, maxBytes: 64 << 20) }
            let profile = try attempt(path) { () throws(ColorError) in try ColorProfile(bytes) }
            guard profile.isRGB else { throw ValidationError("\(path): a \(profile.colorSpace) profile; --colorspace takes an RGB profile") }
            return .profile(bytes)
        }
    }

    /// The intent asked for (relative colorimetric by default).
    var rendering: RenderingIntent { (intent ?? .relative).rendering }

    /// `image` in the space asked for (itself with keep).
    func apply(_ image: Image, threads: Int? = nil) throws -> Image {
        try Self.apply(image, to: try target(), intent: rendering, threads: threads)
    }

    /// `image` in `target` (itself when nil), its failure an error of the input.
    static func apply(_ image: Image, to target: ColorTarget?, intent: RenderingIntent, threads: Int? = nil) throws -> Image {
        guard let target else { return image }
        do {
            return try image.converted(to: target, intent: intent, threads: threads)
        } catch {
            throw CodecError(.unsupported, "cannot convert its colours: \(error.description)")
        }
    }
}
