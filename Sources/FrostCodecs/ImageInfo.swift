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

    /// The ICC profile the pixels are read under (`FrostColor.ColorProfile` reads it): the embedded
    /// one, or one the file implies (PNG's cICP, gAMA and cHRM; an AVIF's CICP; EXIF's Adobe RGB;
    /// the default CMYK of a CMYK JPEG); nil for sRGB.
    public var iccProfile: [UInt8]?
    /// Why the embedded profile is not used (another colour space than the pixels', or one lcms2
    /// cannot read or convert from): the pixels are then read as sRGB (CMYK under the default CMYK).
    public var ignoredProfile: String?
    /// An AVIF's or HEIC's CICP (nclx colr box) or a PNG's (cICP chunk), nil where the file has none.
    public var cicp: CICP?

    /// The size the picture shows at: the stored size, turned by an orientation of 5...8.
    public var displaySize: (width: Int, height: Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }
}

/// Colour said by code points (ITU-T H.273), as AVIF and HEIC carry it in an nclx box: primaries
/// (1 BT.709, 9 BT.2020, 12 Display P3…), transfer (13 sRGB, 16 PQ, 18 HLG…), matrix.
public struct CICP: Sendable, Equatable, Codable {
    public let primaries: Int
    public let transfer: Int
    public let matrix: Int

    public init(primaries: Int, transfer: Int, matrix: Int) {
        (self.primaries, self.transfer, self.matrix) = (primaries, transfer, matrix)
    }

    /// PQ (SMPTE ST 2084) or HLG (ARIB STD-B67): high dynamic range.
    public var isHDR: Bool { transfer == 16 || transfer == 18 }

    /// What needs no conversion: BT.709 primaries (or unspecified) with the sRGB curve, BT.709's
    /// (which players show as sRGB) or an unspecified one.
    public var isSRGB: Bool { [1, 2].contains(primaries) && [1, 2, 6, 13, 14, 15].contains(transfer) }
}
