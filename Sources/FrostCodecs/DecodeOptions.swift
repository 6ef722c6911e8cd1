import FrostColor
import FrostCore

/// How files are read, and the limits on untrusted input, in one place: pixels, file size, and the
/// folder that the files a scene or motion names must lie in.
public struct DecodeOptions: Sendable, Equatable {
    /// Refuse images whose header declares more pixels than this, before any pixel memory exists.
    public var maxPixels: Int
    /// Refuse images, and results, with a side longer than this (`defaultMaxSide`).
    public var maxSide = DecodeOptions.defaultMaxSide
    /// Refuse files (and standard input) larger than this many bytes, before reading them.
    public var maxFileBytes: Int
    /// When set, every file a scene or motion names (images, masks, textures, fonts, cache
    /// folders) must resolve, links followed, to a path inside this folder.
    public var assetsRoot: String?
    /// Turn JPEGs upright according to their EXIF orientation tag.
    public var autoOrient: Bool
    /// Decode what a damaged file holds instead of failing: a JPEG cut short or with corrupt data
    /// (libjpeg fills the rest gray), a PNG's rows before the cut (the rest transparent black), a
    /// GIF's whole frames before a broken one. Off: an error.
    public var allowTruncated: Bool
    /// Decode at 1/`reduction` of the size where the format can (shrink on load), ⌈w/r⌉ × ⌈h/r⌉:
    /// JPEG through libjpeg's DCT scaling (1, 2, 4 or 8), WebP through libwebp's rescaler (any r).
    /// PNG decodes whole. For a caller that shrinks the image anyway (`resize`): 1 unless it
    /// chose otherwise.
    public var reduction = 1
    /// Refuse animations of more frames than this, counted before any frame is decoded.
    public var maxFrames = DecodeOptions.defaultMaxFrames
    /// The frame a still read takes from an animation (GIF, APNG, WebP, AVIF sequence), from 0.
    public var frame = 0
    /// Whether a still read of a GIF fails when any later frame is broken (the command line without
    /// --frame, where a still output of an animation is its first frame); off, a frame before the
    /// break is read.
    public var requiresEveryFrame = false
    /// The rendering intent of the conversions a decode makes: a CMYK JPEG's or a gray picture's
    /// pixels from their profile into sRGB (`--intent`).
    public var intent: RenderingIntent = .relative

    /// 256 Mpixel: 1 GiB of RGBA8.
    public static let defaultMaxPixels = 256_000_000
    /// 65,535 pixels: the longest side JPEG and GIF hold and most decoders take. A longer side is a
    /// sliver (at most 763 pixels across at 50 Mpixel) whose resampling weights, a few dozen bytes
    /// per pixel of that side, outweigh its pixels: a thumbnail of a 1×49,000,000 PNG took 3 GB.
    public static let defaultMaxSide = 65_535
    /// 2 GiB: more than any file within the pixel limit needs (an uncompressed 256 Mpixel PNG is 1 GiB).
    public static let defaultMaxFileBytes = 2 << 30
    /// 10 000 frames: over five minutes of a 30 fps animation; the pixels of all frames together
    /// stay bounded by `maxPixels` as well (imgproxy bounds both the same way).
    public static let defaultMaxFrames = 10_000

    /// Limits and choices for decoding: the defaults are the tool's.
    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, autoOrient: Bool = true,
                allowTruncated: Bool = false, maxFileBytes: Int = DecodeOptions.defaultMaxFileBytes,
                assetsRoot: String? = nil) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes
        self.assetsRoot = assetsRoot
        self.autoOrient = autoOrient
        self.allowTruncated = allowTruncated
    }

    func checkBudget(width: Int, height: Int) throws(CodecError) {
        guard width > 0, height > 0 else {
            throw CodecError(.corrupt, "image has zero size (\(width)×\(height))")
        }
        try checkPixels(width: width, height: height, of: "image is")
    }

    /// `frame`, when an animation has `count` frames.
    func frameIndex(of count: Int) throws(CodecError) -> Int {
        guard frame < count else {
            throw CodecError(.unsupported, "there is no frame \(frame): the file has \(count) (--frame counts from 0)")
        }
        return max(frame, 0)
    }

    /// An animation of more than `maxFrames` frames is refused before any is decoded.
    public func checkFrames(_ count: Int) throws(CodecError) {
        guard count <= maxFrames else {
            throw CodecError(.tooLarge, "\(count) frames, more than the limit of \(maxFrames) (see --max-frames)")
        }
    }

    /// Outputs are bounded like inputs: a resize target, a canvas, a sheet is refused before its
    /// memory exists when it has more than `maxPixels` pixels or a side over `maxSide`. `subject`
    /// begins the message ("the result would be").
    public func checkPixels(width: Int, height: Int, of subject: String) throws(CodecError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw CodecError(.tooLarge, "\(subject) \(width)×\(height), more than the limit of \(maxPixels) pixels (see --max-pixels)")
        }
        if max(width, height) > maxSide {
            throw CodecError(.tooLarge, "\(subject) \(width)×\(height), a side longer than the limit of \(maxSide) pixels")
        }
    }

    /// An animation's `frames` frames of `width` × `height` hold at most `maxPixels` pixels together.
    public func checkFrames(_ frames: Int, of width: Int, by height: Int) throws(CodecError) {
        let (pixels, overflow) = (width * height).multipliedReportingOverflow(by: frames)
        if overflow || pixels > maxPixels {
            throw CodecError(.tooLarge, "the \(frames) frames of \(width)×\(height) are more than the limit of \(maxPixels) pixels together (see --max-pixels)")
        }
    }
}

