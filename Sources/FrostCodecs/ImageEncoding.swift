import FrostCore

/// How an image is written: a format and that format's own settings.
///
/// ```swift
/// let jpeg = try image.encoded(.jpeg(.init(quality: 85)))
/// let webp = try image.encoded(.webp(.lossy(quality: 80)))
/// let png = try image.encoded(.png())
/// ```
public enum ImageEncoding: Sendable, Equatable {
    /// PNG, lossless.
    case png(PNGSettings = PNGSettings())
    /// JPEG, lossy; no alpha.
    case jpeg(JPEGSettings = JPEGSettings())
    /// WebP, lossless by default or lossy.
    case webp(WebPSettings = .lossless())
    /// AVIF, lossy (lossless at quality 100).
    case avif(AVIFSettings = AVIFSettings())
    /// HEIC, lossy (lossless at quality 100).
    case heic(HEICSettings = HEICSettings())
    /// GIF: a palette of at most 256 colours, dithered.
    case gif(PaletteSettings = PaletteSettings())

    /// The format written.
    public var format: ImageFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .webp: .webp
        case .avif: .avif
        case .heic: .heic
        case .gif: .gif
        }
    }

    /// The format's default settings for a file name's extension (`.png`, `.jpg`, `.jpeg`,
    /// `.webp`, `.avif`, `.heic`, `.heif`, `.gif`), nil for another.
    public init?(pathExtension path: String) {
        switch ImageFormat(pathExtension: path) {
        case .png: self = .png()
        case .jpeg: self = .jpeg()
        case .webp: self = .webp()
        case .avif: self = .avif()
        case .heic: self = .heic()
        case .gif: self = .gif()
        case nil: return nil
        }
    }

    /// The same settings as the encoder's option set.
    public var options: EncodeOptions {
        var options = EncodeOptions()
        switch self {
        case .png(let png):
            options.compressionLevel = png.level
            options.pngFilter = png.filter.map { $0 == .adaptive ? nil : $0.rawValue } ?? EncodeOptions.pngFilter(forLevel: png.level)
            options.metadata = png.metadata
            options.colors = png.palette?.colors
            options.dither = png.palette?.dither ?? 1
        case .jpeg(let jpeg):
            options.quality = jpeg.quality
            options.progressive = jpeg.progressive
            options.jpegSubsampling = jpeg.subsampling
            options.background = jpeg.background
            options.metadata = jpeg.metadata
        case .webp(let webp):
            options.webpQuality = webp.quality
            options.compressionLevel = webp.effort
            options.metadata = webp.metadata
        case .avif(let avif):
            options.avifQuality = avif.quality
            options.compressionLevel = avif.effort
            options.metadata = avif.metadata
        case .heic(let heic):
            options.heicQuality = heic.quality
            options.compressionLevel = heic.effort
            options.metadata = heic.metadata
        case .gif(let palette):
            options.colors = palette.colors
            options.dither = palette.dither
        }
        return options
    }
}

/// PNG's settings (docs/formats.md, "PNG settings").
public struct PNGSettings: Sendable, Equatable {
    /// 0…9: 0 stores the rows, 1 is Frost's run-length deflate (the fastest, and the default),
    /// 2 libdeflate's fastest, 3–9 zlib's levels.
    public var level: Int
    /// The row filter; nil: the level's own (none at 0, Paeth at 1, Up at 2, adaptive above).
    public var filter: PNGFilter?
    /// EXIF, XMP and resolution to keep (nil: none).
    public var metadata: ImageMetadata?
    /// A palette instead of true colour (what pngquant writes); nil: true colour.
    public var palette: PaletteSettings?

    /// PNG at deflate `level` (0–9), a row filter (nil: the level's own choice), the metadata to
    /// keep, and a palette (nil: true colour).
    public init(level: Int = EncodeOptions.defaultPNGLevel, filter: PNGFilter? = nil, metadata: ImageMetadata? = nil,
                palette: PaletteSettings? = nil) {
        self.level = level
        self.filter = filter
        self.metadata = metadata
        self.palette = palette
    }
}

/// PNG's row filters (the PNG specification, §9), or libpng's choice per row.
public enum PNGFilter: Int, Sendable, CaseIterable {
    /// Rows as they are.
    case none = 0
    /// Each byte less the one to its left.
    case sub
    /// Each byte less the one above.
    case up
    /// Each byte less the mean of left and above.
    case average
    /// Each byte less the Paeth predictor of left, above and upper left.
    case paeth
    /// libpng tries all five on every row and keeps the smallest guess.
    case adaptive = -1
}

