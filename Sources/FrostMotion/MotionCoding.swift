import Foundation
import FrostCache
import FrostCodecs
import FrostCompose
import FrostCore
import FrostCrossfade
import FrostFiles

// The JSON form of a motion scene: an ordinary scene (read by FrostCompose, which lets the keys
// below through) plus `timeline` at the top and `animate` and `blur` on layers, read here with the
// same strictness: an unknown key or a wrong type is an error naming its JSON path; the values are
// then checked by `MotionScene.validate` (MotionValidation.swift), as a motion built in Swift is,
// e.g. `layers[0].animate.opacity.keys[2]: keys must ascend (0.5 comes after 1)`.

extension MotionScene {
    /// The keys this module adds to the scene format.
    public static let extensionKeys = SceneExtensionKeys(scene: ["timeline"], layer: ["animate", "blur"])

    /// Parses a scene with or without motion from JSON bytes. A tilt timeline's trace file is read
    /// relative to `directory` (the scene file's folder) with `options`' limits and assets folder;
    /// without a directory only a trace written inline is accepted.
    public init(json: [UInt8], directory: String? = nil, options: DecodeOptions = DecodeOptions()) throws(ComposeError) {
        let scene = try Scene(json: json, extensionKeys: Self.extensionKeys)
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(json))
        } catch {
            throw ComposeError("", ComposeError.syntaxProblem(json))
        }
        let object = try root.object("scene")
        self.init(scene: scene)
        if let timeline = object["timeline"] {
            self.timeline = try Timeline(json: timeline, path: "timeline", directory: directory, options: options)
        }
        try readMotions(object["layers"]?.array("layers") ?? [], prefix: [])
        try validate()
    }

    private mutating func readMotions(_ layers: [JSONValue], prefix: [Int]) throws(ComposeError) {
        for (i, value) in layers.enumerated() {
            let path = prefix + [i], name = Self.jsonPath(path)
            let object = try value.object(name)
            var motion = LayerMotion()
            if let blur = object["blur"] {
                motion.blur = try LayerBlur(json: blur, path: "\(name).blur")
            }
            if let animate = object["animate"] {
                for (key, keyframes) in try animate.object("\(name).animate").sorted(by: { $0.key < $1.key }) {
                    let here = "\(name).animate.\(key)"
                    guard let property = AnimatedProperty(rawValue: key) else {
                        throw ComposeError(here, "unknown property (animatable: \(AnimatedProperty.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    motion.animations.append(try PropertyAnimation(json: keyframes, property: property, path: here))
                }
            }
            // A layer with an id is followed by it, wherever it sits.
            let key = scene.layer(at: path)?.layer.id.map(LayerKey.id) ?? .path(path)
            if !motion.animations.isEmpty || motion.blur != nil { motions[key] = motion }
            if let children = object["layers"], case .group = scene.layer(at: path)?.layer.content {
                try readMotions(try children.array("\(name).layers"), prefix: path)
            }
        }
    }
}

extension Timeline {
    init(json: JSONValue, path: String, directory: String?, options: DecodeOptions) throws(ComposeError) {
        let o = try json.object(path)
        let driver = try o.required("driver", path).string("\(path).driver")
        switch Kind(rawValue: driver) {
        case .scroll:
            try o.allowOnly(["driver", "from", "to", "frames"], path)
            let frames = try o.required("frames", path).whole("\(path).frames")
            self = .scroll(from: try o.required("from", path).number("\(path).from"), to: try o.required("to", path).number("\(path).to"),
                           frames: frames)
        case .time:
            try o.allowOnly(["driver", "duration", "fps"], path)
            self = .time(duration: try o.required("duration", path).number("\(path).duration"), fps: try o["fps"]?.number("\(path).fps") ?? 60)
        case .tilt:
            try o.allowOnly(["driver", "trace", "fps"], path)
            let trace = try TiltTrace(json: try o.required("trace", path), path: "\(path).trace", directory: directory, options: options)
            self = .tilt(trace: trace, fps: try o["fps"]?.number("\(path).fps") ?? 60)
        case nil:
            throw ComposeError("\(path).driver", "expected scroll, time or tilt")
        }
    }

    /// The timeline drivers: scroll and time, and tilt (a trace of pitch and roll).
    private enum Kind: String { case scroll, time, tilt }
}

extension TiltTrace {
    /// `"trace": "FILE.csv"` (relative to the scene's folder) or `"trace": [[t, pitch, roll], …]`.
    init(json: JSONValue, path: String, directory: String?, options: DecodeOptions) throws(ComposeError) {
        if case .string(let file) = json {
            guard let directory else { throw ComposeError(path, "a trace file is read relative to a scene file; give the rows inline") }
            let bytes: [UInt8]
            do {
                bytes = try FileIO.read(try options.assetPath(file, relativeTo: directory), maxBytes: min(options.maxFileBytes, 64 << 20))
            } catch {
                throw ComposeError(path, "\(file): \((error as? CodecError)?.message ?? "\(error)")")
            }
            do {
                try self.init(csv: bytes)
            } catch {
                throw ComposeError(path, "\(file) \(error.description)")
            }
            return
        }
        let rows = try json.array(path)
        var samples: [Sample] = []
        for (i, row) in rows.enumerated() {
            let cells = try row.array("\(path)[\(i)]")
            guard cells.count == 3 else { throw ComposeError("\(path)[\(i)]", "expected [t, pitch, roll]") }
            let sample = Sample(time: try cells[0].number("\(path)[\(i)][0]"), pitch: try cells[1].number("\(path)[\(i)][1]"),
                                roll: try cells[2].number("\(path)[\(i)][2]"))
            if let problem = Self.problem(sample, after: samples.last) { throw ComposeError("\(path)[\(i)]", problem) }
            samples.append(sample)
        }
        do {
            try self.init(checked: samples)
        } catch {
            throw ComposeError(path, error.message)
        }
    }
}

extension PropertyAnimation {
    init(json: JSONValue, property: AnimatedProperty, path: String) throws(ComposeError) {
        let o = try json.object(path)
        try o.allowOnly(["keys", "ease", "by", "factor", "offset"], path)
        var driver: Driver?
        if let by = o["by"] {
            guard let d = Driver(rawValue: try by.string("\(path).by")) else {
                throw ComposeError("\(path).by", "expected scroll, time, pitch or roll")
            }
            driver = d
        }
        if let factor = o["factor"] {
            // value = offset + factor × driver value, per component: no keys, no ease.
            guard o["keys"] == nil, o["ease"] == nil else { throw ComposeError(path, "give keys (with ease) or factor (with offset), not both") }
            guard property != .color else { throw ComposeError("\(path).factor", "a color follows keys, not a factor") }
            let offset = try o["offset"].map { v throws(ComposeError) in try property.value(v, path: "\(path).offset") }
            self.init(property, driver: driver, factor: try property.value(factor, path: "\(path).factor", broadcast: true),
                      offset: offset ?? Array(repeating: 0, count: property.arity))
            return
        }
        if o["offset"] != nil { throw ComposeError("\(path).offset", "an offset goes with a factor") }
        let list = try o.required("keys", path).array("\(path).keys")
        guard !list.isEmpty else { throw ComposeError("\(path).keys", "expected at least one key") }
        var keys: [Keyframes.Key] = []
        for (i, item) in list.enumerated() {
            let here = "\(path).keys[\(i)]"
            let pair = try item.array(here)
            guard pair.count == 2 || pair.count == 3 else { throw ComposeError(here, "expected [driver value, value] or [driver value, value, ease]") }
            let at = try pair[0].number("\(here)[0]")
            let ease = pair.count == 3 ? try Easing(json: pair[2], path: "\(here)[2]") : nil
            keys.append(Keyframes.Key(at, try property.value(pair[1], path: "\(here)[1]"), easing: ease))
        }
        self.init(property, driver: driver, keyframes: Keyframes(keys, easing: try o["ease"].map { v throws(ComposeError) in try Easing(json: v, path: "\(path).ease") } ?? .linear))
    }
}

extension AnimatedProperty {
    /// A key's value: numbers (one may be written bare), or a color string; a color's 3 numbers
    /// gain an alpha of 1. With `broadcast`, one number stands for every component (a factor).
    /// Their count and range are checked by `MotionScene.validate`.
    func value(_ json: JSONValue, path: String, broadcast: Bool = false) throws(ComposeError) -> [Double] {
        if self == .color, case .string = json {
            let c = try json.color(path)
            return [c.red, c.green, c.blue, c.alpha]
        }
        let values: [Double]
        if case .number(let x) = json {
            values = [x]
        } else if case .array(let items) = json {
            var numbers: [Double] = []
            for (i, item) in items.enumerated() { numbers.append(try item.number("\(path)[\(i)]")) }
            values = numbers
        } else {
            values = []
        }
        if self == .color && values.count == 3 { return values + [1] }
        if broadcast, values.count == 1 { return Array(repeating: values[0], count: arity) }
        return values
    }
}

extension Easing {
    /// `linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, `step`, `cubic-bezier(x1, y1, x2, y2)`,
    /// `{ "spring": { "response", "dampingFraction" } }` or `{ "spring": { "duration", "dampingRatio", "velocity" } }`.
    init(json: JSONValue, path: String) throws(ComposeError) {
        if case .string(let text) = json {
            let name = text.trimmingCharacters(in: .whitespaces)
            switch name {
            case "linear": self = .linear
            case "ease": self = .cubicBezier(.ease)
            case "ease-in": self = .cubicBezier(.easeIn)
            case "ease-out": self = .cubicBezier(.easeOut)
            case "ease-in-out": self = .cubicBezier(.easeInOut)
            case "step": self = .step
            default:
                guard name.hasPrefix("cubic-bezier("), name.hasSuffix(")") else {
                    throw ComposeError(path, "expected linear, ease, ease-in, ease-out, ease-in-out, step, cubic-bezier(x1, y1, x2, y2) or { \"spring\": … }")
                }
                let numbers = name.dropFirst(13).dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else {
                    throw ComposeError(path, "cubic-bezier takes four numbers")
                }
                self = .cubicBezier(CubicBezier(numbers[0], numbers[1], numbers[2], numbers[3]))
            }
            return
        }
        let o = try json.object(path)
        try o.allowOnly(["spring"], path)
        let here = "\(path).spring"
        let s = try o.required("spring", path).object(here)
        let parameters = "expected response and dampingFraction (SwiftUI), or duration and dampingRatio with an optional velocity (UIKit)"
        func positive(_ key: String) throws(ComposeError) -> Double {
            let v = try s[key]!.number("\(here).\(key)")
            guard v > 0, v <= 1000 else { throw ComposeError("\(here).\(key)", "expected a number above 0 and at most 1000") }
            return v
        }
        func damping(_ key: String) throws(ComposeError) -> Double {
            let v = try s[key]!.number("\(here).\(key)")
            guard v >= 0, v <= 100 else { throw ComposeError("\(here).\(key)", "expected a damping from 0 to 100") }
            return v
        }
        func velocity() throws(ComposeError) -> Double {
            let v = try s["velocity"]?.number("\(here).velocity") ?? 0
            guard abs(v) <= 1000 else { throw ComposeError("\(here).velocity", "expected a number from -1000 to 1000") }
            return v
        }
        if s["response"] != nil || s["dampingFraction"] != nil {
            try s.allowOnly(["response", "dampingFraction"], here)
            guard s["response"] != nil, s["dampingFraction"] != nil else { throw ComposeError(here, parameters) }
            self = .spring(Spring(response: try positive("response"), dampingFraction: try damping("dampingFraction")))
        } else if s["duration"] != nil || s["dampingRatio"] != nil {
            try s.allowOnly(["duration", "dampingRatio", "velocity"], here)
            guard s["duration"] != nil, s["dampingRatio"] != nil else { throw ComposeError(here, parameters) }
            self = .spring(Spring(duration: try positive("duration"), dampingRatio: try damping("dampingRatio"),
                                  velocity: try velocity()))
        } else {
            throw ComposeError(here, parameters)
        }
    }
}

extension LayerBlur {
    init(json: JSONValue, path: String) throws(ComposeError) {
        let o = try json.object(path)
        try o.allowOnly(["levels", "max-sigma", "max-radius", "spacing", "tint", "saturation", "preset", "mode", "cache", "progress"], path)
        var spacing: CachePlan.Spacing?
        if let v = o["spacing"] {
            guard let s = CachePlan.Spacing(rawValue: try v.string("\(path).spacing")) else {
                throw ComposeError("\(path).spacing", "expected geometric or linear")
            }
            spacing = s
        }
        var preset: BlurCacheSpec.Preset?
        if let v = o["preset"] {
            guard let p = BlurCacheSpec.Preset(rawValue: try v.string("\(path).preset")) else { throw ComposeError("\(path).preset", "expected twitter or secret") }
            preset = p
        }
        var mode = FadeMode.blend
        if let v = o["mode"] {
            guard let m = FadeMode(rawValue: try v.string("\(path).mode")) else { throw ComposeError("\(path).mode", "expected blend, nearest or alpha") }
            mode = m
        }
        let spec = BlurCacheSpec(levels: try o["levels"]?.whole("\(path).levels") ?? BlurCacheSpec.defaultLevels,
                                 maxSigma: try o["max-sigma"]?.number("\(path).max-sigma"), maxRadius: try o["max-radius"]?.number("\(path).max-radius"),
                                 spacing: spacing, tint: try o["tint"]?.color("\(path).tint"),
                                 saturation: try o["saturation"]?.number("\(path).saturation") ?? 1, preset: preset)
        let levelKeys = ["levels", "max-sigma", "max-radius", "spacing", "tint", "saturation"]
        let chosen = [levelKeys.contains { o[$0] != nil }, o["preset"] != nil, o["cache"] != nil].filter { $0 }.count
        if chosen > 1 { throw ComposeError(path, "give levels and their parameters, a preset or a cache folder, one of the three") }
        self.init(spec: spec, mode: mode, cache: try o["cache"]?.string("\(path).cache"),
                  progress: try o["progress"]?.number("\(path).progress") ?? 0)
    }
}

/// Any JSON value, read to walk the motion keys with their paths.
enum JSONValue: Decodable, Sendable {
    case number(Double), string(String), bool(Bool), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let x = try? c.decode(Double.self) { self = .number(x) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    func object(_ path: String) throws(ComposeError) -> [String: JSONValue] {
        guard case .object(let o) = self else { throw ComposeError(path, "expected an object") }
        return o
    }

    func array(_ path: String) throws(ComposeError) -> [JSONValue] {
        guard case .array(let a) = self else { throw ComposeError(path, "expected an array") }
        return a
    }

    func number(_ path: String) throws(ComposeError) -> Double {
        guard case .number(let x) = self, x.isFinite else { throw ComposeError(path, "expected a number") }
        return x
    }

    /// A whole number (its range is the validator's to check).
    func whole(_ path: String) throws(ComposeError) -> Int {
        let x = try number(path)
        guard let n = Int(exactly: x) else { throw ComposeError(path, "expected a whole number") }
        return n
    }

    func string(_ path: String) throws(ComposeError) -> String {
        guard case .string(let s) = self else { throw ComposeError(path, "expected a string") }
        return s
    }

    /// A COLOR string.
    func color(_ path: String) throws(ComposeError) -> Color {
        do { return try Color(parsing: try string(path)) } catch let error as ColorParseError {
            throw ComposeError(path, error.description)
        } catch let error as ComposeError { throw error } catch { throw ComposeError(path, "\(error)") }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    func allowOnly(_ allowed: [String], _ path: String) throws(ComposeError) {
        for key in keys.sorted() where !allowed.contains(key) {
            throw ComposeError("\(path).\(key)", "unknown key (allowed here: \(allowed.joined(separator: ", ")))")
        }
    }

    func required(_ key: String, _ path: String) throws(ComposeError) -> JSONValue {
        guard let v = self[key] else { throw ComposeError("\(path).\(key)", "missing (this key is required)") }
        return v
    }
}
