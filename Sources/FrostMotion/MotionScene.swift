import FrostCache
import FrostCompose
import FrostCore
import FrostCrossfade

/// A scene whose layers move with a scroll offset or a time: an ordinary scene (its values are
/// the layers' resting state), a timeline, and per layer the animated properties and a blur whose
/// levels are a pre-rendered cache (JSON form and rules: docs/scenes.md, "Motion").
public struct MotionScene: Sendable {
    /// The layers at rest: what a frame shows where nothing animates.
    public var scene: Scene
    /// The frames `frost animate` renders; nil for a scene seen only as stills.
    public var timeline: Timeline?
    /// What moves, by layer: its id (`"header"`) or its place (`[0]` is `layers[0]`, `[2, 1]` is
    /// `layers[2].layers[1]`).
    public var motions: [LayerKey: LayerMotion]

    /// A motion scene; `validate()` checks it (the renderer does).
    public init(scene: Scene, timeline: Timeline? = nil, motions: [LayerKey: LayerMotion] = [:]) {
        self.scene = scene
        self.timeline = timeline
        self.motions = motions
    }

    /// The driver keys follow unless they name their own.
    public var defaultDriver: Driver { timeline?.driver ?? .scroll }

    /// The scene as seen at `state`: every animated property set to its value there. Blurred
    /// layers keep their content; the renderer swaps in their cache's frame.
    public func resolved(at state: DriverState) -> Scene {
        var out = scene
        for (path, motion) in motionsByPath where !motion.animations.isEmpty {
            out.updateLayer(at: path) { layer, parent in
                for animation in motion.animations {
                    animation.property.apply(value(of: animation, at: state), to: &layer, parent: parent)
                }
            }
        }
        return out
    }

    /// The blur progress of the layer at `path` at `state` (its `blur.progress` keys, else its fixed progress).
    public func blurProgress(at path: [Int], _ state: DriverState) -> Double {
        guard let motion = motionsByPath[path], let blur = motion.blur else { return 0 }
        guard let animation = motion.animations.first(where: { $0.property == .blurProgress }) else { return blur.progress }
        return min(max(value(of: animation, at: state)[0], 0), 1)
    }

    /// An animation's value at `state`, read off the driver it follows.
    private func value(of animation: PropertyAnimation, at state: DriverState) -> [Double] {
        animation.curve.value(at: state[animation.driver ?? defaultDriver])
    }

    /// The motions by layer path, ids looked up (a key naming no layer is left out:
    /// `validate()` reports it).
    public var motionsByPath: [[Int]: LayerMotion] {
        var out: [[Int]: LayerMotion] = [:]
        for (key, motion) in motions {
            if let path = key.path(in: scene) { out[path] = motion }
        }
        return out
    }

    /// The layers whose look never changes (nothing in them animates but where they are, how
    /// large they are scaled, how opaque they are and their shadow) and that are not inside another
    /// such group, by id (`#header`) or JSON path: their rasters are drawn once and reused
    /// (`RetainedLayers`).
    public var staticLayerKeys: Set<String> {
        let motions = motionsByPath
        var keys: Set<String> = []
        func walk(_ layers: [Layer], _ prefix: [Int]) {
            for (i, layer) in layers.enumerated() {
                let path = prefix + [i]
                if isStatic(layer, path, motions) {
                    keys.insert(RetainedLayers.key(for: layer, path: Self.jsonPath(path)))
                } else if case .group(let children) = layer.content, motions[path]?.blur == nil {
                    walk(children, path)
                }
            }
        }
        walk(scene.layers, [])
        return keys
    }

    private func isStatic(_ layer: Layer, _ path: [Int], _ motions: [[Int]: LayerMotion]) -> Bool {
        if case .backdrop = layer.content { return false }
        if let motion = motions[path], motion.blur != nil || motion.animations.contains(where: { $0.property.changesContent }) {
            return false
        }
        guard case .group = layer.content else { return true }
        // A group's raster holds its children as they are: nothing inside may move.
        return !motions.keys.contains { $0.count > path.count && Array($0.prefix(path.count)) == path }
    }

    /// `layers[2].layers[1]` for [2, 1]: how the renderer and error messages name a layer.
    public static func jsonPath(_ path: [Int]) -> String {
        "layers" + path.map { "[\($0)]" }.joined(separator: ".layers")
    }
}

/// How a motion names its layer: by the layer's `id`, or by its place in the tree (`[0]` is
/// `layers[0]`, `[2, 1]` is `layers[2].layers[1]`). Written as a string or an array literal.
public enum LayerKey: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The layer whose `id` this is.
    case id(String)
    /// The layer at this place: `[2, 1]` is `layers[2].layers[1]`.
    case path([Int])

    public init(stringLiteral id: String) { self = .id(id) }
    public init(arrayLiteral place: Int...) { self = .path(place) }

    /// The layer's place in `scene`, or nil when it names none.
    public func path(in scene: Scene) -> [Int]? {
        switch self {
        case .id(let id): scene.path(ofLayer: id)
        case .path(let path): scene.layer(at: path) == nil ? nil : path
        }
    }

    /// `"header"` or `layers[2].layers[1]`.
    public var description: String {
        switch self {
        case .id(let id): "\"\(id)\""
        case .path(let path): MotionScene.jsonPath(path)
        }
    }
}

