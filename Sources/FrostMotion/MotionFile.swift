import FrostCodecs
import FrostCompose
import FrostFiles

/// A scene or motion JSON file as read for rendering: the motion (a plain scene is one where
/// nothing moves), the folder its files are relative to, and every file it names, read within
/// the limits of `DecodeOptions`. What `frost compose`, `frost animate` and
/// `MotionRenderer(contentsOf:)` read. Errors are `ComposeError`s whose subject is the JSON path
/// (empty for the file itself): callers name the file.
public struct MotionFile: Sendable {
    public let motion: MotionScene
    /// The folder the scene's files are relative to ("" for standard input: the current folder).
    public let folder: String
    /// The files the scene names, read once.
    public let assets: SceneAssets

    /// Reads the file at `path` (`-`: standard input); `adjust` changes the scene before the canvas
    /// is checked and its files are read (the tool's `--scale` and `--clear-background`).
    public init(path: String, options: DecodeOptions = DecodeOptions(),
                adjust: (inout MotionScene) -> Void = { _ in }) throws(ComposeError) {
        folder = path == "-" ? "" : String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let json: [UInt8]
        do { json = try FileIO.readInput(path, maxBytes: options.maxFileBytes) } catch { throw ComposeError("", CodecError(error).message) }
        var motion = try MotionScene(json: json, directory: folder, options: options)
        adjust(&motion)
        let scene = motion.scene
        do {
            try options.checkPixels(width: scene.pixelWidth, height: scene.pixelHeight, of: "the canvas would be")
        } catch {
            throw ComposeError("", error.message)
        }
        assets = try SceneAssets(for: scene, relativeTo: folder, options: options)
        self.motion = motion
    }

    /// The renderer of its frames (blurred layers' levels built here, once).
    public func renderer(threads: Int? = nil, linear: Bool = false) throws(ComposeError) -> MotionRenderer {
        try MotionRenderer(motion, assets: assets, directory: folder, threads: threads, linear: linear)
    }
}
