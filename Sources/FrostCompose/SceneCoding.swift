import Foundation
import FrostCore
import FrostEffects

// The JSON form of a scene (schema in the README). Decoding is strict: unknown keys, wrong types
// and out-of-range values are errors that name their JSON path, e.g. `layers[3].frame: expected
// 4 numbers`. Colors are strings (#RRGGBB, #RRGGBBAA, white:W@A, palette names); encoding writes
// them as #RRGGBBAA, so a round trip keeps colors to 8 bits.

/// Keys a higher module adds to the scene format (FrostMotion's `timeline`, `animate` and `blur`):
/// the decoder here lets them through, unread, and stays strict about every other key.
public struct SceneExtensionKeys: Sendable {
    /// Keys allowed at the scene's top level.
    public var scene: [String]
    /// Keys allowed on every layer.
    public var layer: [String]
    /// The keys a module adds.
    public init(scene: [String] = [], layer: [String] = []) {
        self.scene = scene
        self.layer = layer
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "frost.sceneExtensionKeys")!

    static func of(_ decoder: any Decoder) -> SceneExtensionKeys {
        decoder.userInfo[userInfoKey] as? SceneExtensionKeys ?? SceneExtensionKeys()
    }
}

extension Scene {
    /// Parses a scene from JSON bytes; `extensionKeys` are allowed and left to their module.
    public init(json: [UInt8], extensionKeys: SceneExtensionKeys = SceneExtensionKeys()) throws(ComposeError) {
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[SceneExtensionKeys.userInfoKey] = extensionKeys
            self = try decoder.decode(Scene.self, from: Data(json))
        } catch let error as DecodingError {
            throw ComposeError(decoding: error, json: json)
        } catch let error as ComposeError {
            throw error
        } catch {
            throw ComposeError("", "not a scene: \(error)")
        }
    }

    /// The scene as JSON (layers built from in-memory pixels cannot be written).
    public func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(self))
    }
}

extension ComposeError {
    /// A DecodingError as `path: problem`; a syntax error as its line and column in `json`.
    init(decoding error: DecodingError, json: [UInt8]) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(Self.path(context.codingPath + [key]), "missing (this key is required)")
        case .typeMismatch(let type, let context):
            self.init(Self.path(context.codingPath), "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(Self.path(context.codingPath), "expected \(Self.describe(type)), found null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                self.init("", Self.syntaxProblem(json))
            } else {
                self.init(Self.path(context.codingPath), context.debugDescription)
            }
        @unknown default:
            self.init("", "\(error)")
        }
    }

    /// Where and why `json` is not JSON, as "not valid JSON at line L, column C: …" (JSONDecoder
    /// says neither; JSONSerialization gives the byte offset, or says the file ended early).
    package static func syntaxProblem(_ json: [UInt8]) -> String {
        let reason: String
        do {
            _ = try JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])
            return "not valid JSON"
        } catch {
            reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        let offset = reason.range(of: "character ").flatMap { Int(reason[$0.upperBound...].prefix(while: \.isNumber)) }
            ?? (reason.contains("end of file") ? json.count : nil)
        guard let offset else { return "not valid JSON: \(reason)" }
        let before = json.prefix(min(offset, json.count))
        let line = before.count { $0 == 0x0A } + 1
        let column = before.count - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let why = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        return "not valid JSON at line \(line), column \(column): \(why.prefix(1).lowercased() + why.dropFirst())"
    }

    /// `layers[3].frame` from a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        var out = ""
        for key in keys {
            if let index = key.intValue { out += "[\(index)]" } else { out += out.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return out.isEmpty ? "scene" : out
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type: return "a number"
        case is Int.Type, is UInt32.Type: return "a whole number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is [Any].Type, is [Double].Type, is [Layer].Type, is [GradientStop].Type: return "an array"
        default: return "an object"
        }
    }
}

/// Any JSON object key.
struct SceneKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

typealias SceneDecoding = KeyedDecodingContainer<SceneKey>
typealias SceneEncoding = KeyedEncodingContainer<SceneKey>

