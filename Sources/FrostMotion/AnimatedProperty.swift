import FrostCompose
import FrostCore

/// The layer properties a motion scene can animate, by their path in `animate`.
public enum AnimatedProperty: String, Sendable, CaseIterable {
    /// x, y, width and height in the parent's points.
    case frame
    /// The frame's x.
    case frameX = "frame.x"
    /// The frame's y.
    case frameY = "frame.y"
    /// The frame's width.
    case frameWidth = "frame.width"
    /// The frame's height.
    case frameHeight = "frame.height"
    /// 0 to 1.
    case opacity
    /// The transform's scale about the frame's center.
    case scale = "transform.scale"
    /// The transform's translation, x and y.
    case translate = "transform.translate"
    /// The translation's x.
    case translateX = "transform.translate.x"
    /// The translation's y.
    case translateY = "transform.translate.y"
    /// The clip's corner radius.
    case cornerRadius
    /// The shadow's offset, x and y (a layer with a shadow).
    case shadowOffset = "shadow.offset"
    /// The shadow's x offset.
    case shadowOffsetX = "shadow.offset.x"
    /// The shadow's y offset.
    case shadowOffsetY = "shadow.offset.y"
    /// The shadow's opacity.
    case shadowOpacity = "shadow.opacity"
    /// The shadow's radius.
    case shadowRadius = "shadow.radius"
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

    /// Sets the property of `layer` to `v` (`arity` numbers), kept within what a scene may hold
    /// (`Scene.Limits`: a spring's overshoot never makes an invalid scene); `parent` is the size a
    /// frameless layer fills. A property the layer lacks (a shadow's on a layer without one, a colour
    /// on an image) is left alone, as are too few numbers: `MotionScene.validate` reports both.
    func apply(_ v: [Double], to layer: inout Layer, parent: (width: Double, height: Double)) {
        guard v.count >= arity else { return }
        let c = Scene.maximumCoordinate
        func point(_ x: Double) -> Double { min(max(x, -c), c) }
        func size(_ x: Double) -> Double { min(max(x, 0), c) }
        func within(_ x: Double, _ range: ClosedRange<Double>) -> Double { min(max(x, range.lowerBound), range.upperBound) }
        var frame = layer.frame ?? Rect(x: 0, y: 0, width: parent.width, height: parent.height)
        switch self {
        case .frame: frame = Rect(x: point(v[0]), y: point(v[1]), width: size(v[2]), height: size(v[3]))
        case .frameX: frame.x = point(v[0])
        case .frameY: frame.y = point(v[0])
        case .frameWidth: frame.width = size(v[0])
        case .frameHeight: frame.height = size(v[0])
        case .opacity: layer.opacity = within(v[0], Scene.Limits.unit)
        case .scale: layer.transform.scale = within(v[0], Scene.Limits.transformScale)
        case .translate: (layer.transform.translateX, layer.transform.translateY) = (point(v[0]), point(v[1]))
        case .translateX: layer.transform.translateX = point(v[0])
        case .translateY: layer.transform.translateY = point(v[0])
        case .cornerRadius: layer.cornerRadius = within(v[0], Scene.Limits.length)
        case .shadowOffset: layer.shadow?.offsetX = point(v[0]); layer.shadow?.offsetY = point(v[1])
        case .shadowOffsetX: layer.shadow?.offsetX = point(v[0])
        case .shadowOffsetY: layer.shadow?.offsetY = point(v[0])
        case .shadowOpacity: layer.shadow?.opacity = within(v[0], Scene.Limits.unit)
        case .shadowRadius: layer.shadow?.radius = within(v[0], Scene.Limits.shadowRadius)
        case .color:
            let u = Scene.Limits.unit
            let color = Color(red: within(v[0], u), green: within(v[1], u), blue: within(v[2], u), alpha: within(v[3], u))
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
