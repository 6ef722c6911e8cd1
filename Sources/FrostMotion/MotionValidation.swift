import FrostCache
import FrostCompose
import FrostCore
import FrostCrossfade

// The rules of a motion scene, checked in one place: the JSON reader runs this on what it read,
// `MotionRenderer` on every motion it is given, so a motion built in Swift meets the same rules
// with the same messages and JSON paths as one read from a file (docs/scenes.md, "Motion").

extension MotionScene {
    /// Throws the first broken rule, named by its JSON path (`layers[0].animate.shadow.radius:
    /// the layer has no shadow to animate (give it "shadow")`): the scene's limits, the timeline's,
    /// each motion's layer, properties, keys, easing and blur.
    public func validate() throws(ComposeError) {
        try scene.validate()
        if let timeline { try timeline.validate(path: "timeline") }
        var byPath: [[Int]: (key: LayerKey, motion: LayerMotion)] = [:]
        for (key, motion) in motions.sorted(by: { $0.key.description < $1.key.description }) {
            guard let path = key.path(in: scene) else {
                if case .id(let id) = key { throw ComposeError("layers", "no layer has the id '\(id)'") }
                throw ComposeError(key.description, "no such layer (a motion names a layer by its id or its place: [i] is layers[i], [i, j] layers[i].layers[j])")
            }
            if let other = byPath[path] {
                throw ComposeError(Self.jsonPath(path), "moved twice, as \(other.key) and as \(key): give its motions under one key")
            }
            byPath[path] = (key, motion)
        }
        let motions = byPath.mapValues(\.motion)
        for (path, motion) in motions.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let name = Self.jsonPath(path)
            let layer = scene.layer(at: path)!.layer
            if let outer = (1..<max(path.count, 1)).map({ Array(path.prefix($0)) }).first(where: { motions[$0]?.blur != nil }) {
                let group = Self.jsonPath(outer)
                if motion.blur != nil {
                    throw ComposeError("\(name).blur", "a layer inside a blurred group cannot have its own blur (\(group) is blurred as a whole)")
                }
                if !motion.animations.isEmpty {
                    throw ComposeError("\(name).animate", "a layer inside a blurred group cannot move (\(group) is blurred once, as a whole)")
                }
            }
            if let blur = motion.blur {
                guard [.image, .group].contains(LayerKind(layer.content)) else {
                    throw ComposeError("\(name).blur", "only image and group layers can be blurred")
                }
                try blur.validate(path: "\(name).blur")
            }
            for animation in motion.animations {
                let here = "\(name).animate.\(animation.property.rawValue)"
                try animation.property.check(on: layer, blur: motion.blur, path: here)
                try animation.validate(path: here)
            }
        }
    }
}

/// The kinds of layer content, for the checks that depend on it.
enum LayerKind {
    case color, image, gradient, texture, text, group, backdrop
    init(_ content: LayerContent) {
        switch content {
        case .color: self = .color
        case .image: self = .image
        case .gradient: self = .gradient
        case .texture: self = .texture
        case .text: self = .text
        case .group: self = .group
        case .backdrop: self = .backdrop
        }
    }
}

extension AnimatedProperty {
    /// Rejects a property the layer does not have.
    func check(on layer: Layer, blur: LayerBlur?, path: String) throws(ComposeError) {
        switch self {
        case .shadowOffset, .shadowOffsetX, .shadowOffsetY, .shadowOpacity, .shadowRadius:
            if layer.shadow == nil { throw ComposeError(path, "the layer has no shadow to animate (give it \"shadow\")") }
        case .color:
            if ![.color, .text].contains(LayerKind(layer.content)) { throw ComposeError(path, "only color and text layers have a color") }
        case .blurProgress:
            if blur == nil { throw ComposeError(path, "the layer has no blur (give it \"blur\")") }
        default:
            break
        }
    }

    /// Rejects a value of the wrong length or beyond the coordinates a scene may hold.
    func check(_ values: [Double], path: String) throws(ComposeError) {
        guard values.count == arity else {
            let what = self == .color ? "a COLOR or 3 or 4 numbers from 0 to 1" : arity == 1 ? "a number" : "\(arity) numbers"
            throw ComposeError(path, "expected \(what)")
        }
        try SceneCheck.coordinates(values, path)
    }
}

