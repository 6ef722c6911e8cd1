import FrostColor
import FrostCore

/// The space a cache's levels are rendered in when it is not the source's own (`frost cache
/// --colorspace`): the source converted once, before its levels are blurred from it. Recorded in
/// the manifest's parameters as `colorspace` ("srgb", "p3" or "icc:" and the profile's SHA-256)
/// and `intent`, so a batch resumes only caches made in the same space.
public struct CacheColor: Sendable, Equatable {
    /// The target, with its profile's bytes; nil in a colour read back from a manifest (which
    /// records the profile's identity, not the profile).
    public let target: ColorTarget?
    /// The rendering intent of the conversion.
    public let intent: RenderingIntent
    /// The target as the manifest names it.
    public let name: String

    /// Levels converted to `target` with `intent`.
    public init(_ target: ColorTarget, intent: RenderingIntent = .relative) {
        self.target = target
        self.intent = intent
        switch target {
        case .sRGB: name = "srgb"
        case .displayP3: name = "p3"
        case .profile(let bytes): name = "icc:" + SHA256.hex(bytes)
        }
    }

    init(name: String, intent: RenderingIntent) {
        target = nil
        self.name = name
        self.intent = intent
    }

    /// Two colours are the same when they name the same space and intent.
    public static func == (a: CacheColor, b: CacheColor) -> Bool { a.name == b.name && a.intent == b.intent }

    /// The intents' names in a manifest.
    static let intentNames: [RenderingIntent: String] = [.perceptual: "perceptual", .relative: "relative",
                                                         .saturation: "saturation", .absolute: "absolute"]
}
