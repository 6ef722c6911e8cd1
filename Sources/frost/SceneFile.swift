import FrostCodecs
import FrostCompose
import FrostMotion

/// A scene file as `compose` and `animate` read it: the motion scene (a plain scene is one with
/// nothing moving), the folder its files are relative to, and its assets loaded.
struct SceneFile {
    let name: String
    let motion: MotionScene
    let folder: String
    let assets: SceneAssets

    /// `path` may be - for standard input (files then relative to the current folder).
    init(_ path: String, scale: Double?, clearBackground: Bool) throws {
        name = path == "-" ? "<stdin>" : path
        var motion = try attempt(name) { try MotionScene(json: try FileIO.read(path == "-" ? "/dev/stdin" : path)) }
        if let scale { motion.scene.scale = scale }
        if clearBackground { motion.scene.background = .clear }
        let folder = path == "-" ? "" : String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let scene = motion.scene
        assets = try attempt(name) { try SceneAssets(for: scene, relativeTo: folder) }
        self.motion = motion
        self.folder = folder
    }

    /// The renderer of its frames (blurred layers' levels built here, once).
    func renderer(threads: Int?) throws -> MotionRenderer {
        try attempt(name) { try MotionRenderer(motion, assets: assets, directory: folder, threads: threads) }
    }
}
