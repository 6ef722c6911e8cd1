import FrostCore
import FrostEffects

/// A snapshot to render: a canvas in points, its pixel scale, a background, and layers drawn in
/// order (later layers on top). Build it in Swift or read it from JSON (SceneCoding.swift; the
/// schema is in the README). Geometry is in points with y down; pixels = points × scale.
public struct Scene: Sendable, Equatable {
    /// The canvas's width in points.
    public var width: Double
    /// The canvas's height in points.
    public var height: Double
    /// Pixels per point (1, 2 or 3 on iOS devices).
    public var scale: Double
    /// `.clear` keeps real transparency (the PNG gets alpha).
    public var background: Color
    /// Drawn in order: later layers on top.
    public var layers: [Layer]

    /// A canvas of `width` × `height` points at `scale` pixels per point; `validate()` checks the values.
    public init(width: Double, height: Double, scale: Double = 1, background: Color = .clear, layers: [Layer] = []) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
        self.layers = layers
    }

    /// The place of the layer whose `id` is `id` (`[2, 1]`: `layers[2].layers[1]`), or nil.
    public func path(ofLayer id: String) -> [Int]? {
        func find(_ layers: [Layer], _ prefix: [Int]) -> [Int]? {
            for (i, layer) in layers.enumerated() {
                if layer.id == id { return prefix + [i] }
                if case .group(let children) = layer.content, let found = find(children, prefix + [i]) { return found }
            }
            return nil
        }
        return find(layers, [])
    }

    /// The output size in pixels.
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    /// The output height in pixels.
    public var pixelHeight: Int { Int((height * scale).rounded()) }
}

/// One layer: what it draws (`content`) and how it is placed and composited, after CALayer.
public struct Layer: Sendable, Equatable {
    /// A name unique in the scene: motions and retained rasters follow the layer by it, wherever
    /// it moves in the tree (a layer without one is known by its place, `layers[2]`).
    public var id: String?
    /// What the layer draws.
    public var content: LayerContent
    /// Position and size in the parent's points; nil fills the parent.
    public var frame: Rect?
    /// 0 (invisible) to 1; the layer and its shadow are composited with it.
    public var opacity: Double = 1
    /// How the layer is composited over what is beneath it.
    public var blendMode: BlendMode = .normal
    /// Clips the content to a rounded rectangle (anti-aliased); 0 clips to the frame.
    public var cornerRadius: Double = 0
    /// A line drawn inside the clip.
    public var border: Border?
    /// Scale about the frame's center, then a translation.
    public var transform: Transform = Transform()
    /// A drop shadow cast by the layer's alpha.
    public var shadow: Shadow?
    /// Limits where the layer shows.
    public var mask: Mask?

    /// A layer drawing `content`; every other property has CALayer's default.
    public init(_ content: LayerContent, frame: Rect? = nil, opacity: Double = 1, blendMode: BlendMode = .normal,
                cornerRadius: Double = 0, border: Border? = nil, transform: Transform = Transform(),
                shadow: Shadow? = nil, mask: Mask? = nil, id: String? = nil) {
        self.id = id
        self.content = content
        self.frame = frame
        self.opacity = opacity
        self.blendMode = blendMode
        self.cornerRadius = cornerRadius
        self.border = border
        self.transform = transform
        self.shadow = shadow
        self.mask = mask
    }
}

/// What a layer draws.
public enum LayerContent: Sendable, Equatable {
    /// A color filling the frame.
    case color(Color)
    /// A picture placed in the frame by its content mode.
    case image(ImageSource, ContentMode)
    /// A linear gradient across the frame.
    case gradient(Gradient)
    /// A tiled image or a procedural texture.
    case texture(Texture)
    /// Text wrapped to the frame.
    case text(TextContent)
    /// Nested layers, in the group's own points (origin at the group's top-left), flattened into
    /// one image before the group's opacity, clip, mask and shadow apply (group opacity).
    case group([Layer])
    /// Blurs and tints what was drawn beneath it, inside its frame: UIImage+ImageEffects
    /// parameters in points (the frosted bar of iOS). Inside a group it sees the group's layers.
    case backdrop(EffectParameters)
}

/// Where an image comes from: a file (relative to the scene file) or pixels built in Swift.
public enum ImageSource: Sendable, Equatable {
    /// A PNG, JPEG, WebP, AVIF or HEIC file, relative to the scene file.
    case file(String)
    /// Pixels in memory.
    case pixels(Image)
}

/// How an image fills its frame (UIView.ContentMode).
public enum ContentMode: String, Sendable, CaseIterable {
    /// Stretched to the frame (scaleToFill).
    case fill
    /// Scaled to cover the frame, centered, the overflow clipped.
    case aspectFill = "aspect-fill"
    /// Scaled to fit inside the frame, centered.
    case aspectFit = "aspect-fit"
    /// One image pixel per canvas pixel, centered.
    case center
}

/// Separable blend modes of the W3C Compositing and Blending spec.
public enum BlendMode: String, Sendable, CaseIterable {
    /// Source-over.
    case normal
    /// Source × destination: darkens.
    case multiply
    /// 1 − (1 − source)(1 − destination): lightens.
    case screen
    /// Multiply or screen by the destination: contrast.
    case overlay
    /// A gentler overlay.
    case softLight = "soft-light"
}

/// A line of `width` points drawn inside a layer's (rounded) clip.
public struct Border: Sendable, Equatable {
    /// In points, inward from the layer's edge.
    public var width: Double
    /// The line's color.
    public var color: Color
    /// A border `width` points wide in `color`.
    public init(width: Double, color: Color) {
        self.width = width
        self.color = color
    }
}