extension KeyedDecodingContainer where Key == SceneKey {
    /// Rejects keys outside `allowed`.
    func allowOnly(_ allowed: [String]) throws {
        for key in allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                debugDescription: "unknown key (allowed here: \(allowed.joined(separator: ", ")))")
        }
    }

    func fail(_ name: String, _ message: String) -> DecodingError {
        DecodingError.dataCorruptedError(forKey: SceneKey(name), in: self, debugDescription: message)
    }

    func required<T: Decodable>(_ name: String) throws -> T { try decode(T.self, forKey: SceneKey(name)) }

    func optional<T: Decodable>(_ name: String) throws -> T? { try decodeIfPresent(T.self, forKey: SceneKey(name)) }

    /// A number, or `value` when the key is absent (its range is checked by `Scene.validate`).
    func number(_ name: String, default value: Double? = nil) throws -> Double {
        try value.map { try optional(name) ?? $0 } ?? required(name)
    }

    /// Exactly `count` numbers (their range is checked by `Scene.validate`).
    func numbers(_ name: String, count: Int) throws -> [Double]? {
        guard contains(SceneKey(name)) else { return nil }
        guard let values = try? decode([Double].self, forKey: SceneKey(name)), values.count == count else {
            throw fail(name, "expected \(count) numbers")
        }
        return values
    }

    func color(_ name: String) throws -> Color? {
        guard let text: String = try optional(name) else { return nil }
        do { return try Color(parsing: text) } catch { throw fail(name, error.description) }
    }

    /// One of an enumeration's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String) throws -> T? where T.RawValue == String {
        guard let text: String = try optional(name) else { return nil }
        guard let value = T(rawValue: text) else {
            throw fail(name, "expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }
}

extension KeyedEncodingContainer where Key == SceneKey {
    mutating func put<T: Encodable>(_ value: T?, _ name: String) throws { try encodeIfPresent(value, forKey: SceneKey(name)) }
    mutating func put(_ color: Color?, _ name: String) throws { try encodeIfPresent(color.map(\.hex), forKey: SceneKey(name)) }
}

extension Color {
    /// #RRGGBBAA, rounded to 8 bits.
    var hex: String {
        "#" + [red, green, blue, alpha].map { v in
            let byte = Int(min(max(v * 255, 0), 255).rounded())
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }
}

extension Scene: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        try c.allowOnly(["width", "height", "scale", "background", "layers"] + SceneExtensionKeys.of(decoder).scene)
        self.init(width: try c.number("width"), height: try c.number("height"), scale: try c.number("scale", default: 1),
                  background: try c.color("background") ?? .clear, layers: try c.optional("layers") ?? [])
        // Types and keys are known good; the values meet the limits every scene meets.
        try validate()
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.put(width, "width"); try c.put(height, "height"); try c.put(scale, "scale")
        try c.put(background, "background"); try c.put(layers, "layers")
    }
}

extension Layer: Codable {
    private static let common = ["id", "type", "frame", "opacity", "blend", "cornerRadius", "border", "transform", "shadow", "mask"]
    private static let keysByType: [String: [String]] = [
        "color": ["color"], "image": ["file", "contentMode"], "gradient": ["start", "end", "stops"],
        "texture": ["pattern", "file", "spacing", "seed"], "text": ["text", "font", "size", "color", "align", "wrap", "lineHeight"],
        "group": ["layers"], "backdrop": ["effect", "radius", "tint", "saturation"],
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        let type: String = try c.required("type")
        guard let specific = Self.keysByType[type] else {
            throw c.fail("type", "expected one of \(Self.keysByType.keys.sorted().joined(separator: ", "))")
        }
        try c.allowOnly(Self.common + specific + SceneExtensionKeys.of(decoder).layer)
        let content: LayerContent
        switch type {
        case "color":
            guard let color = try c.color("color") else { throw DecodingError.keyNotFound(SceneKey("color"), .init(codingPath: c.codingPath, debugDescription: "")) }
            content = .color(color)
        case "image":
            content = .image(.file(try c.required("file")), try c.choice("contentMode") ?? .fill)
        case "gradient":
            content = .gradient(try Gradient(from: c))
        case "texture":
            if let file: String = try c.optional("file") {
                content = .texture(.tiled(.file(file)))
            } else {
                guard let pattern: TexturePattern = try c.choice("pattern") else { throw c.fail("pattern", "a texture needs \"pattern\" or \"file\"") }
                content = .texture(.pattern(pattern, spacing: try c.number("spacing", default: 4),
                                            seed: try c.optional("seed") ?? 1))
            }
        case "text":
            content = .text(TextContent(try c.required("text"), font: try c.optional("font"), size: try c.number("size", default: 17),
                                        color: try c.color("color") ?? .black, alignment: try c.choice("align") ?? .left,
                                        wraps: try c.optional("wrap") ?? true, lineHeight: try c.optional("lineHeight")))
        case "group":
            content = .group(try c.required("layers"))
        default:
            if let name: String = try c.optional("effect") {
                guard let preset = EffectParameters(preset: name) else { throw c.fail("effect", "expected light, extra-light, dark or tint:COLOR") }
                content = .backdrop(preset)
            } else {
                content = .backdrop(EffectParameters(radius: try c.number("radius"), tint: try c.color("tint"),
                                                     saturation: try c.number("saturation", default: 1)))
            }
        }
        self.init(content, id: try c.optional("id"))
        if let f = try c.numbers("frame", count: 4) { frame = Rect(x: f[0], y: f[1], width: f[2], height: f[3]) }
        opacity = try c.number("opacity", default: 1)
        blendMode = try c.choice("blend") ?? .normal
        cornerRadius = try c.number("cornerRadius", default: 0)
        border = try c.optional("border")
        transform = try c.optional("transform") ?? Transform()
        shadow = try c.optional("shadow")
        mask = try c.optional("mask")
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.put(id, "id")
        switch content {
        case .color(let color):
            try c.put("color", "type"); try c.put(color, "color")
        case .image(let source, let mode):
            try c.put("image", "type"); try c.put(try source.path(), "file"); try c.put(mode.rawValue, "contentMode")
        case .gradient(let gradient):
            try c.put("gradient", "type"); try gradient.encode(into: &c)
        case .texture(.tiled(let source)):
            try c.put("texture", "type"); try c.put(try source.path(), "file")
        case .texture(.pattern(let pattern, let spacing, let seed)):
            try c.put("texture", "type"); try c.put(pattern.rawValue, "pattern"); try c.put(spacing, "spacing"); try c.put(seed, "seed")
        case .text(let text):
            try c.put("text", "type"); try c.put(text.text, "text"); try c.put(text.font, "font"); try c.put(text.size, "size")
            try c.put(text.color, "color"); try c.put(text.alignment.rawValue, "align"); try c.put(text.wraps, "wrap")
            try c.put(text.lineHeight, "lineHeight")
        case .group(let layers):
            try c.put("group", "type"); try c.put(layers, "layers")
        case .backdrop(let effect):
            try c.put("backdrop", "type"); try c.put(effect.radius, "radius"); try c.put(effect.tint, "tint")
            try c.put(effect.saturation, "saturation")
        }
        try c.put(frame.map { [$0.x, $0.y, $0.width, $0.height] }, "frame")
        try c.put(opacity, "opacity"); try c.put(blendMode.rawValue, "blend"); try c.put(cornerRadius, "cornerRadius")
        try c.put(border, "border"); try c.put(transform, "transform"); try c.put(shadow, "shadow"); try c.put(mask, "mask")
    }
}