extension PropertyAnimation {
    /// Keys: at least one, driver values within the scene's coordinates and strictly ascending,
    /// values of the property's length, easings that are curves; or a factor and an offset.
    func validate(path: String) throws(ComposeError) {
        switch curve {
        case .linear(let factor, let offset):
            guard property != .color else { throw ComposeError("\(path).factor", "a color follows keys, not a factor") }
            try property.check(factor, path: "\(path).factor")
            try property.check(offset, path: "\(path).offset")
        case .keyframes(let keyframes):
            guard !keyframes.keys.isEmpty else { throw ComposeError("\(path).keys", "expected at least one key") }
            for (i, key) in keyframes.keys.enumerated() {
                let here = "\(path).keys[\(i)]"
                try SceneCheck.coordinates([key.at], "\(here)[0]", what: "a driver value")
                if i > 0, key.at <= keyframes.keys[i - 1].at {
                    let format = { (x: Double) in x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
                    throw ComposeError(here, "keys must ascend in driver value (\(format(key.at)) comes after \(format(keyframes.keys[i - 1].at)))")
                }
                try property.check(key.value, path: "\(here)[1]")
                try key.easing?.validate(path: "\(here)[2]")
            }
            try keyframes.easing.validate(path: "\(path).ease")
        }
    }
}

extension Easing {
    func validate(path: String) throws(ComposeError) {
        switch self {
        case .linear, .step:
            break
        case .cubicBezier(let curve):
            guard (0...1).contains(curve.x1), (0...1).contains(curve.x2) else {
                throw ComposeError(path, "cubic-bezier's x1 and x2 must lie in [0, 1]")
            }
            guard curve.y1.isFinite, curve.y2.isFinite else { throw ComposeError(path, "cubic-bezier takes four numbers") }
        case .spring(let spring):
            guard spring.omega > 0, spring.omega.isFinite, (0...100).contains(spring.dampingRatio), abs(spring.velocity) <= 1000 else {
                throw ComposeError("\(path).spring", "expected a frequency ω₀ above 0 (a response or duration above 0), a damping from 0 to 100 and a velocity from -1000 to 1000")
            }
        }
    }
}

extension Timeline {
    /// At most 100000 frames, from and to within the scene's coordinates, a duration of at most an
    /// hour, at most 1000 frames per second.
    func validate(path: String) throws(ComposeError) {
        /// A time's or a trace's rate: at most 1000 frames per second and 100000 frames over `duration`.
        func check(fps: Double, over duration: Double) throws(ComposeError) {
            guard fps > 0, fps <= 1000, duration * fps <= 100_000 else {
                throw ComposeError("\(path).fps", "expected frames per second above 0 and at most 1000, and at most 100000 frames in all")
            }
        }
        switch self {
        case .scroll(let from, let to, let frames):
            try SceneCheck.coordinates([from], "\(path).from", what: "points")
            try SceneCheck.coordinates([to], "\(path).to", what: "points")
            guard (1...100_000).contains(frames) else { throw ComposeError("\(path).frames", "expected a whole number from 1 to 100000") }
        case .time(let duration, let fps):
            guard duration >= 0, duration <= 3600 else { throw ComposeError("\(path).duration", "expected seconds from 0 to 3600") }
            try check(fps: fps, over: duration)
        case .tilt(let trace, let fps):
            try check(fps: fps, over: trace.duration)
        }
    }
}

extension LayerBlur {
    /// The blur specification's limits (`BlurCacheSpec.validate`), a mode frames can be drawn in
    /// without a live blur, and a progress from 0 to 1.
    func validate(path: String) throws(ComposeError) {
        if cache == nil {
            do {
                try spec.validate()
            } catch {
                throw ComposeError(error.key.isEmpty ? path : "\(path).\(error.key)", error.message)
            }
        }
        guard mode != .exact else { throw ComposeError("\(path).mode", "expected blend, nearest or alpha") }
        guard (0...1).contains(progress) else { throw ComposeError("\(path).progress", "expected a number from 0 to 1") }
    }
}