/// Scale about the frame's center, then a translation in points.
public struct Transform: Sendable, Equatable {
    /// About the frame's center; 1 leaves the size.
    public var scale: Double
    /// Points to the right, after scaling.
    public var translateX: Double
    /// Points down, after scaling.
    public var translateY: Double
    /// The identity by default.
    public init(scale: Double = 1, translateX: Double = 0, translateY: Double = 0) {
        self.scale = scale
        self.translateX = translateX
        self.translateY = translateY
    }
}

/// A drop shadow cast by the layer's alpha. `radius` is CALayer's shadowRadius: the shadow is the
/// alpha blurred by a gaussian of σ = radius / 2 (CSS Backgrounds §7.2), offset, colored, times opacity.
public struct Shadow: Sendable, Equatable {
    /// The shadow's color (its alpha times `opacity`).
    public var color: Color
    /// 0 to 1.
    public var opacity: Double
    /// CALayer's shadowRadius in points: a gaussian of σ = radius / 2.
    public var radius: Double
    /// Points to the right.
    public var offsetX: Double
    /// Points down.
    public var offsetY: Double
    /// CALayer's defaults but for the opacity (1, where CALayer's is 0) and radius 3.
    public init(color: Color = .black, opacity: Double = 1, radius: Double = 3, offsetX: Double = 0, offsetY: Double = 0) {
        self.color = color
        self.opacity = opacity
        self.radius = radius
        self.offsetX = offsetX
        self.offsetY = offsetY
    }
}

/// Limits where a layer shows: another image's alpha or luminance stretched over the frame, or a
/// gradient's alpha (Secret's 3% top fade).
public enum Mask: Sendable, Equatable {
    /// An image stretched over the frame; one channel is the coverage.
    case image(ImageSource, MaskChannel)
    /// A gradient's alpha is the coverage.
    case gradient(Gradient)
}

/// Which of a mask image's channels is the coverage.
public enum MaskChannel: String, Sendable, CaseIterable {
    /// The image's alpha.
    case alpha
    /// The image's Rec. 709 luminance times its alpha.
    case luminance
}

/// A linear gradient between two points in unit coordinates of the frame ((0,0) top-left,
/// (1,1) bottom-right), colors interpolated in premultiplied space; padded beyond the ends.
public struct Gradient: Sendable, Equatable {
    /// The start point's x in unit coordinates of the frame.
    public var startX: Double
    /// The start point's y in unit coordinates of the frame.
    public var startY: Double
    /// The end point's x in unit coordinates of the frame.
    public var endX: Double
    /// The end point's y in unit coordinates of the frame.
    public var endY: Double
    /// At least one, at locations from 0 to 1.
    public var stops: [GradientStop]
    /// Top to bottom by default.
    public init(startX: Double = 0.5, startY: Double = 0, endX: Double = 0.5, endY: Double = 1, stops: [GradientStop]) {
        self.startX = startX
        self.startY = startY
        self.endX = endX
        self.endY = endY
        self.stops = stops
    }
}

/// A color at a place along a gradient.
public struct GradientStop: Sendable, Equatable {
    /// 0 at the start point, 1 at the end point.
    public var location: Double
    /// The color there (interpolated premultiplied between stops).
    public var color: Color
    /// `color` at `location` (0 to 1).
    public init(_ location: Double, _ color: Color) {
        self.location = location
        self.color = color
    }
}

/// A tiled image, or a built-in procedural gray texture (mid-gray is neutral under overlay and
/// soft-light, so textures are meant to be drawn with those blend modes).
public enum Texture: Sendable, Equatable {
    /// An image repeated across the frame.
    case tiled(ImageSource)
    /// A procedural pattern, its features `spacing` points apart, its noise from `seed`.
    case pattern(TexturePattern, spacing: Double, seed: UInt32)
}

/// The procedural textures: mid-gray noise, lines, squares and linen.
public enum TexturePattern: String, Sendable, CaseIterable {
    /// Gray noise.
    case noise
    /// Horizontal lines.
    case lines
    /// A checkerboard of `spacing`-point squares.
    case squares
    /// Woven linen, iOS's 2012 background.
    case linen
}

/// Text drawn with FreeType, wrapped to the frame's width.
public struct TextContent: Sendable, Equatable {
    /// The text, wrapped to the frame's width when `wraps`.
    public var text: String
    /// A TrueType/OpenType file; nil is DejaVu Sans (Debian fonts-dejavu-core).
    public var font: String?
    /// Font size in points.
    public var size: Double
    /// The glyphs' color.
    public var color: Color
    /// Each line's place in the frame's width.
    public var alignment: TextAlignment
    /// Break lines at spaces to stay within the frame's width (and inside words that do not fit).
    public var wraps: Bool
    /// Baseline-to-baseline distance in points; nil is the font's own line height.
    public var lineHeight: Double?

    /// Text in DejaVu Sans 17 pt, black, left-aligned and wrapped, unless given otherwise.
    public init(_ text: String, font: String? = nil, size: Double = 17, color: Color = .black,
                alignment: TextAlignment = .left, wraps: Bool = true, lineHeight: Double? = nil) {
        self.text = text
        self.font = font
        self.size = size
        self.color = color
        self.alignment = alignment
        self.wraps = wraps
        self.lineHeight = lineHeight
    }
}

/// Where each line sits across the frame.
public enum TextAlignment: String, Sendable, CaseIterable {
    /// Lines start at the frame's left.
    case left
    /// Lines are centered.
    case center
    /// Lines end at the frame's right.
    case right
}
