import FrostCore
import FrostEffects

/// A snapshot to render: a canvas in points, its pixel scale, a background, and layers drawn in
/// order (later layers on top). Build it in Swift or read it from JSON (SceneCoding.swift; the
/// schema is in the README). Geometry is in points with y down; pixels = points × scale.
public struct Scene: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// Pixels per point (1, 2 or 3 on iOS devices).
    public var scale: Double
    /// `.clear` keeps real transparency (the PNG gets alpha).
    public var background: Color
    public var layers: [Layer]

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
    public var pixelHeight: Int { Int((height * scale).rounded()) }
}

/// One layer: what it draws (`content`) and how it is placed and composited, after CALayer.
public struct Layer: Sendable, Equatable {
    /// A name unique in the scene: motions and retained rasters follow the layer by it, wherever
    /// it moves in the tree (a layer without one is known by its place, `layers[2]`).
    public var id: String?
    public var content: LayerContent
    /// Position and size in the parent's points; nil fills the parent.
    public var frame: Rect?
    public var opacity: Double = 1
    public var blendMode: BlendMode = .normal
    /// Clips the content to a rounded rectangle (anti-aliased); 0 clips to the frame.
    public var cornerRadius: Double = 0
    public var border: Border?
    public var transform: Transform = Transform()
    public var shadow: Shadow?
    public var mask: Mask?

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

public enum LayerContent: Sendable, Equatable {
    case color(Color)
    case image(ImageSource, ContentMode)
    case gradient(Gradient)
    case texture(Texture)
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
    case file(String)
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
    case normal, multiply, screen, overlay
    case softLight = "soft-light"
}

public struct Border: Sendable, Equatable {
    public var width: Double
    public var color: Color
    public init(width: Double, color: Color) {
        self.width = width
        self.color = color
    }
}

/// Scale about the frame's center, then a translation in points.
public struct Transform: Sendable, Equatable {
    public var scale: Double
    public var translateX: Double
    public var translateY: Double
    public init(scale: Double = 1, translateX: Double = 0, translateY: Double = 0) {
        self.scale = scale
        self.translateX = translateX
        self.translateY = translateY
    }
}

/// A drop shadow cast by the layer's alpha. `radius` is CALayer's shadowRadius: the shadow is the
/// alpha blurred by a gaussian of σ = radius / 2 (CSS Backgrounds §7.2), offset, colored, times opacity.
public struct Shadow: Sendable, Equatable {
    public var color: Color
    public var opacity: Double
    public var radius: Double
    public var offsetX: Double
    public var offsetY: Double
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
    case image(ImageSource, MaskChannel)
    case gradient(Gradient)
}

public enum MaskChannel: String, Sendable, CaseIterable {
    case alpha, luminance
}

/// A linear gradient between two points in unit coordinates of the frame ((0,0) top-left,
/// (1,1) bottom-right), colors interpolated in premultiplied space; padded beyond the ends.
public struct Gradient: Sendable, Equatable {
    public var startX: Double
    public var startY: Double
    public var endX: Double
    public var endY: Double
    public var stops: [GradientStop]
    public init(startX: Double = 0.5, startY: Double = 0, endX: Double = 0.5, endY: Double = 1, stops: [GradientStop]) {
        self.startX = startX
        self.startY = startY
        self.endX = endX
        self.endY = endY
        self.stops = stops
    }
}

public struct GradientStop: Sendable, Equatable {
    /// 0 at the start point, 1 at the end point.
    public var location: Double
    public var color: Color
    public init(_ location: Double, _ color: Color) {
        self.location = location
        self.color = color
    }
}

/// A tiled image, or a built-in procedural gray texture (mid-gray is neutral under overlay and
/// soft-light, so textures are meant to be drawn with those blend modes).
public enum Texture: Sendable, Equatable {
    case tiled(ImageSource)
    case pattern(TexturePattern, spacing: Double, seed: UInt32)
}

public enum TexturePattern: String, Sendable, CaseIterable {
    case noise, lines, squares, linen
}

/// Text drawn with FreeType, wrapped to the frame's width.
public struct TextContent: Sendable, Equatable {
    public var text: String
    /// A TrueType/OpenType file; nil is DejaVu Sans (Debian fonts-dejavu-core).
    public var font: String?
    /// Font size in points.
    public var size: Double
    public var color: Color
    public var alignment: TextAlignment
    /// Break lines at spaces to stay within the frame's width (and inside words that do not fit).
    public var wraps: Bool
    /// Baseline-to-baseline distance in points; nil is the font's own line height.
    public var lineHeight: Double?

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

public enum TextAlignment: String, Sendable, CaseIterable {
    case left, center, right
}
