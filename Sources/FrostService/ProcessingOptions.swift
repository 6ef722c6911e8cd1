import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostEffects

/// What a processing URL asks for, from its options (docs/serve.md has the table beside imgproxy's):
/// imgproxy's names and meanings (`rs`, `s`, `rt`, `w`, `h`, `el`, `ex`, `g`, `dpr`, `bl`, `sh`, `q`,
/// `f`, `bg`, `pr`, `cb`) and Frost's own in the same grammar (`fx`, `tint`, `br`, `co`, `sa`, `ga`,
/// `kernel`). An option later in the URL overrides an earlier one, as in imgproxy.
public struct ProcessingOptions: Sendable, Equatable {
    /// imgproxy's resizing types.
    public enum ResizingType: String, Sendable, CaseIterable {
        /// Inside the box, aspect kept.
        case fit
        /// The whole box, aspect kept, the overflow cut by the gravity.
        case fill
        /// `fill`, but a box larger than the image is scaled down to fit it first (the aspect of the box kept).
        case fillDown = "fill-down"
        /// Exactly the box, stretched.
        case force
        /// `fill` when the image and the box are both landscape or both portrait, else `fit`.
        case auto
    }

    /// Where a crop or an extension keeps the picture: centre, an edge or a corner, with offsets in pixels.
    public struct Gravity: Sendable, Equatable {
        /// 0 left or top, 0.5 centre, 1 right or bottom.
        public var x = 0.5, y = 0.5
        public var offsetX = 0.0, offsetY = 0.0
        /// `sm`: where the picture draws the eye (`Image.attentionCrop`, libvips's attention), for crops only.
        public var smart = false
        /// `fp:X:Y`: the crop centred on this point (fractions of the width and height), kept inside; crops only.
        public var focus: SIMD2<Double>?

        static let names: [String: (Double, Double)] = [
            "ce": (0.5, 0.5), "no": (0.5, 0), "so": (0.5, 1), "ea": (1, 0.5), "we": (0, 0.5),
            "noea": (1, 0), "nowe": (0, 0), "soea": (1, 1), "sowe": (0, 1),
        ]

        public var isCentre: Bool { x == 0.5 && y == 0.5 && offsetX == 0 && offsetY == 0 && !smart && focus == nil }
    }

    public var resizingType = ResizingType.fit
    /// The box in CSS pixels (× `dpr`); 0 leaves that side to the aspect ratio.
    public var width = 0, height = 0
    /// Whether a box larger than the image enlarges it (imgproxy's default: no).
    public var enlarge = false
    /// Whether a result smaller than the box is extended to it with the background.
    public var extend = false
    public var extendGravity = Gravity()
    public var gravity = Gravity()
    public var dpr = 1.0
    /// Gaussian blur σ in result pixels (0: none).
    public var blur = 0.0
    /// Unsharp mask σ in result pixels (0: none).
    public var sharpen = 0.0
    /// Quality of lossy outputs, 1–100 (imgproxy's default 80).
    public var quality = 80
    /// The output format (nil: the URL's extension, else the source's).
    public var format: ImageFormat?
    /// Fills transparency (flattening) and extensions; nil: transparent where the format holds it.
    public var background: Color?
    /// Part of the result's identity only (`cb`).
    public var cacheBuster = ""
    /// Frost: an ImageEffects preset (light, extra-light, dark, tint:COLOR).
    public var effect: EffectParameters?
    /// Frost: brightness, contrast, saturation and gamma as `frost adjust` takes them.
    public var adjustment = ColorAdjustment()
    /// Frost: the resize kernel.
    public var kernel = ResampleKernel.default
    /// Frost: a frame of the source's blur cache (built on first request, kept) instead of the source.
    public var fade: Fade?

    /// `fade:FRACTION:LEVELS:MAXSIGMA:MODE`: the frame at FRACTION (0 the source, 1 the most blurred
    /// level) of a cache of LEVELS levels (default 10) up to σ MAXSIGMA (default 40), blended as
    /// MODE (blend, nearest, alpha, exact) — what `frost cache` and `frost fade --fraction` make.
    public struct Fade: Sendable, Equatable {
        public var fraction: Double
        public var levels = BlurCacheSpec.defaultLevels
        public var maxSigma = 40.0
        public var mode = FadeMode.blend
    }

    public init() {}

    /// The options of `path`, presets expanded (`default` first, when defined).
    public init(_ options: [ServicePath.Option], presets: [String: [ServicePath.Option]] = [:]) throws(ServiceError) {
        self.init()
        if let defaults = presets["default"] { try apply(defaults, presets: presets, depth: 0) }
        try apply(options, presets: presets, depth: 0)
    }

