import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

/// The files a scene refers to (images, textures, masks, fonts), read once before rendering so
/// that rendering itself does no I/O and every missing file is reported with its JSON path.
public struct SceneAssets: Sendable {
    /// Decoded images by the path written in the scene.
    public var images: [String: Image] = [:]
    /// Font file bytes by the path written in the scene; `SceneAssets.defaultFontKey` is DejaVu Sans.
    public var fonts: [String: [UInt8]] = [:]

    /// The key of the default font (DejaVu Sans).
    public static let defaultFontKey = ""
    /// How the files were read: their limits, and the folder they must lie in (`assetsRoot`).
    /// A motion's cache folders are read with the same.
    public var options = DecodeOptions()

    /// No files: a scene that names none.
    public init() {}

    /// Where DejaVu Sans lives on Debian (fonts-dejavu-core), Fedora and Arch.
    public static let defaultFontPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
    ]

    /// Reads every file `scene` names; relative paths are relative to `directory`. `options` bound
    /// the images (pixels, bytes) and, with `assetsRoot`, confine every file to one folder.
    public init(for scene: Scene, relativeTo directory: String, options: DecodeOptions = DecodeOptions()) throws(ComposeError) {
        self.options = options
        try load(scene.layers, path: "layers", directory: directory)
    }

    private mutating func load(_ layers: [Layer], path: String, directory: String) throws(ComposeError) {
        for (i, layer) in layers.enumerated() {
            let here = "\(path)[\(i)]"
            switch layer.content {
            case .image(.file(let file), _), .texture(.tiled(.file(let file))):
                try loadImage(file, subject: "\(here).file", directory: directory)
            case .text(let text):
                try loadFont(text.font, subject: "\(here).font", directory: directory)
            case .group(let children):
                try load(children, path: "\(here).layers", directory: directory)
            default:
                break
            }
            if case .image(.file(let file), _) = layer.mask {
                try loadImage(file, subject: "\(here).mask.file", directory: directory)
            }
        }
    }

    private mutating func loadImage(_ file: String, subject: String, directory: String) throws(ComposeError) {
        guard images[file] == nil else { return }
        let resolved: String
        do { resolved = try options.assetPath(file, relativeTo: directory) } catch { throw ComposeError(subject, error.message) }
        do {
            // A scene composites in one working space, sRGB: each tagged layer converted on load.
            images[file] = try Image(contentsOfFile: resolved, options: options).inSRGB()
        } catch {
            throw ComposeError(subject, "cannot read \(resolved): \(error)")
        }
    }

    private mutating func loadFont(_ file: String?, subject: String, directory: String) throws(ComposeError) {
        let key = file ?? Self.defaultFontKey
        guard fonts[key] == nil else { return }
        do throws(ComposeError) {
            if let file {
                let resolved: String
                do { resolved = try options.assetPath(file, relativeTo: directory) } catch { throw ComposeError(file, error.message) }
                fonts[key] = try Self.readFont(resolved, maxBytes: options.maxFileBytes)
            } else {
                fonts[key] = try Self.defaultFont().bytes
            }
        } catch {
            throw ComposeError(subject, error.description)
        }
    }

    /// DejaVu Sans from where the system keeps it, read and opened once.
    public static func defaultFont() throws(ComposeError) -> (path: String, bytes: [UInt8]) {
        guard let path = defaultFontPaths.first(where: { access($0, R_OK) == 0 }) else {
            throw ComposeError("DejaVu Sans", "the default font was not found (looked in "
                + defaultFontPaths.joined(separator: ", ") + "); install Debian's fonts-dejavu-core or name a font file")
        }
        return (path, try readFont(path))
    }

    private static func readFont(_ path: String, maxBytes: Int = DecodeOptions.defaultMaxFileBytes) throws(ComposeError) -> [UInt8] {
        do {
            let bytes = try FileIO.read(path, maxBytes: maxBytes)
            // Opened once here so that a broken font is reported with its path, before rendering.
            _ = try FontFace(bytes: bytes, name: path, pixelSize: 12)
            return bytes
        } catch let error as ComposeError {
            throw ComposeError(path, error.message)
        } catch {
            throw ComposeError(path, "cannot read it: \(error)")
        }
    }

    /// The image for a source: pixels built in Swift, or a file loaded here.
    func image(_ source: ImageSource, subject: String) throws(ComposeError) -> Image {
        switch source {
        case .pixels(let image): return image
        case .file(let file):
            guard let image = images[file] else { throw ComposeError(subject, "\(file) was not loaded (use SceneAssets(for:relativeTo:))") }
            return image
        }
    }
}
