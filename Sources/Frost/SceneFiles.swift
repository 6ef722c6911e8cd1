import Foundation
import FrostFiles

// Scenes and motions read from JSON files (docs/scenes.md, docs/motion.md), checked as `frost
// compose` and `frost animate` check them.

extension MotionRenderer {
    /// Reads a scene or motion JSON file and every file it names (relative to its folder) within
    /// `options`' limits, and builds the renderer (a plain scene is one where nothing moves:
    /// `frame(at: DriverState())` is its still). Errors name the file and the JSON path:
    /// `card.json: layers[2].frame: …`.
    public convenience init(contentsOf url: URL, options: DecodeOptions = DecodeOptions(), threads: Int? = nil) throws(ComposeError) {
        let name = url.relativePath
        func named(_ error: ComposeError) -> ComposeError {
            ComposeError(error.subject.isEmpty ? name : "\(name): \(error.subject)", error.message)
        }
        guard url.isFileURL else { throw ComposeError(url.absoluteString, "not a file URL") }
        let folder = url.deletingLastPathComponent().path
        let json: [UInt8]
        do { json = try FileIO.read(url.path, maxBytes: options.maxFileBytes) } catch { throw ComposeError(name, CodecError(error).message) }
        do {
            let motion = try MotionScene(json: json, directory: folder, options: options)
            try options.checkPixels(width: motion.scene.pixelWidth, height: motion.scene.pixelHeight, of: "the canvas would be")
            let assets = try SceneAssets(for: motion.scene, relativeTo: folder, options: options)
            try self.init(motion, assets: assets, directory: folder, threads: threads)
        } catch let error as ComposeError {
            throw named(error)
        } catch {
            throw ComposeError(name, CodecError(error).message)
        }
    }
}