    /// The canonical text of every option's value: what a result's ETag and cache key hash.
    public var identity: String {
        let g = { (g: Gravity) in g.smart ? "sm" : g.focus.map { "fp,\($0.x),\($0.y)" } ?? "\(g.x),\(g.y),\(g.offsetX),\(g.offsetY)" }
        let fx = effect.map { "\($0.radius),\($0.tint.map { "\($0.red),\($0.green),\($0.blue),\($0.alpha)" } ?? "-"),\($0.saturation)" } ?? "-"
        let bg = background.map { "\($0.red),\($0.green),\($0.blue),\($0.alpha)" } ?? "-"
        let a = adjustment
        return ["rt=\(resizingType.rawValue)", "w=\(width)", "h=\(height)", "el=\(enlarge)", "ex=\(extend)", "exg=\(g(extendGravity))",
                "g=\(g(gravity))", "dpr=\(dpr)", "bl=\(blur)", "sh=\(sharpen)", "q=\(quality)", "f=\(format?.fileExtension ?? "-")",
                "bg=\(bg)", "cb=\(cacheBuster)", "fx=\(fx)", "adj=\(a.brightness),\(a.contrast),\(a.saturation),\(a.gamma)",
                "k=\(kernel.rawValue)", "fade=\(fade.map { "\($0.fraction),\($0.levels),\($0.maxSigma),\($0.mode.rawValue)" } ?? "-")"]
            .joined(separator: "/")
    }

    private mutating func apply(_ options: [ServicePath.Option], presets: [String: [ServicePath.Option]], depth: Int) throws(ServiceError) {
        for option in options { try apply(option, presets: presets, depth: depth) }
    }

