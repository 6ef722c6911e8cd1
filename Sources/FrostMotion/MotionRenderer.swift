import FrostCompose
import FrostCore

/// Renders a motion scene's frames: each frame resolves the layers' values at its driver state
/// (timing apart from drawing), swaps each blurred layer's content for its cache's frame, and
/// draws the scene with the static layers' rasters kept from frame to frame (`RetainedLayers`).
/// A frame depends only on its driver state, never on the frames rendered before it, so frame k
/// of an animation is the still at its driver value, bit for bit. One renderer may render frames
/// from several threads or tasks at once (its kept rasters and blur frames are under locks).
public final class MotionRenderer: Sendable {
    /// The motion it renders.
    public let motion: MotionScene
    /// The files the scene names, read once.
    public let assets: SceneAssets
    /// Threads per frame (nil: the compute budget's share).
    public let threads: Int?
    /// The static layers' rasters, kept from frame to frame.
    public let retained: RetainedLayers
    /// Layers blended and pictures resampled in linear light (`Scene.rendered(linear:)`).
    public let linear: Bool
    private let blurs: [BlurredLayer]

    /// Checks the motion (`validate()`: one built in Swift meets the file format's rules), reads
    /// nothing but what `assets` holds and the cache folders blurred layers name (relative to
    /// `directory`), and builds every blurred layer's levels once.
    public init(_ motion: MotionScene, assets: SceneAssets, directory: String = "", threads: Int? = nil,
                linear: Bool = false) throws(ComposeError) {
        try motion.validate()
        self.motion = motion
        self.assets = assets
        self.threads = threads
        self.linear = linear
        retained = RetainedLayers(keys: motion.staticLayerKeys)
        let rest = motion.resolved(at: motion.timeline?.states().first ?? DriverState())
        var blurs: [BlurredLayer] = []
        for (path, layerMotion) in motion.motionsByPath.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            guard let blur = layerMotion.blur else { continue }
            let (layer, parent) = rest.layer(at: path)!   // validated: every motion names a layer
            blurs.append(BlurredLayer(path: path, levels: try BlurLevels.make(blur, layer: layer, parent: parent, scene: rest, assets: assets, directory: directory,
                                                    path: MotionScene.jsonPath(path), threads: threads)))
        }
        self.blurs = blurs
    }

    /// The scene as drawn at `state`.
    public func scene(at state: DriverState) -> Scene {
        var scene = motion.resolved(at: state)
        for blur in blurs {
            let image = blur.levels.frame(at: motion.blurProgress(at: blur.path, state), threads: threads)
            scene.updateLayer(at: blur.path) { layer, _ in layer.content = .image(.pixels(image), blur.levels.contentMode) }
        }
        return scene
    }

    /// The frame at `state`.
    public func frame(at state: DriverState) throws(ComposeError) -> Image {
        try scene(at: state).rendered(assets: assets, threads: threads, retained: retained, linear: linear)
    }
}

/// A blurred layer's place in the scene and its levels.
private struct BlurredLayer: Sendable {
    let path: [Int]
    let levels: BlurLevels
}
