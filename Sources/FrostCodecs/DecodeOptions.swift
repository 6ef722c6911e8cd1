/// How files are read.
public struct DecodeOptions: Sendable, Equatable {
    /// Refuse images whose header declares more pixels than this, before any pixel memory exists.
    public var maxPixels: Int
    /// Turn JPEGs upright according to their EXIF orientation tag.
    public var autoOrient: Bool
    /// Accept a JPEG that ends before its last scan (libjpeg fills the rest gray). Off: an error.
    public var allowTruncated: Bool

    /// 256 Mpixel: 1 GiB of RGBA8.
    public static let defaultMaxPixels = 256_000_000

    public init(maxPixels: Int = DecodeOptions.defaultMaxPixels, autoOrient: Bool = true,
                allowTruncated: Bool = false) {
        self.maxPixels = maxPixels
        self.autoOrient = autoOrient
        self.allowTruncated = allowTruncated
    }

    func checkBudget(width: Int, height: Int) throws(CodecError) {
        guard width > 0, height > 0 else {
            throw CodecError(.corrupt, "image has zero size (\(width)×\(height))")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw CodecError(.tooLarge, "image is \(width)×\(height), more than the limit of "
                + "\(maxPixels) pixels (see --max-pixels)")
        }
    }
}

/// How files are written.
public struct EncodeOptions: Sendable, Equatable {
    /// JPEG quality 1...100. From 90 up chroma is kept at full resolution (4:4:4), below it 4:2:0.
    public var quality: Int
    /// Write a progressive JPEG.
    public var progressive: Bool
    /// PNG deflate level 0...9. With one filter for every row: 1 is Frost's run-length deflate
    /// (the fastest, for blurred and continuous-tone images), the others libdeflate's; with
    /// adaptive filtering, zlib's. For lossless WebP, libwebp's effort preset 0...9.
    public var compressionLevel: Int
    /// PNG row filter: nil for adaptive (libpng tries all five per row), else 0...4.
    public var pngFilter: Int?
    /// WebP: lossy at this quality 0...100, or lossless when nil.
    public var webpQuality: Int?

    /// PNG defaults measured on the sample photos (README, "PNG settings"): level 2 with the Up
    /// filter (libdeflate) writes at several times libpng's default speed for a few percent more
    /// bytes.
    public static let defaultCompressionLevel = 2
    public static let defaultPNGFilter: Int? = 2

    public init(quality: Int = 90, progressive: Bool = false,
                compressionLevel: Int = EncodeOptions.defaultCompressionLevel,
                pngFilter: Int? = EncodeOptions.defaultPNGFilter, webpQuality: Int? = nil) {
        self.quality = quality
        self.progressive = progressive
        self.compressionLevel = compressionLevel
        self.pngFilter = pngFilter
        self.webpQuality = webpQuality
    }
}
