import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostEffects
#if canImport(Glibc)
import Glibc
#endif

/// How a URL's options are read, as imgproxy reads them (its options/parser): the same names,
/// argument counts, defaults and bounds (none where imgproxy has none: a size or a dpr is limited
/// by `--max-pixels` alone), booleans as Go's `strconv.ParseBool` (anything else is false), an
/// empty argument keeping the value before it. A malformed option is a 400 naming it (imgproxy
/// answers 404 "Invalid URL"); an expired URL a 404, as imgproxy's.
extension ProcessingOptions {
    /// The options of `path` at `now` (Unix seconds, for `exp`), presets expanded (`default` first).
    public init(_ options: [ServicePath.Option], presets: [String: [ServicePath.Option]] = [:],
                now: Int = ProcessingOptions.currentTime) throws(ServiceError) {
        self.init()
        if presets["default"] != nil { try apply(ServicePath.Option(name: "pr", arguments: ["default"]), presets: presets, used: [], now: now) }
        for option in options { try apply(option, presets: presets, used: [], now: now) }
    }

    /// The current Unix time.
    public static var currentTime: Int { Int(time(nil)) }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private mutating func apply(_ option: ServicePath.Option, presets: [String: [ServicePath.Option]], used: [String],
                                now: Int) throws(ServiceError) {
        let a = option.arguments, name = option.name
        let reader = ArgumentReader(name: name, arguments: a)
        switch name {
        case "resize", "rs":
            try reader.most(8)
            if let type = try reader.resizingType(0) { resizingType = type }
            try applySize(ArgumentReader(name: name, arguments: Array(a.dropFirst())))
        case "size", "s": try applySize(reader)
        case "resizing_type", "rt": try reader.most(1); resizingType = try reader.resizingType(0) ?? resizingType
        case "width", "w": try reader.most(1); width = try reader.size(0) ?? width
        case "height", "h": try reader.most(1); height = try reader.size(0) ?? height
        case "min-width", "mw": try reader.most(1); minWidth = try reader.size(0) ?? minWidth
        case "min-height", "mh": try reader.most(1); minHeight = try reader.size(0) ?? minHeight
        case "zoom", "z":
            try reader.most(2)
            guard let x = try reader.positive(0) else { throw reader.invalid(0, "a positive number") }
            zoomWidth = x
            zoomHeight = a.count > 1 ? try reader.positive(1) ?? zoomHeight : x
        case "dpr": try reader.most(1); dpr = try reader.positive(0) ?? dpr
        case "enlarge", "el": try reader.most(1); enlarge = reader.flag()
        case "extend", "ex": try applyExtend(reader, \.extend, \.extendGravity)
        case "extend_aspect_ratio", "extend_ar", "exar": try applyExtend(reader, \.extendAspectRatio, \.extendAspectRatioGravity)
        case "gravity", "g": gravity = try reader.gravity(from: 0, current: gravity, allowed: Gravity.Kind.positions + [.smart, .focusPoint])
        case "crop", "c":
            var crop = self.crop ?? Crop()
            guard let w = try reader.notNegative(0) else { throw reader.invalid(0, "a crop width (0 or more)") }
            crop.width = w
            if a.count > 1 { crop.height = try reader.notNegative(1) ?? crop.height }
            if a.count > 2 { crop.gravity = try reader.gravity(from: 2, current: crop.gravity ?? Gravity(), allowed: Gravity.Kind.positions + [.smart, .focusPoint]) }
            self.crop = crop
        case "trim", "t":
            try reader.most(4)
            guard let threshold = try reader.number(0) else { trim = nil; return }
            var trim = Trim(threshold: threshold)
            trim.color = try reader.hexColor(1)
            trim.equalHorizontal = reader.bool(2) ?? false
            trim.equalVertical = reader.bool(3) ?? false
            self.trim = trim
        case "padding", "pd":
            try reader.most(4)
            padding.top = try reader.size(0) ?? padding.top
            padding.right = try reader.size(1) ?? padding.top
            padding.bottom = try reader.size(2) ?? padding.top
            padding.left = try reader.size(3) ?? padding.right
        case "auto_rotate", "ar": try reader.most(1); autoRotate = reader.flag()
        case "rotate", "rot":
            try reader.most(1)
            guard let text = reader.argument(0), let degrees = Int(text) else { throw reader.invalid(0, "an integer") }
            guard degrees % 90 == 0 else { throw .badRequest("\(name): '\(text)' is not a multiple of 90") }
            rotate = (degrees % 360 + 360) % 360
        case "flip", "fl":
            try reader.most(2)
            flipHorizontal = reader.bool(0) ?? flipHorizontal
            flipVertical = reader.bool(1) ?? flipVertical
        case "background", "bg": background = try reader.background()
        case "blur", "bl": try reader.most(1); blur = try reader.notNegative(0) ?? blur
        case "sharpen", "sh": try reader.most(1); sharpen = try reader.notNegative(0) ?? sharpen
        case "watermark", "wm":
            try reader.most(7)
            guard let opacity = try reader.number(0), (0...1).contains(opacity) else { throw reader.invalid(0, "an opacity from 0 to 1") }
            var watermark = self.watermark ?? Watermark()
            watermark.opacity = opacity
            if let position = reader.argument(1) {
                guard let kind = Gravity.Kind(rawValue: position), kind != .smart, kind != .focusPoint else {
                    throw reader.invalid(1, "a position (ce, no, so, ea, we, noea, nowe, soea, sowe, re)")
                }
                watermark.position.kind = kind
            }
            watermark.position.x = try reader.number(2) ?? watermark.position.x
            watermark.position.y = try reader.number(3) ?? watermark.position.y
            watermark.scale = try reader.positive(4) ?? watermark.scale
            self.watermark = opacity > 0 ? watermark : nil
        case "strip_metadata", "sm": try reader.most(1); stripMetadata = reader.flag()
        case "keep_copyright", "kcr": try reader.most(1); keepCopyright = reader.flag()
        case "strip_color_profile", "scp": try reader.most(1); stripColorProfile = reader.flag()
        case "quality", "q": try reader.most(1); quality = try reader.quality(0) ?? quality
        case "format_quality", "fq":
            guard a.count % 2 == 0 else { throw .badRequest("\(name): FORMAT:QUALITY pairs") }
            for i in stride(from: 0, to: a.count, by: 2) {
                guard let format = try reader.format(i) else { throw reader.invalid(i, "a format") }
                formatQuality[format] = try reader.quality(i + 1) ?? 0
            }
        case "format", "f", "ext": try reader.most(1); format = try reader.format(0) ?? format
        case "skip_processing", "skp":
            for i in a.indices {
                guard let format = try reader.format(i) else { throw reader.invalid(i, "a format") }
                skipProcessing.insert(format)
            }
        case "raw": try reader.most(1); raw = reader.flag()
        case "cachebuster", "cb": try reader.most(1); cacheBuster = reader.argument(0) ?? ""
        case "expires", "exp":
            try reader.most(1)
            guard let text = reader.argument(0), let stamp = Int(text) else { throw reader.invalid(0, "a Unix timestamp") }
            if stamp > 0, stamp < now { throw ServiceError(404, "exp: the URL expired at \(stamp)") }
            expires = stamp
        case "filename", "fn":
            try reader.most(2)
            guard let text = reader.argument(0) else { filename = nil; return }
            if reader.bool(1) == true {
                guard let bytes = Base64URL.decode(text), let decoded = String(validating: bytes, as: UTF8.self) else {
                    throw reader.invalid(0, "URL-safe base64 of a UTF-8 name")
                }
                filename = decoded
            } else {
                filename = text
            }
        case "return_attachment", "att": try reader.most(1); returnAttachment = reader.flag()
        case "preset", "pr":
            for preset in a where !preset.isEmpty {
                guard let options = presets[preset] else { throw .badRequest("pr: unknown preset '\(preset)'") }
                // A preset that names itself (or one that names it back) is not expanded again, as imgproxy skips it.
                if used.contains(preset) { continue }
                for option in options { try apply(option, presets: presets, used: used + [preset], now: now) }
            }
        case "max_src_resolution", "msr", "max_src_file_size", "msfs", "max_animation_frames", "maf",
             "max_animation_frame_resolution", "mafr", "max_result_dimension", "mrd":
            // imgproxy refuses these unless IMGPROXY_ALLOW_SECURITY_OPTIONS; the server's flags set the limits.
            throw ServiceError(403, "\(name): security options are not taken from URLs (the server's --max-* flags set the limits)")
        case "pixelate", "pix", "max_bytes", "mb", "preserve_hdr", "ph", "enforce_thumbnail", "eth":
            throw .badRequest("\(name): imgproxy's option is not built in Frost (docs/serve.md)")
        case "effect", "fx":
            let text = a.joined(separator: ":")
            guard let effect = EffectParameters(preset: text) else { throw .badRequest("fx: '\(text)' is not light, extra-light, dark or tint:COLOR") }
            self.effect = effect
        case "tint":
            let text = a.joined(separator: ":")
            guard let color = try? Color(parsing: text) else { throw .badRequest("tint: '\(text)' is not a colour") }
            effect = EffectParameters(radius: effect?.radius ?? 0, tint: color, saturation: effect?.saturation ?? 1)
        case "brightness", "br": try reader.most(1); adjustment.brightness = try reader.number(0, in: -1...1) ?? adjustment.brightness
        case "contrast", "co": try reader.most(1); adjustment.contrast = try reader.number(0, in: 0...4) ?? adjustment.contrast
        case "saturation", "sa": try reader.most(1); adjustment.saturation = try reader.number(0, in: 0...4) ?? adjustment.saturation
        case "gamma", "ga": try reader.most(1); adjustment.gamma = try reader.number(0, in: 0.1...10) ?? adjustment.gamma
        case "fade":
            try reader.most(4)
            guard let fraction = try reader.number(0, in: 0...1) else { throw .badRequest("fade: FRACTION from 0 to 1 (then LEVELS, MAXSIGMA, MODE)") }
            var fade = Fade(fraction: fraction)
            let levels = BlurCacheSpec.levelsRange
            fade.levels = try reader.number(1, in: Double(levels.lowerBound)...Double(levels.upperBound)).map { Int($0) } ?? fade.levels
            fade.maxSigma = try reader.number(2, in: BlurCacheSpec.maxSigmaRange) ?? fade.maxSigma
            if let mode = reader.argument(3) {
                guard let m = FadeMode(rawValue: mode) else { throw .badRequest("fade: mode '\(mode)' is not blend, nearest, alpha or exact") }
                fade.mode = m
            }
            self.fade = fade
        case "kernel", "k":
            try reader.most(1)
            guard let text = reader.argument(0), let k = ResampleKernel(rawValue: text) else {
                throw .badRequest("kernel: one of \(ResampleKernel.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kernel = k
        default:
            throw .badRequest("unknown option '\(name)'")
        }
    }

    /// `s:W:H:ENLARGE:EXTEND:GRAVITY:X:Y` (also `rs`'s arguments after the type).
    private mutating func applySize(_ reader: ArgumentReader) throws(ServiceError) {
        try reader.most(7)
        width = try reader.size(0) ?? width
        height = try reader.size(1) ?? height
        enlarge = reader.bool(2) ?? enlarge
        if reader.argument(3) != nil { try applyExtend(ArgumentReader(name: reader.name, arguments: Array(reader.arguments.dropFirst(3))), \.extend, \.extendGravity) }
    }

    /// `ex:EXTEND:GRAVITY:X:Y` and `exar`'s: `fp` allowed, `sm` not.
    private mutating func applyExtend(_ reader: ArgumentReader, _ flag: WritableKeyPath<Self, Bool>,
                                      _ place: WritableKeyPath<Self, Gravity>) throws(ServiceError) {
        try reader.most(4)
        self[keyPath: flag] = reader.bool(0) ?? false
        if reader.arguments.count > 1 {
            self[keyPath: place] = try reader.gravity(from: 1, current: self[keyPath: place], allowed: Gravity.Kind.positions + [.focusPoint])
        }
    }

    /// Go's `strconv.ParseBool`: 1, t, T, true, True, TRUE (0, f, F, false, False, FALSE); imgproxy
    /// takes anything else as false (with a warning).
    static func boolean(_ text: String) -> Bool {
        ["1", "t", "T", "true", "True", "TRUE"].contains(text)
    }
}

/// One option's arguments, read by position: nil for a missing or empty one (which keeps the
/// value before it), a 400 naming the option for one that does not parse.
struct ArgumentReader {
    let name: String
    let arguments: [String]

    func argument(_ i: Int) -> String? { i < arguments.count && !arguments[i].isEmpty ? arguments[i] : nil }

    func most(_ n: Int) throws(ServiceError) {
        if arguments.count > n { throw .badRequest("\(name): at most \(n) argument\(n == 1 ? "" : "s")") }
    }

    func invalid(_ i: Int, _ expected: String) -> ServiceError {
        .badRequest("\(name): '\(i < arguments.count ? arguments[i] : "")' is not \(expected)")
    }

    func bool(_ i: Int) -> Bool? { argument(i).map(ProcessingOptions.boolean) }

    /// A boolean option's one argument: empty or anything but true's spellings is false, as imgproxy.
    func flag() -> Bool { ProcessingOptions.boolean(arguments.first ?? "") }

    /// A finite number (Go's ParseFloat, NaN and infinities refused).
    func number(_ i: Int) throws(ServiceError) -> Double? {
        guard let text = argument(i) else { return nil }
        guard let v = Double(text), v.isFinite else { throw invalid(i, "a number") }
        return v
    }

    func number(_ i: Int, in range: ClosedRange<Double>) throws(ServiceError) -> Double? {
        guard let v = try number(i) else { return nil }
        guard range.contains(v) else { throw invalid(i, "a number from \(range.lowerBound) to \(range.upperBound)") }
        return v
    }

    func notNegative(_ i: Int) throws(ServiceError) -> Double? {
        guard let v = try number(i) else { return nil }
        guard v >= 0 else { throw invalid(i, "a number of 0 or more") }
        return v
    }

    func positive(_ i: Int) throws(ServiceError) -> Double? {
        guard let v = try number(i) else { return nil }
        guard v > 0 else { throw invalid(i, "a positive number") }
        return v
    }

    /// A size in pixels: an integer of 0 or more, unbounded (the pixel limit bounds what it makes).
    func size(_ i: Int) throws(ServiceError) -> Int? {
        guard let text = argument(i) else { return nil }
        guard let v = Int(text), v >= 0 else { throw invalid(i, "a size (an integer of 0 or more)") }
        return v
    }

    /// 0 (the format's default) to 100.
    func quality(_ i: Int) throws(ServiceError) -> Int? {
        guard let text = argument(i) else { return nil }
        guard let v = Int(text), (0...100).contains(v) else { throw invalid(i, "a quality from 0 to 100") }
        return v
    }

    func resizingType(_ i: Int) throws(ServiceError) -> ProcessingOptions.ResizingType? {
        guard let text = argument(i) else { return nil }
        guard let t = ProcessingOptions.ResizingType(rawValue: text) else { throw invalid(i, "a resizing type (fit, fill, fill-down, force, auto)") }
        return t
    }

    /// imgproxy's format names Frost writes (jpeg, jpg, png, webp, avif, gif, heic).
    func format(_ i: Int) throws(ServiceError) -> ImageFormat? {
        guard let text = argument(i) else { return nil }
        return try ServicePath.format(text, option: name)
    }

    /// RGB hex, 3 or 6 digits (`fff`, `ff0000`).
    func hexColor(_ i: Int) throws(ServiceError) -> Color? {
        guard let text = argument(i) else { return nil }
        let digits = Array(text.utf8)
        guard digits.count == 3 || digits.count == 6, digits.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 || UInt8(ascii: "A")...UInt8(ascii: "F") ~= $0 }),
              var v = Int(text, radix: 16) else { throw invalid(i, "RGB hex (fff or ffffff)") }
        if digits.count == 3 { v = (v >> 8) * 0x110000 + (v >> 4 & 15) * 0x1100 + (v & 15) * 0x11 }
        return Color(r: UInt8(v >> 16), g: UInt8(v >> 8 & 255), b: UInt8(v & 255))
    }