/// What moves in one layer.
public struct LayerMotion: Sendable, Equatable {
    /// The layer's animated properties.
    public var animations: [PropertyAnimation]
    /// Its content shown through a blur cache's frames.
    public var blur: LayerBlur?
    /// A layer's animations and blur.
    public init(animations: [PropertyAnimation] = [], blur: LayerBlur? = nil) {
        self.animations = animations
        self.blur = blur
    }
}

/// One animated property: how its value follows a driver (nil: the timeline's), by keyframes or
/// linearly.
public struct PropertyAnimation: Sendable, Equatable {
    /// How an animated value follows its driver.
    public enum Curve: Sendable, Equatable {
        /// Values at driver values, eased between.
        case keyframes(Keyframes)
        /// offset + factor × the driver's value, per component, unbounded (the App Store seed's
        /// shadow: roll × 10 points), clamped only to the coordinates a scene may hold.
        case linear(factor: [Double], offset: [Double])

        /// The value at driver value `d`.
        public func value(at d: Double) -> [Double] {
            switch self {
            case .keyframes(let keyframes): return keyframes.value(at: d)
            case .linear(let factor, let offset):
                let limit = Scene.maximumCoordinate
                return zip(factor, offset).map { min(max($1 + $0 * d, -limit), limit) }
            }
        }
    }

    /// The property it sets.
    public let property: AnimatedProperty
    /// The driver it follows; nil follows the timeline's.
    public let driver: Driver?
    /// Keyframes or a linear function of the driver.
    public let curve: Curve

    /// A property that follows `driver` by `keyframes`.
    public init(_ property: AnimatedProperty, driver: Driver? = nil, keyframes: Keyframes) {
        (self.property, self.driver, self.curve) = (property, driver, .keyframes(keyframes))
    }

    /// A property that follows `driver` linearly: `factor` and `offset` hold `property.arity` numbers.
    public init(_ property: AnimatedProperty, driver: Driver? = nil, factor: [Double], offset: [Double]) {
        (self.property, self.driver, self.curve) = (property, driver, .linear(factor: factor, offset: offset))
    }

    /// The keyframes, for an animation that has them.
    public var keyframes: Keyframes? {
        if case .keyframes(let keyframes) = curve { keyframes } else { nil }
    }
}

/// A layer blurred through a cache of pre-rendered levels (never live): built once per render
/// from the layer's content by `spec` (σ and radii in points at the scene's scale), or loaded
/// from a folder `frost cache` made.
public struct LayerBlur: Sendable, Equatable {
    /// The levels built from the layer; unused with a `cache` folder.
    public var spec: BlurCacheSpec
    /// How frames between levels are drawn (`exact` is not for scenes: it blurs live).
    public var mode: FadeMode
    /// A cache folder made by `frost cache`, relative to the scene file.
    public var cache: String?
    /// The progress when `blur.progress` is not animated.
    public var progress: Double

    /// A blur built from the layer by `spec` (or read from `cache`), shown at `progress` in `mode`.
    public init(spec: BlurCacheSpec = BlurCacheSpec(), mode: FadeMode = .blend, cache: String? = nil, progress: Double = 0) {
        self.spec = spec
        self.mode = mode
        self.cache = cache
        self.progress = progress
    }
}

extension Scene {
    /// Changes the layer at `path` in place; `body` also gets the size (points) of its parent.
    mutating func updateLayer(at path: [Int], _ body: (inout Layer, (width: Double, height: Double)) -> Void) {
        func update(_ layers: inout [Layer], _ rest: ArraySlice<Int>, parent: (width: Double, height: Double)) {
            guard let i = rest.first, layers.indices.contains(i) else { return }   // no such layer (validate reports it)
            if rest.count == 1 { return body(&layers[i], parent) }
            let frame = layers[i].frame
            guard case .group(var children) = layers[i].content else { return }
            update(&children, rest.dropFirst(), parent: (frame?.width ?? parent.width, frame?.height ?? parent.height))
            layers[i].content = .group(children)
        }
        update(&layers, path[...], parent: (width, height))
    }

    /// The layer at `path` and its parent's size in points, or nil when the path names none.
    func layer(at path: [Int]) -> (layer: Layer, parent: (width: Double, height: Double))? {
        guard let last = path.last else { return nil }
        var layers = self.layers, parent = (width: width, height: height)
        for i in path.dropLast() {
            guard layers.indices.contains(i), case .group(let children) = layers[i].content else { return nil }
            if let frame = layers[i].frame { parent = (frame.width, frame.height) }
            layers = children
        }
        return layers.indices.contains(last) ? (layers[last], parent) : nil
    }
}
