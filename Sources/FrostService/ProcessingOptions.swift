import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostEffects

/// What a processing URL asks for, from its options (docs/serve.md has the table beside imgproxy's):
/// imgproxy's names, meanings and defaults, and Frost's own in the same grammar (`fx`, `tint`, `br`,
/// `co`, `sa`, `ga`, `kernel`, `fade`). An option later in the URL overrides an earlier one, as in
/// imgproxy. The parsing is `OptionParsing.swift`'s.
public struct ProcessingOptions: Sendable, Equatable {
    /// imgproxy's resizing types.
    public enum ResizingType: String, Sendable, CaseIterable {
        /// Inside the box, aspect kept.
        case fit
        /// The whole box, aspect kept, the overflow cut at the gravity.
        case fill
        /// `fill`, but without `el:1` a box larger than the image is cut to its shape inside it.
        case fillDown = "fill-down"
        /// Exactly the box, stretched (a side of 0 keeps the source's).
        case force
        /// `fill` when the image and the box are both landscape or both portrait, else `fit`.
        case auto
    }

    /// `c:W:H:GRAVITY`: a part of the source cut before anything else (≥ 1: pixels; below: a fraction).
    public struct Crop: Sendable, Equatable {
        public var width = 0.0, height = 0.0
        /// nil: `g`'s.
        public var gravity: Gravity?
    }

    /// `t:THRESHOLD:COLOR:EQUAL_HOR:EQUAL_VER`: borders of one colour cut off.
    public struct Trim: Sendable, Equatable {
        public var threshold = 10.0
        /// The border's colour; nil: the top-left pixel's.
        public var color: Color?
        public var equalHorizontal = false, equalVertical = false
    }

    /// `pd:TOP:RIGHT:BOTTOM:LEFT`, CSS pixels (× dpr) around the result.
    public struct Padding: Sendable, Equatable {
        public var top = 0, right = 0, bottom = 0, left = 0
        public var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
    }

    /// `wm:OPACITY:POSITION:X:Y:SCALE`: the server's watermark drawn over the result.
    public struct Watermark: Sendable, Equatable {
        public var opacity = 0.0
        public var position = Gravity()
        /// The watermark's size as a fraction of the result's (0: its own size).
        public var scale = 0.0
    }

    public var resizingType = ResizingType.fit
    /// The box in CSS pixels (× `dpr`); 0 leaves that side to the aspect ratio.
    public var width = 0, height = 0
    /// `mw`, `mh`: the result is at least this wide or high (CSS pixels).
    public var minWidth = 0, minHeight = 0
    /// `z`: scales the result's size on top of everything else.
    public var zoomWidth = 1.0, zoomHeight = 1.0
    public var dpr = 1.0
    /// Whether a box larger than the image enlarges it (imgproxy's default: no).
    public var enlarge = false
    /// Whether a result smaller than the box is extended to it with the background.
    public var extend = false
    public var extendGravity = Gravity()
    /// `exar`: extends the result to the box's aspect ratio.
    public var extendAspectRatio = false
    public var extendAspectRatioGravity = Gravity()
    /// Where the result's crop keeps the picture.
    public var gravity = Gravity()
    public var crop: Crop?
    public var trim: Trim?
    public var padding = Padding()
    /// `ar`: turn the source upright by its EXIF orientation (nil: the server's default, yes).
    public var autoRotate: Bool?
    /// `rot`: degrees clockwise, a multiple of 90.
    public var rotate = 0
    public var flipHorizontal = false, flipVertical = false
    /// Fills transparency (flattening) and extensions; nil: transparent where the format holds it.
    public var background: Color?
    /// Gaussian blur σ in result pixels (0: none).
    public var blur = 0.0
    /// Unsharp mask σ in result pixels (0: none).
    public var sharpen = 0.0
    public var watermark: Watermark?
    /// `sm`, `kcr`, `scp` (nil: the server's defaults, imgproxy's: strip, keep the copyright, strip).
    public var stripMetadata: Bool?, keepCopyright: Bool?, stripColorProfile: Bool?
    /// Quality of lossy outputs, 1–100; 0: the format's (`fq`, then the server's per format).
    public var quality = 0
    /// `fq:FORMAT:Q:…`: the quality for one output format.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// The output format (nil: the URL's extension, else chosen: `OutputFormat`).
    public var format: ImageFormat?
    /// `skp`: sources of these formats are answered as they are (when the output format is theirs or unset).
    public var skipProcessing: Set<ImageFormat> = []
    /// `raw`: the source answered as it is, without processing.
    public var raw = false
    /// Part of the result's identity only (`cb`).
    public var cacheBuster = ""
    /// `exp`: the Unix time after which the URL answers 404 (nil or 0: never).
    public var expires: Int?
    /// `fn`: the file name of the answer's Content-Disposition (without its extension).
    public var filename: String?
    /// `att`: Content-Disposition: attachment.
    public var returnAttachment = false
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

    /// The canonical text of every option's value that changes the picture: what a result's ETag
    /// and cache key hash.
    public var identity: String {
        func c(_ c: Color?) -> String { c.map { "\($0.red),\($0.green),\($0.blue),\($0.alpha)" } ?? "-" }
        let fx = effect.map { "\($0.radius),\(c($0.tint)),\($0.saturation)" } ?? "-"
        let a = adjustment, p = padding
        let crop = self.crop.map { "\($0.width),\($0.height),\($0.gravity?.identity ?? "-")" } ?? "-"
        let trim = self.trim.map { "\($0.threshold),\(c($0.color)),\($0.equalHorizontal),\($0.equalVertical)" } ?? "-"
        let wm = watermark.map { "\($0.opacity),\($0.position.identity),\($0.scale)" } ?? "-"
        let fq = formatQuality.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ",")
        let flags = [autoRotate, stripMetadata, keepCopyright, stripColorProfile].map { $0.map { "\($0)" } ?? "-" }.joined(separator: ",")
        return ["rt=\(resizingType.rawValue)", "w=\(width)", "h=\(height)", "mw=\(minWidth)", "mh=\(minHeight)", "z=\(zoomWidth),\(zoomHeight)",
                "el=\(enlarge)", "ex=\(extend),\(extendGravity.identity)", "exar=\(extendAspectRatio),\(extendAspectRatioGravity.identity)",
                "g=\(gravity.identity)", "c=\(crop)", "t=\(trim)", "pd=\(p.top),\(p.right),\(p.bottom),\(p.left)", "flags=\(flags)",
                "rot=\(rotate)", "fl=\(flipHorizontal),\(flipVertical)", "dpr=\(dpr)", "bl=\(blur)", "sh=\(sharpen)", "wm=\(wm)",
                "q=\(quality)", "fq=\(fq)", "f=\(format?.fileExtension ?? "-")", "skp=\(skipProcessing.map(\.rawValue).sorted())",
                "raw=\(raw)", "bg=\(c(background))", "cb=\(cacheBuster)", "fx=\(fx)",
                "adj=\(a.brightness),\(a.contrast),\(a.saturation),\(a.gamma)", "k=\(kernel.rawValue)",
                "fade=\(fade.map { "\($0.fraction),\($0.levels),\($0.maxSigma),\($0.mode.rawValue)" } ?? "-")"]
            .joined(separator: "/")
    }
}
