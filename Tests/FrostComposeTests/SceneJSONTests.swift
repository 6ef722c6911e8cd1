import FrostCodecs
@testable import FrostCompose
import FrostCore
import FrostEffects
import Testing

/// The scene file format: what parses, and the errors a user sees.
@Suite struct SceneJSONTests {
    static func error(_ json: String) -> String {
        do {
            _ = try Scene(json: Array(json.utf8))
            return "no error"
        } catch {
            return error.description
        }
    }

    static func layer(_ body: String) -> String { #"{"width": 10, "height": 10, "layers": [{"type": "color", "color": "white"}, "# + body + "]}" }

    @Test(arguments: [
        (layer(#"{"type": "color", "color": "white", "frame": [1, 2, 3]}"#), "layers[1].frame: expected 4 numbers"),
        (layer(#"{"type": "color", "color": "white", "colour": "x"}"#), "layers[1].colour: unknown key"),
        (layer(#"{"type": "color"}"#), "layers[1].color: missing"),
        (layer(#"{"type": "color", "color": "blurple"}"#), "layers[1].color: 'blurple' is not a color"),
        (layer(#"{"type": "color", "color": "white", "opacity": "half"}"#), "layers[1].opacity: expected a number"),
        (layer(#"{"type": "color", "color": "white", "opacity": 2}"#), "layers[1].opacity: expected a number from 0.0 to 1.0"),
        (layer(#"{"type": "sticker"}"#), "layers[1].type: expected one of"),
        (layer(#"{"type": "group", "layers": [{"type": "image", "file": "a.png", "contentMode": "stretch"}]}"#),
         "layers[1].layers[0].contentMode: expected one of fill, aspect-fill, aspect-fit, center"),
        (layer(#"{"type": "gradient", "stops": []}"#), "layers[1].stops: expected at least one stop"),
        (layer(#"{"type": "color", "color": "white", "id": ""}"#), "layers[1].id: expected a name"),
        (#"{"width": 10, "height": 10, "layers": [{"type": "color", "color": "white", "id": "a"}, {"type": "group", "layers": [{"type": "color", "color": "white", "id": "a"}]}]}"#,
         "layers[1].layers[0].id: 'a' is already the id of layers[0]"),
        (layer(#"{"type": "color", "color": "white", "shadow": {"radius": 3, "blur": 2}}"#), "layers[1].shadow.blur: unknown key"),
        (#"{"width": 10, "height": 10, "layers": [}"#, "not valid JSON"),
        (#"{"height": 10}"#, "width: missing"),
        (#"{"width": 10, "height": 10, "depth": 3}"#, "depth: unknown key"),
    ])
    func schemaErrorsNameTheirPath(json: String, expected: String) {
        let message = Self.error(json)
        #expect(message.hasPrefix(expected), "\(message)")
    }

    @Test func missingFilesAreNamed() throws {
        let scene = try Scene(json: Array(Self.layer(#"{"type": "group", "layers": [{"type": "image", "file": "no-such.png"}]}"#).utf8))
        #expect(throws: ComposeError.self) { try SceneAssets(for: scene, relativeTo: "/tmp") }
        do {
            _ = try SceneAssets(for: scene, relativeTo: "/tmp")
        } catch {
            #expect(error.description.hasPrefix("layers[1].layers[0].file: cannot read /tmp/no-such.png"), "\(error)")
        }
    }

    @Test func everyFieldParsesAndRoundTrips() throws {
        let json = #"""
        {"width": 320, "height": 200, "scale": 2, "background": "emerald-sea", "layers": [
          {"type": "image", "file": "a.png", "contentMode": "aspect-fit", "frame": [1, 2, 3, 4], "opacity": 0.5, "blend": "soft-light",
           "cornerRadius": 8, "border": {"width": 3, "color": "white"}, "transform": {"scale": 0.95, "translate": [1, -2]},
           "shadow": {"color": "#00000080", "opacity": 0.3, "radius": 10, "offset": [0, 4]}, "mask": {"file": "m.png", "channel": "luminance"}},
          {"type": "gradient", "start": [0, 0], "end": [1, 1], "stops": [{"at": 0, "color": "clear"}, {"at": 1, "color": "black"}],
           "mask": {"gradient": {"stops": [{"at": 0.03, "color": "black"}]}}},
          {"type": "texture", "pattern": "linen", "spacing": 3, "seed": 4, "blend": "overlay"},
          {"type": "texture", "file": "tile.png"},
          {"type": "text", "text": "Hi", "size": 22, "color": "white", "align": "center", "wrap": false, "lineHeight": 30, "font": "f.ttf"},
          {"type": "group", "id": "card", "layers": [{"type": "color", "color": "cupid"}]},
          {"type": "backdrop", "effect": "dark"},
          {"type": "backdrop", "radius": 12, "tint": "white:0.8@0.4", "saturation": 1.8}
        ]}
        """#
        let scene = try Scene(json: Array(json.utf8))
        #expect(scene.layers.count == 8 && scene.scale == 2 && scene.background == Color.palette["emerald-sea"])
        let image = scene.layers[0]
        #expect(image.content == .image(.file("a.png"), .aspectFit) && image.frame == Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(image.blendMode == .softLight && image.border == Border(width: 3, color: .white) && image.transform.translateY == -2)
        #expect(image.mask == .image(.file("m.png"), .luminance) && image.shadow?.offsetY == 4)
        #expect(scene.layers[6].content == .backdrop(.dark))
        #expect(scene.layers[5].id == "card" && scene.path(ofLayer: "card") == [5] && scene.path(ofLayer: "nothing") == nil)
        // Colors here are whole bytes, so the JSON written back reads as the same scene.
        var byteScene = scene
        byteScene.layers[6].content = .backdrop(EffectParameters(radius: 20, tint: Color(r: 28, g: 28, b: 28, a: 186), saturation: 1.8))
        byteScene.layers[7].content = .backdrop(EffectParameters(radius: 12, tint: Color(r: 204, g: 204, b: 204, a: 102), saturation: 1.8))
        #expect(try Scene(json: try byteScene.json()) == byteScene)
    }
}
