import FrostCodecs

/// How a result's format is chosen, as imgproxy chooses it (its processing.go,
/// `determineOutputFormat`): the URL's extension or `f`; else AVIF or WebP when the client
/// accepts them and the server prefers them (`--auto-avif`, `--auto-webp`; AVIF never for an
/// animation, which it would lose); else the source's format when it is one of the preferred
/// (`--preferred-formats`, imgproxy's default jpeg, png, gif); else the first preferred that keeps
/// what the picture needs (an animation, transparency), else the first preferred.
public struct OutputFormat: Sendable, Equatable {
    /// The format asked for (nil: chosen).
    public var explicit: ImageFormat?
    /// The client accepts AVIF (WebP) and the server answers it.
    public var preferAVIF = false, preferWebP = false

    public init(explicit: ImageFormat? = nil, preferAVIF: Bool = false, preferWebP: Bool = false) {
        self.explicit = explicit
        self.preferAVIF = preferAVIF
        self.preferWebP = preferWebP
    }

    /// imgproxy's `IMGPROXY_PREFERRED_FORMATS` default.
    public static let defaultPreferred: [ImageFormat] = [.jpeg, .png, .gif]

    /// What makes two results of one source and options differ in format (part of their identity).
    var identity: String {
        explicit?.fileExtension ?? "auto" + (preferAVIF ? "+avif" : "") + (preferWebP ? "+webp" : "")
    }

    /// Whether the choice depends on the request's Accept header (`Vary: Accept`).
    var negotiable: Bool { explicit == nil }

    /// The format for a source of format `source`: `animated` when it would be served as an
    /// animation, `transparent` when the result may hold transparency.
    func resolve(source: ImageFormat, animated: Bool, transparent: Bool, preferred: [ImageFormat]) -> ImageFormat {
        if let explicit { return explicit }
        if preferAVIF, !animated { return .avif }
        if preferWebP { return .webp }
        if preferred.contains(source) { return source }
        return preferred.first { (!animated || $0.keepsAnimation) && (!transparent || $0.keepsTransparency) } ?? preferred.first ?? .jpeg
    }
}

extension ImageFormat {
    /// Whether an animation written in the format stays one (Frost writes animated GIF, WebP and APNG).
    var keepsAnimation: Bool { [.gif, .webp, .png].contains(self) }

    /// Whether the format holds transparency.
    var keepsTransparency: Bool { self != .jpeg }

    /// The HTTP Content-Type (HEIC as `image/heif`, imgproxy's and the registered type).
    public var contentType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .heic: "image/heif"
        case .gif: "image/gif"
        }
    }
}
