import Frost

/// The `compose` bench scene: an iPhone-size (390×844 pt at scale 3 = 1170×2532 px) snapshot of
/// eight layers as the seed apps drew them: a photo header, a 30% black fade, linen texture
/// (overlay), a top gradient, a headline, a rounded card with a drop shadow (a group of a color,
/// the photo and text), a frosted bar (backdrop blur) and its title.
public enum BenchScene {
    public static func iPhone(photo: Image) -> Scene {
        let card = Layer(.group([
            Layer(.color(.white)),
            Layer(.image(.pixels(photo), .aspectFill), frame: Rect(x: 0, y: 0, width: 350, height: 260)),
            Layer(.text(TextContent("A blurred snapshot, a soft shadow and a card that gives way under your thumb.",
                                    size: 17, color: Color(r: 60, g: 60, b: 67))),
                  frame: Rect(x: 18, y: 276, width: 314, height: 120)),
        ]), frame: Rect(x: 20, y: 330, width: 350, height: 420), cornerRadius: 14,
            shadow: Shadow(color: .black, opacity: 0.25, radius: 24, offsetX: 0, offsetY: 12))
        return Scene(width: 390, height: 844, scale: 3, background: .white, layers: [
            Layer(.image(.pixels(photo), .aspectFill)),
            Layer(.color(.black), opacity: 0.3),
            Layer(.texture(.pattern(.linen, spacing: 4, seed: 1)), opacity: 0.4, blendMode: .overlay),
            Layer(.gradient(Gradient(stops: [GradientStop(0, Color(white: 0, alpha: 0.5)), GradientStop(1, .clear)])),
                  frame: Rect(x: 0, y: 0, width: 390, height: 300)),
            Layer(.text(TextContent("Frost", size: 44, color: .white, alignment: .center)), frame: Rect(x: 20, y: 200, width: 350, height: 60)),
            card,
            Layer(.backdrop(EffectParameters(radius: 20, tint: Color(white: 1, alpha: 0.3), saturation: 1.8)),
                  frame: Rect(x: 0, y: 0, width: 390, height: 100)),
            Layer(.text(TextContent("Today", size: 17, color: .black, alignment: .center)), frame: Rect(x: 0, y: 60, width: 390, height: 30)),
        ])
    }
}
