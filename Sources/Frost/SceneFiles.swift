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
        guard url.isFileURL else { throw ComposeError(url.absoluteString, "not a file URL") }
        do {
            let file = try MotionFile(path: url.path, options: options)
            try self.init(file.motion, assets: file.assets, directory: file.folder, threads: threads)
        } catch {
            throw ComposeError(error.subject.isEmpty ? name : "\(name): \(error.subject)", error.message)
        }
    }
}