extension ImageSource {
    func path() throws -> String {
        guard case .file(let file) = self else {
            throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "in-memory pixels have no JSON form"))
        }
        return file
    }
}

extension Gradient {
    init(from c: SceneDecoding) throws {
        let start = try c.numbers("start", count: 2) ?? [0.5, 0], end = try c.numbers("end", count: 2) ?? [0.5, 1]
        self.init(startX: start[0], startY: start[1], endX: end[0], endY: end[1], stops: try c.required("stops"))
    }

    func encode(into c: inout SceneEncoding) throws {
        try c.put([startX, startY], "start"); try c.put([endX, endY], "end"); try c.put(stops, "stops")
    }
}

extension GradientStop: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        try c.allowOnly(["at", "color"])
        guard let color = try c.color("color") else { throw c.fail("color", "missing (this key is required)") }
        self.init(try c.number("at"), color)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.put(location, "at"); try c.put(color, "color")
    }
}

extension Border: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        try c.allowOnly(["width", "color"])
        self.init(width: try c.number("width"), color: try c.color("color") ?? .black)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.put(width, "width"); try c.put(color, "color")
    }
}

extension Transform: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        try c.allowOnly(["scale", "translate"])
        let t = try c.numbers("translate", count: 2) ?? [0, 0]
        self.init(scale: try c.number("scale", default: 1), translateX: t[0], translateY: t[1])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.put(scale, "scale"); try c.put([translateX, translateY], "translate")
    }
}

extension Shadow: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        try c.allowOnly(["color", "opacity", "radius", "offset"])
        let offset = try c.numbers("offset", count: 2) ?? [0, 0]
        self.init(color: try c.color("color") ?? .black, opacity: try c.number("opacity", default: 1),
                  radius: try c.number("radius", default: 3), offsetX: offset[0], offsetY: offset[1])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.put(color, "color"); try c.put(opacity, "opacity"); try c.put(radius, "radius"); try c.put([offsetX, offsetY], "offset")
    }
}

extension Mask: Codable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        try c.allowOnly(["file", "channel", "gradient"])
        if let file: String = try c.optional("file") {
            self = .image(.file(file), try c.choice("channel") ?? .alpha)
        } else if c.contains(SceneKey("gradient")) {
            let g = try c.nestedContainer(keyedBy: SceneKey.self, forKey: SceneKey("gradient"))
            try g.allowOnly(["start", "end", "stops"])
            self = .gradient(try Gradient(from: g))
        } else {
            throw c.fail("file", "a mask needs \"file\" or \"gradient\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        switch self {
        case .image(let source, let channel):
            try c.put(try source.path(), "file"); try c.put(channel.rawValue, "channel")
        case .gradient(let gradient):
            var g = c.nestedContainer(keyedBy: SceneKey.self, forKey: SceneKey("gradient"))
            try gradient.encode(into: &g)
        }
    }
}
