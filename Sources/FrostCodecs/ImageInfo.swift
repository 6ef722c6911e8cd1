/// What a file's header says, read without decoding pixels (`frost info`).
public struct ImageInfo: Sendable, Equatable, Codable {
    /// PNG, JPEG, WebP, AVIF or HEIC, by content.
    public var format: ImageFormat
    /// Stored size; an orientation of 5...8 shows the picture with width and height swapped.
    public var width: Int
    /// Stored height (see `width`).
    public var height: Int
    /// Channels of the decoded picture: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA (tRNS counts as alpha).
    public var channels: Int
    /// Bits per sample in the file (PNG 1, 2, 4, 8, 16; JPEG and WebP 8; AVIF and HEIC 8, 10, 12).
    public var bitDepth: Int
    /// True when the picture has an alpha channel (or a tRNS chunk).
    public var hasAlpha: Bool
    /// True when the file carries an ICC profile.
    public var hasICCProfile: Bool
    /// EXIF orientation 1...8 (1 when absent or invalid).
    public var orientation: Int
    /// The file's color model: gray, gray+alpha, rgb, rgba, palette (PNG); gray, ycbcr, rgb, cmyk, ycck (JPEG);
    /// lossy, lossless, animated (WebP); yuv444, yuv422, yuv420, gray (AVIF); yuv (HEIC).
    public var colorModel: String
    /// Adam7 (PNG) or progressive (JPEG).
    public var interlaced: Bool
    /// Frames of an animated PNG (acTL), WebP or AVIF sequence; 1 for a still image.
    public var frames: Int = 1
    /// How long an animation plays once, in seconds (0 for a still image, or where the format does not say).
    public var duration: Double = 0
    /// How many times an animation plays (0: forever), as its file says (GIF's NETSCAPE2.0 block,
    /// APNG's num_plays, WebP's ANIM loop count); 0 for a still image.
    public var loops: Int = 0

    /// The embedded ICC profile's bytes (nil without one; `FrostColor.ColorProfile` reads them).
    public var iccProfile: [UInt8]?

    /// The size the picture shows at: the stored size, turned by an orientation of 5...8.
    public var displaySize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }
}