/// How files are written.
public struct EncodeOptions: Sendable, Equatable {
    /// JPEG quality 1...100. From 90 up chroma is kept at full resolution (4:4:4), below it 4:2:0.
    public var quality: Int
    /// Write a progressive JPEG.
    public var progressive: Bool
    /// JPEG chroma resolution; nil: 4:4:4 from quality 90 up, 4:2:0 below.
    public var jpegSubsampling: JPEGSubsampling?
    /// PNG deflate level 0...9. With one filter for every row: 1 is Frost's run-length deflate
    /// (the fastest), the others libdeflate's; with adaptive filtering, zlib's. For lossless
    /// WebP, libwebp's effort preset 0...9; for AVIF, the effort 0...9 (aom's speed 10 − effort);
    /// for HEIC, x265's preset 0...9 (ultrafast … placebo). nil: each format's default
    /// (`defaultPNGLevel`, `defaultWebPEffort`, `defaultAVIFEffort`, `defaultHEICEffort`).
    public var compressionLevel: Int?
    /// PNG row filter: nil for adaptive (libpng tries all five per row), else 0...4.
    public var pngFilter: Int?
    /// WebP: lossy at this quality 0...100, or lossless when nil.
    public var webpQuality: Int?
    /// AVIF: quality 1...100 (100 lossless); nil: `defaultAVIFQuality`.
    public var avifQuality: Int?
    /// HEIC: quality 1...100 on libheif's scale (100 lossless); nil: `defaultHEICQuality`.
    public var heicQuality: Int?
    /// Palette entries 2...256: a GIF's (nil: 256), or a PNG written with a palette instead of
    /// true colour (nil: true colour). Made by libimagequant.
    public var colors: Int?
    /// Floyd–Steinberg dithering strength 0...1 when a palette is made (GIF, `colors`).
    public var dither = 1.0
    /// What transparent pixels are flattened onto for a format without alpha (JPEG).
    public var background: Color
    /// EXIF, XMP, IPTC and resolution to write where the format keeps them (nil: none).
    public var metadata: ImageMetadata?
    /// How many times an animation written plays (0: forever); nil: the animation's own
    /// (`Animation.loops`), forever for one made frame by frame.
    public var loops: Int?

    /// PNG defaults measured on photos, blur caches and UI frames (docs/formats.md, "PNG
    /// settings"): Frost's run-length deflate over Paeth residuals writes several times faster
    /// than libdeflate's level 2 over Up residuals, the default before it, and in fewer bytes.
    public static let defaultPNGLevel = 1
    /// The PNG row filter of the default level.
    public static var defaultPNGFilter: Int? { pngFilter(forLevel: defaultPNGLevel) }
    /// Lossless WebP's default effort (libwebp's preset 2).
    public static let defaultWebPEffort = 2
    /// AVIF's default quality: libavif's own (avifenc's) since 1.0; sharp and libvips use 50.
    public static let defaultAVIFQuality = 60
    /// AVIF's default effort: aom's speed 8, which wrote a 2048×1536 photo in a fifth of speed 6's
    /// time for 2% more bytes (docs/formats.md, "AVIF").
    public static let defaultAVIFEffort = 2
    /// HEIC's default quality: libheif's (heif-enc's), libvips's and sharp's.
    public static let defaultHEICQuality = 50
    /// HEIC's default effort: x265's preset "superfast", which wrote a 2048×1536 photo in less
    /// time and fewer bytes at the same PSNR than the slower presets (docs/formats.md, "HEIC").
    public static let defaultHEICEffort = 1

    /// The filter that goes with a PNG level when none is chosen: none for stored rows (0),
    /// Paeth for the run-length deflate (1), Up for libdeflate's fastest (2), adaptive above.
    public static func pngFilter(forLevel level: Int?) -> Int? {
        switch level ?? defaultPNGLevel {
        case 0: 0
        case 1: 4
        case 2: 2
        default: nil
        }
    }

    /// Encoder settings: JPEG quality and progressive scans, PNG level and filter, WebP quality and effort, metadata.
    public init(quality: Int = 90, progressive: Bool = false,
                compressionLevel: Int? = nil,
                pngFilter: Int? = EncodeOptions.defaultPNGFilter, webpQuality: Int? = nil,
                background: Color = EncodeOptions.defaultBackground) {
        self.quality = quality
        self.progressive = progressive
        self.compressionLevel = compressionLevel
        self.pngFilter = pngFilter
        self.webpQuality = webpQuality
        self.background = background
    }

    /// White, as ImageMagick's -flatten and a page behind a transparent image show it. (libvips
    /// and sharp flatten onto black, which makes a cut-out's background a black box; Frost did too.)
    public static let defaultBackground = Color.white
}
