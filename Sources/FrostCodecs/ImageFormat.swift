/// The file formats Frost reads and writes. Reading goes by content, writing by file name.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    /// PNG (and APNG).
    case png
    /// JPEG (JFIF or EXIF).
    case jpeg
    /// WebP, lossy or lossless (and animated).
    case webp

    /// The format whose signature starts `bytes`, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else if bytes.count >= 12, Array(bytes.prefix(4)) == Array("RIFF".utf8),
                  Array(bytes.dropFirst(8).prefix(4)) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The format for a path's extension (.png, .jpg, .jpeg, .webp; any case), or nil.
    public init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// A name by its own parsing: png, jpg, jpeg or webp (for `--format`).
    public init?(name: String) {
        self.init(pathExtension: "." + name)
    }

    /// `png`, `jpg` or `webp`.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// How messages name the format.
    public var displayName: String { self == .webp ? "WebP" : rawValue.uppercased() }
}
