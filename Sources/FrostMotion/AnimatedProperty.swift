import FrostCompose
import FrostCore

/// The layer properties a motion scene can animate, by their path in `animate`.
public enum AnimatedProperty: String, Sendable, CaseIterable {
    case frame
    case frameX = "frame.x", frameY = "frame.y", frameWidth = "frame.width", frameHeight = "frame.height"
    case opacity
    case scale = "transform.scale"
    case translate = "transform.translate"
    case translateX = "transform.translate.x", translateY = "transform.translate.y"
    case cornerRadius
    case shadowOffset = "shadow.offset", shadowOffsetX = "shadow.offset.x", shadowOffsetY = "shadow.offset.y"
    case shadowOpacity = "shadow.opacity", shadowRadius = "shadow.radius"
    /// A color layer's color or a text layer's text color.
    case color
    /// A blurred layer's place between sharp (0) and its last cache level (1).
    case blurProgress = "blur.progress"

    /// Numbers in one value: x, y, width, height for a frame; x, y for offsets; r, g, b, a (0…1) for a color.
    public var arity: Int {
        switch self {
        case .frame: 4
        case .translate, .shadowOffset: 2
        case .color: 4
        default: 1
        }
    }

    /// Whether a change redraws the layer's content rather than placing, scaling or fading it.
    /// (A new size is drawn afresh by the retained-raster path itself: its rasters are per size.)
    var changesContent: Bool { [.cornerRadius, .color, .blurProgress].contains(self) }

    /// Sets the property of `layer` to `v` (`arity` numbers); `parent` is the size a frameless
    /// layer fills. A property the layer lacks (a shadow's on a layer without one, a colour on an
    /// image) is left alone: the JSON reader refuses those, a scene built in Swift may have them.
    func apply(_ v: [Double], to layer: inout Layer, parent: (width: Double, height: Double)) {
        var frame = layer.frame ?? Rect(x: 0, y: 0, width: parent.width, height: parent.height)
        switch self {
        case .frame: frame = Rect(x: v[0], y: v[1], width: max(0, v[2]), height: max(0, v[3]))
        case .frameX: frame.x = v[0]
        case .frameY: frame.y = v[0]
        case .frameWidth: frame.width = max(0, v[0])
        case .frameHeight: frame.height = max(0, v[0])
        case .opacity: layer.opacity = min(max(v[0], 0), 1)
        case .scale: layer.transform.scale = max(0, v[0])
        case .translate: (layer.transform.translateX, layer.transform.translateY) = (v[0], v[1])
        case .translateX: layer.transform.translateX = v[0]
        case .translateY: layer.transform.translateY = v[0]
        case .cornerRadius: layer.cornerRadius = max(0, v[0])
        case .shadowOffset: layer.shadow?.offsetX = v[0]; layer.shadow?.offsetY = v[1]
        case .shadowOffsetX: layer.shadow?.offsetX = v[0]
        case .shadowOffsetY: layer.shadow?.offsetY = v[0]
        case .shadowOpacity: layer.shadow?.opacity = min(max(v[0], 0), 1)
        case .shadowRadius: layer.shadow?.radius = max(0, v[0])
        case .color:
            let color = Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
            switch layer.content {
            case .color: layer.content = .color(color)
            case .text(var text):
                text.color = color
                layer.content = .text(text)
            default: break
            }
        case .blurProgress: break   // read by the renderer, which swaps in the cache's frame
        }
        if layer.frame != nil || [.frame, .frameX, .frameY, .frameWidth, .frameHeight].contains(self) {
            layer.frame = frame
        }
    }
}