    /// `bg:R:G:B` (0–255 each), `bg:RGB` or `bg:RRGGBB` hex; `bg:` alone clears it.
    func background() throws(ServiceError) -> Color? {
        switch arguments.count {
        case 1: return try hexColor(0)
        case 3:
            let v = arguments.compactMap { UInt8($0) }
            guard v.count == 3 else { throw .badRequest("\(name): R:G:B takes three numbers from 0 to 255") }
            return Color(r: v[0], g: v[1], b: v[2])
        default:
            throw .badRequest("\(name): R:G:B, RGB or RRGGBB")
        }
    }

    /// A gravity from argument `i` on: its kind (one of `allowed`), then offsets; `sm` takes none
    /// and clears them, `fp` takes exactly two from 0 to 1; an offset not given keeps `current`'s.
    func gravity(from i: Int, current: Gravity, allowed: [Gravity.Kind]) throws(ServiceError) -> Gravity {
        let count = arguments.count - i
        guard let kind = argument(i).flatMap(Gravity.Kind.init(rawValue:)), allowed.contains(kind) else {
            throw invalid(i, "a gravity (\(allowed.map(\.rawValue).joined(separator: ", ")))")
        }
        var gravity = current
        gravity.kind = kind
        switch kind {
        case .smart:
            guard count == 1 else { throw .badRequest("\(name): sm takes no offsets") }
            (gravity.x, gravity.y) = (0, 0)
            return gravity
        case .focusPoint:
            guard count == 3 else { throw .badRequest("\(name): fp:X:Y, the focus point as fractions from 0 to 1") }
            gravity.x = try number(i + 1, in: 0...1) ?? gravity.x
            gravity.y = try number(i + 2, in: 0...1) ?? gravity.y
        default:
            guard count <= 3 else { throw .badRequest("\(name): a gravity takes at most two offsets") }
            gravity.x = try number(i + 1) ?? gravity.x
            gravity.y = try number(i + 2) ?? gravity.y
        }
        return gravity
    }
}
