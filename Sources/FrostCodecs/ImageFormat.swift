/// The file formats Frost reads and writes. Reading goes by content, writing by file name.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    /// PNG (and APNG).
    case png
    /// JPEG (JFIF or EXIF).
    case jpeg
    /// WebP, lossy or lossless (and animated).
    case webp
    /// AVIF: AV1 in a HEIF container. Read and written.
    case avif
    /// HEIC: HEVC in a HEIF container, as phones save photos. Read and written.
    case heic
    /// GIF (87a and 89a, animated or not).
    case gif

    /// The formats Frost writes: all it reads.
    public static let writable: [ImageFormat] = [.png, .jpeg, .webp, .avif, .heic, .gif]

    /// The format whose signature starts `bytes`, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(64))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF {
            self = .jpeg
        } else if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if let format = Self.heifBrand(head) {
            self = format
        } else {
            return nil
        }
    }

    /// A HEIF file opens with an `ftyp` box (ISO/IEC 14496-12, 4.3) whose major and compatible
    /// brands say what it holds: `avif`/`avis` AV1, `heic`/`heix`/`heim`/`heis` HEVC, `mif1`/`msf1`
    /// a HEIF image of some kind, which libheif reads.
    private static func heifBrand(_ head: [UInt8]) -> ImageFormat? {
        guard head.count >= 16, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = min(Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3]), head.count)
        guard size >= 16 else { return nil }
        let brands = Set(stride(from: 8, to: size - 3, by: 4).filter { $0 != 12 }.map { String(decoding: head[$0..<($0 + 4)], as: UTF8.self) })
        if !brands.isDisjoint(with: ["avif", "avis"]) { return .avif }
        if !brands.isDisjoint(with: ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]) { return .heic }
        return nil
    }

    /// The format for a path's extension (.png, .jpg, .jpeg, .webp, .avif, .heic, .heif, .gif; any case), or nil.
    public init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        case "heic", "heif": self = .heic
        case "gif": self = .gif
        default: return nil
        }
    }

    /// A name by its own parsing: png, jpg, jpeg, webp, avif, heic, heif or gif (for `--format`).
    public init?(name: String) {
        self.init(pathExtension: "." + name)
    }

    /// `png`, `jpg`, `webp`, `avif`, `heic` or `gif`.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        case .avif: "avif"
        case .heic: "heic"
        case .gif: "gif"
        }
    }

    /// The longest side the format holds (WebP's 14-bit sizes, JPEG's libjpeg limit, GIF's 16-bit
    /// sizes); nil where it is far beyond any pixel budget.
    public var maximumSide: Int? {
        switch self {
        case .webp: 16383
        case .jpeg: 65500
        case .gif: 65535
        case .png, .avif, .heic: nil
        }
    }

    /// Refuses a picture of `width` × `height` that the format cannot hold, before it is made.
    public func checkHolds(width: Int, height: Int) throws(CodecError) {
        guard let side = maximumSide, max(width, height) > side else { return }
        throw CodecError(.encode, "\(width)x\(height) is too large for \(displayName) (at most \(side) pixels a side)")
    }

    /// How messages name the format.
    public var displayName: String { self == .webp ? "WebP" : rawValue.uppercased() }
}