/// JPEG's settings.
public struct JPEGSettings: Sendable, Equatable {
    /// 1…100.
    public var quality: Int
    /// Progressive scans instead of baseline.
    public var progressive: Bool
    /// Chroma resolution; nil: 4:4:4 from quality 90 up, 4:2:0 below (libjpeg's and libvips's habit).
    public var subsampling: JPEGSubsampling?
    /// What transparent pixels are flattened onto (JPEG has no alpha).
    public var background: Color
    /// EXIF, XMP, IPTC and resolution to keep (nil: none).
    public var metadata: ImageMetadata?

    /// JPEG at `quality` (1–100); subsampling nil is 4:4:4 from quality 90 up, else 4:2:0.
    public init(quality: Int = 90, progressive: Bool = false, subsampling: JPEGSubsampling? = nil,
                background: Color = EncodeOptions.defaultBackground, metadata: ImageMetadata? = nil) {
        self.quality = quality
        self.progressive = progressive
        self.subsampling = subsampling
        self.background = background
        self.metadata = metadata
    }
}

/// How finely a JPEG keeps colour.
public enum JPEGSubsampling: String, Sendable, CaseIterable {
    /// Colour at full resolution.
    case yuv444 = "4:4:4"
    /// Colour at half resolution both ways: smaller files, softer colour edges.
    case yuv420 = "4:2:0"
}

/// WebP's settings: lossless, or lossy at a quality.
public struct WebPSettings: Sendable, Equatable {
    /// Lossy at this quality 0…100; nil: lossless.
    public var quality: Int?
    /// libwebp's effort preset 0…9 (more: smaller and slower).
    public var effort: Int
    /// EXIF and XMP to keep (nil: none).
    public var metadata: ImageMetadata?

    /// Lossless WebP: every pixel kept; `effort` 0–6 trades speed for size.
    public static func lossless(effort: Int = EncodeOptions.defaultWebPEffort, metadata: ImageMetadata? = nil) -> WebPSettings {
        WebPSettings(quality: nil, effort: effort, metadata: metadata)
    }

    /// Lossy WebP at `quality` (1–100).
    public static func lossy(quality: Int = 80, effort: Int = EncodeOptions.defaultWebPEffort, metadata: ImageMetadata? = nil) -> WebPSettings {
        WebPSettings(quality: quality, effort: effort, metadata: metadata)
    }
}

/// AVIF's settings (docs/formats.md, "AVIF"): 8-bit, encoded by aom.
public struct AVIFSettings: Sendable, Equatable {
    /// 1…100 on libavif's scale (the quantizer is (100 − quality)·63/100); 100 is lossless.
    /// Colour is kept at full resolution (4:4:4) from 90 up, at half (4:2:0) below.
    public var quality: Int
    /// 0 (fastest) … 9 (smallest): aom's speed 10 − effort.
    public var effort: Int
    /// EXIF and XMP to keep (nil: none).
    public var metadata: ImageMetadata?

    /// AVIF at `quality` (1–100, 100 lossless) and `effort` (0–9).
    public init(quality: Int = EncodeOptions.defaultAVIFQuality, effort: Int = EncodeOptions.defaultAVIFEffort,
                metadata: ImageMetadata? = nil) {
        self.quality = quality
        self.effort = effort
        self.metadata = metadata
    }
}

/// HEIC's settings (docs/formats.md, "HEIC"): 8-bit, encoded by x265 through libheif.
public struct HEICSettings: Sendable, Equatable {
    /// 1…99 on libheif's lossy scale; 100 is lossless. Colour is kept at full resolution (4:4:4)
    /// from 90 up, at half (4:2:0) below.
    public var quality: Int
    /// 0 (fastest) … 9 (smallest): x265's presets ultrafast … placebo.
    public var effort: Int
    /// EXIF and XMP to keep (nil: none).
    public var metadata: ImageMetadata?

    /// HEIC at `quality` (1–100, 100 lossless) and `effort` (0–9).
    public init(quality: Int = EncodeOptions.defaultHEICQuality, effort: Int = EncodeOptions.defaultHEICEffort,
                metadata: ImageMetadata? = nil) {
        self.quality = quality
        self.effort = effort
        self.metadata = metadata
    }
}

/// A palette made by libimagequant: GIF's, and a palette PNG's.
public struct PaletteSettings: Sendable, Equatable {
    /// 2…256 entries.
    public var colors: Int
    /// Floyd–Steinberg dithering strength, 0 (none) … 1 (full).
    public var dither: Double

    /// At most `colors` entries (2–256), dithered at `dither` (0–1).
    public init(colors: Int = 256, dither: Double = 1) {
        self.colors = colors
        self.dither = dither
    }
}