    // swiftlint:disable:next cyclomatic_complexity
    private mutating func apply(_ option: ServicePath.Option, presets: [String: [ServicePath.Option]], depth: Int) throws(ServiceError) {
        let a = option.arguments, name = option.name
        func arg(_ i: Int) -> String? { i < a.count && !a[i].isEmpty ? a[i] : nil }
        func size(_ i: Int) throws(ServiceError) -> Int? {
            guard let text = arg(i) else { return nil }
            guard let v = Int(text), (0...65535).contains(v) else { throw .badRequest("\(name): '\(text)' is not a size from 0 to 65535") }
            return v
        }
        func bool(_ i: Int) throws(ServiceError) -> Bool? {
            guard let text = arg(i) else { return nil }
            guard let value = Self.boolean(text) else { throw .badRequest("\(name): '\(text)' is not 1/t/true or 0/f/false") }
            return value
        }
        func number(_ i: Int, _ range: ClosedRange<Double>) throws(ServiceError) -> Double? {
            guard let text = arg(i) else { return nil }
            guard let v = Double(text), v.isFinite, range.contains(v) else {
                throw .badRequest("\(name): '\(text)' is not a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return v
        }
        func type(_ i: Int) throws(ServiceError) -> ResizingType? {
            guard let text = arg(i) else { return nil }
            guard let t = ResizingType(rawValue: text) else { throw .badRequest("\(name): unknown resizing type '\(text)' (fit, fill, fill-down, force, auto)") }
            return t
        }
        /// A gravity; `crop`: one that places a crop, which may also be `sm` or `fp`.
        func place(from i: Int, crop: Bool = false) throws(ServiceError) -> Gravity? {
            guard let text = arg(i) else { return nil }
            if text == "sm" || text == "fp" {
                guard crop else { throw .badRequest("\(name): \(text) gravity places crops only") }
                var gravity = Gravity()
                if text == "sm" {
                    guard a.count == i + 1 else { throw .badRequest("\(name): sm takes no offsets") }
                    gravity.smart = true
                } else {
                    guard a.count == i + 3, let x = try number(i + 1, 0...1), let y = try number(i + 2, 0...1) else {
                        throw .badRequest("\(name): fp:X:Y, the focus point as fractions from 0 to 1")
                    }
                    gravity.focus = SIMD2(x, y)
                }
                return gravity
            }
            guard let (x, y) = Gravity.names[text] else {
                throw .badRequest("\(name): gravity '\(text)' is not one of ce, no, so, ea, we, noea, nowe, soea, sowe\(crop ? ", sm, fp" : "")")
            }
            return Gravity(x: x, y: y, offsetX: try number(i + 1, -65535...65535) ?? 0, offsetY: try number(i + 2, -65535...65535) ?? 0)
        }
        func most(_ n: Int) throws(ServiceError) {
            if a.count > n { throw .badRequest("\(name): at most \(n) argument\(n == 1 ? "" : "s")") }
        }
        switch name {
        case "resize", "rs":
            try most(5)
            resizingType = try type(0) ?? resizingType
            width = try size(1) ?? width
            height = try size(2) ?? height
            enlarge = try bool(3) ?? enlarge
            extend = try bool(4) ?? extend
        case "size", "s":
            try most(4)
            width = try size(0) ?? width
            height = try size(1) ?? height
            enlarge = try bool(2) ?? enlarge
            extend = try bool(3) ?? extend
        case "resizing_type", "rt": try most(1); resizingType = try type(0) ?? resizingType
        case "width", "w": try most(1); width = try size(0) ?? width
        case "height", "h": try most(1); height = try size(0) ?? height
        case "enlarge", "el": try most(1); enlarge = try bool(0) ?? enlarge
        case "extend", "ex":
            try most(4)
            extend = try bool(0) ?? extend
            extendGravity = try place(from: 1) ?? extendGravity
        case "gravity", "g": try most(3); gravity = try place(from: 0, crop: true) ?? gravity
        case "dpr": try most(1); dpr = try number(0, 0.01...8) ?? dpr
        case "blur", "bl": try most(1); blur = try number(0, 0...250) ?? blur
        case "sharpen", "sh": try most(1); sharpen = try number(0, 0...250) ?? sharpen
        case "quality", "q":
            try most(1)
            quality = try size(0).map { q throws(ServiceError) in
                guard q <= 100 else { throw .badRequest("q: '\(q)' is not a quality from 0 to 100") }
                return q == 0 ? 80 : q   // 0: the default, as imgproxy
            } ?? quality
        case "format", "f", "ext":
            try most(1)
            format = try arg(0).flatMap { text throws(ServiceError) in try ServicePath.format(text) } ?? format
        case "background", "bg":
            try most(3)
            background = try color(a, option: name)
        case "cachebuster", "cb": try most(1); cacheBuster = arg(0) ?? ""
        case "preset", "pr":
            guard depth < 8 else { throw .badRequest("pr: presets nest more than 8 deep") }
            for preset in a where !preset.isEmpty {
                guard let options = presets[preset] else { throw .badRequest("pr: unknown preset '\(preset)'") }
                try apply(options, presets: presets, depth: depth + 1)
            }
        case "effect", "fx":
            let text = a.joined(separator: ":")
            guard let effect = EffectParameters(preset: text) else { throw .badRequest("fx: '\(text)' is not light, extra-light, dark or tint:COLOR") }
            self.effect = effect
        case "tint":
            let text = a.joined(separator: ":")
            guard let color = try? Color(parsing: text) else { throw .badRequest("tint: '\(text)' is not a colour") }
            effect = EffectParameters(radius: effect?.radius ?? 0, tint: color, saturation: effect?.saturation ?? 1)
        case "brightness", "br": try most(1); adjustment.brightness = try number(0, -1...1) ?? adjustment.brightness
        case "contrast", "co": try most(1); adjustment.contrast = try number(0, 0...4) ?? adjustment.contrast
        case "saturation", "sa": try most(1); adjustment.saturation = try number(0, 0...4) ?? adjustment.saturation
        case "gamma", "ga": try most(1); adjustment.gamma = try number(0, 0.1...10) ?? adjustment.gamma
        case "fade":
            try most(4)
            guard let fraction = try number(0, 0...1) else { throw .badRequest("fade: FRACTION from 0 to 1 (then LEVELS, MAXSIGMA, MODE)") }
            var fade = Fade(fraction: fraction)
            fade.levels = try number(1, Double(BlurCacheSpec.levelsRange.lowerBound)...Double(BlurCacheSpec.levelsRange.upperBound)).map { Int($0) } ?? fade.levels
            fade.maxSigma = try number(2, BlurCacheSpec.maxSigmaRange) ?? fade.maxSigma
            if let mode = arg(3) {
                guard let m = FadeMode(rawValue: mode) else { throw .badRequest("fade: mode '\(mode)' is not blend, nearest, alpha or exact") }
                fade.mode = m
            }
            self.fade = fade
        case "kernel", "k":
            try most(1)
            guard let text = arg(0), let k = ResampleKernel(rawValue: text) else {
                throw .badRequest("kernel: one of \(ResampleKernel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kernel = k
        default:
            throw .badRequest("unknown option '\(name)'")
        }
    }

    /// imgproxy's booleans: 1, t or true; 0, f or false (nil: neither).
    static func boolean(_ text: String) -> Bool? {
        switch text {
        case "1", "t", "true": true
        case "0", "f", "false": false
        default: nil
        }
    }

    /// `bg:R:G:B` (0–255 each) or `bg:RRGGBB`; `bg` alone clears it.
    private func color(_ a: [String], option: String) throws(ServiceError) -> Color? {
        switch a.count {
        case 0: return nil
        case 1 where a[0].isEmpty: return nil
        case 1:
            guard a[0].utf8.count == 6, let v = Int(a[0], radix: 16) else { throw .badRequest("\(option): '\(a[0])' is not RRGGBB hex") }
            return Color(red: Double(v >> 16) / 255, green: Double(v >> 8 & 255) / 255, blue: Double(v & 255) / 255, alpha: 1)
        case 3:
            let v = a.compactMap { Int($0) }.filter { (0...255).contains($0) }
            guard v.count == 3 else { throw .badRequest("\(option): R:G:B takes three numbers from 0 to 255") }
            return Color(red: Double(v[0]) / 255, green: Double(v[1]) / 255, blue: Double(v[2]) / 255, alpha: 1)
        default:
            throw .badRequest("\(option): R:G:B or RRGGBB")
        }
    }
}
