import FrostCore
import FrostEffects

// The limits of a scene's values, checked in one place: the JSON reader runs this on what it read
// (after the types and keys are known good), `rendered` on every scene it draws, so a scene built in
// Swift meets the same limits with the same messages and JSON paths as one read from a file, and
// nothing out of range (a NaN, a negative size, a 1e300 coordinate) reaches pixel arithmetic.

extension Scene {
    /// The ranges of the scene format's numbers, by what they measure.
    public enum Limits {
        /// A canvas's width and height in points.
        public static let size: ClosedRange<Double> = 0.000_001...100_000
        /// Pixels per point.
        public static let scale: ClosedRange<Double> = 0.01...16
        /// Opacities, gradient stop locations, color components.
        public static let unit: ClosedRange<Double> = 0...1
        /// Corner radii, border widths, line heights, in points.
        public static let length: ClosedRange<Double> = 0...100_000
        /// A transform's scale.
        public static let transformScale: ClosedRange<Double> = 0...1000
        /// A shadow's radius in points.
        public static let shadowRadius: ClosedRange<Double> = 0...1000
        /// A procedural texture's spacing in points.
        public static let textureSpacing: ClosedRange<Double> = 0.01...10_000
        /// A font size in points.
        public static let textSize: ClosedRange<Double> = 0.1...2000
        /// A backdrop's ImageEffects radius in points.
        public static let backdropRadius: ClosedRange<Double> = 0...500
        /// ImageEffects' saturation delta factor.
        public static let saturation: ClosedRange<Double> = -100...100
    }

    /// Throws the first value outside the scene format's limits, named by its JSON path
    /// (`layers[1].opacity: expected a number from 0.0 to 1.0`).
    public func validate() throws(ComposeError) {
        try SceneCheck.number(width, Limits.size, "width")
        try SceneCheck.number(height, Limits.size, "height")
        try SceneCheck.number(scale, Limits.scale, "scale")
        try SceneCheck.color(background, "background")
        try SceneCheck.layers(layers, "layers")
        try SceneCheck.ids(layers)
    }
}

/// The checks, each throwing `path: problem` (FrostMotion's rules use them too).
package enum SceneCheck {
    static func number(_ v: Double, _ range: ClosedRange<Double>, _ path: String) throws(ComposeError) {
        guard range.contains(v) else { throw ComposeError(path, "expected a number from \(range.lowerBound) to \(range.upperBound)") }
    }

    /// Points anywhere in the plane: frames, offsets, gradient ends, animated values, driver
    /// values (anything larger is no picture and would overflow pixel arithmetic); `what` names
    /// them in the message.
    package static func coordinates(_ values: [Double], _ path: String, what: String = "numbers") throws(ComposeError) {
        let limit = Scene.maximumCoordinate
        guard values.allSatisfy({ abs($0) <= limit }) else {
            throw ComposeError(path, "expected \(what) from -\(Int(limit)) to \(Int(limit))")
        }
    }

    /// Components from 0 to 1, as every parsed COLOR has.
    static func color(_ c: Color, _ path: String) throws(ComposeError) {
        guard [c.red, c.green, c.blue, c.alpha].allSatisfy(Scene.Limits.unit.contains) else {
            throw ComposeError(path, "expected a color with red, green, blue and alpha from 0 to 1")
        }
    }

    /// Ids are not empty and name one layer each.
    static func ids(_ layers: [Layer]) throws(ComposeError) {
        var seen: [String: String] = [:]
        func walk(_ layers: [Layer], _ path: String) throws(ComposeError) {
            for (i, layer) in layers.enumerated() {
                let here = "\(path)[\(i)]"
                if let id = layer.id {
                    guard !id.isEmpty else { throw ComposeError("\(here).id", "expected a name (an empty string names nothing)") }
                    if let first = seen[id] { throw ComposeError("\(here).id", "'\(id)' is already the id of \(first)") }
                    seen[id] = here
                }
                if case .group(let children) = layer.content { try walk(children, "\(here).layers") }
            }
        }
        try walk(layers, "layers")
    }

    static func layers(_ layers: [Layer], _ path: String) throws(ComposeError) {
        for (i, layer) in layers.enumerated() { try self.layer(layer, "\(path)[\(i)]") }
    }

    static func layer(_ layer: Layer, _ path: String) throws(ComposeError) {
        try content(layer.content, path)
        if let f = layer.frame {
            try coordinates([f.x, f.y, f.width, f.height], "\(path).frame")
            guard f.width >= 0, f.height >= 0 else { throw ComposeError("\(path).frame", "width and height must not be negative") }
        }
        try number(layer.opacity, Scene.Limits.unit, "\(path).opacity")
        try number(layer.cornerRadius, Scene.Limits.length, "\(path).cornerRadius")
        if let border = layer.border {
            try number(border.width, Scene.Limits.length, "\(path).border.width")
            try color(border.color, "\(path).border.color")
        }
        try number(layer.transform.scale, Scene.Limits.transformScale, "\(path).transform.scale")
        try coordinates([layer.transform.translateX, layer.transform.translateY], "\(path).transform.translate")
        if let shadow = layer.shadow {
            try color(shadow.color, "\(path).shadow.color")
            try number(shadow.opacity, Scene.Limits.unit, "\(path).shadow.opacity")
            try number(shadow.radius, Scene.Limits.shadowRadius, "\(path).shadow.radius")
            try coordinates([shadow.offsetX, shadow.offsetY], "\(path).shadow.offset")
        }
        if case .gradient(let gradient) = layer.mask { try self.gradient(gradient, "\(path).mask.gradient") }
    }

    static func content(_ content: LayerContent, _ path: String) throws(ComposeError) {
        switch content {
        case .color(let c):
            try color(c, "\(path).color")
        case .image, .texture(.tiled):
            break
        case .gradient(let g):
            try gradient(g, path)
        case .texture(.pattern(_, let spacing, _)):
            try number(spacing, Scene.Limits.textureSpacing, "\(path).spacing")
        case .text(let text):
            try number(text.size, Scene.Limits.textSize, "\(path).size")
            try color(text.color, "\(path).color")
            if let lineHeight = text.lineHeight { try number(lineHeight, Scene.Limits.length, "\(path).lineHeight") }
        case .group(let children):
            try layers(children, "\(path).layers")
        case .backdrop(let effect):
            try number(effect.radius, Scene.Limits.backdropRadius, "\(path).radius")
            if let tint = effect.tint { try color(tint, "\(path).tint") }
            try number(effect.saturation, Scene.Limits.saturation, "\(path).saturation")
        }
    }

    static func gradient(_ g: Gradient, _ path: String) throws(ComposeError) {
        try coordinates([g.startX, g.startY], "\(path).start")
        try coordinates([g.endX, g.endY], "\(path).end")
        guard !g.stops.isEmpty else { throw ComposeError("\(path).stops", "expected at least one stop") }
        for (i, stop) in g.stops.enumerated() {
            try number(stop.location, Scene.Limits.unit, "\(path).stops[\(i)].at")
            try color(stop.color, "\(path).stops[\(i)].color")
        }
    }
}
