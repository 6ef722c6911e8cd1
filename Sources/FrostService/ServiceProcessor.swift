import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects
import FrostStream

/// What a processing URL makes of a source's bytes, in imgproxy's fixed order (its
/// processing.go): trim, rotate and flip, crop, scale (shrink on load included) and the result's
/// crop at the gravity, blur, sharpen, Frost's effect and adjustments, extend, extend to the
/// aspect ratio, padding, an encoder's size limit, flatten onto `bg`, watermark; then converted to
/// sRGB and written without metadata (imgproxy's defaults). The sizes are `ServiceGeometry`'s, all
/// checked against the pixel limit before a pixel is decoded. The resize, blur, effect and
/// adjustments are the library calls `frost resize`, `blur`, `effect` and `adjust` make.
public struct ServiceProcessor: Sendable {
    /// A result: the file's bytes and its format.
    public struct Result: Sendable {
        public let bytes: [UInt8]
        public let format: ImageFormat
        /// The HTTP Content-Type of `format`.
        public var contentType: String { format.contentType }
    }

    /// What a URL gets when it does not say (imgproxy's settings of the same names).
    public struct Defaults: Sendable {
        /// `IMGPROXY_PREFERRED_FORMATS`.
        public var preferredFormats = OutputFormat.defaultPreferred
        /// `IMGPROXY_QUALITY` and `IMGPROXY_FORMAT_QUALITY` (imgproxy's: 80; WebP 79, AVIF 63).
        public var quality = 80
        public var formatQuality: [ImageFormat: Int] = [.webp: 79, .avif: 63]
        /// `IMGPROXY_STRIP_METADATA`, `IMGPROXY_KEEP_COPYRIGHT`, `IMGPROXY_STRIP_COLOR_PROFILE`, `IMGPROXY_AUTO_ROTATE`.
        public var stripMetadata = true, keepCopyright = true, stripColorProfile = true, autoRotate = true
        /// `IMGPROXY_MAX_RESULT_DIMENSION` (0: none): a longer side is scaled down to it.
        public var maxResultDimension = 0
        /// The image `wm:` draws (`--watermark FILE`), and `IMGPROXY_WATERMARK_OPACITY`.
        public var watermark: Image?
        public var watermarkOpacity = 1.0

        public init() {}

        /// The quality of `format` for `options`: `q`, `fq`, the server's per format, the server's.
        func quality(_ format: ImageFormat, _ options: ProcessingOptions) -> Int {
            [options.quality, options.formatQuality[format] ?? 0, formatQuality[format] ?? 0].first { $0 > 0 } ?? quality
        }
    }

    /// Pixels, file size and frames a source may have (imgproxy's `IMGPROXY_MAX_SRC_RESOLUTION`, 50 MP).
    public var limits: DecodeOptions
    /// Threads per request (nil: the compute budget's share).
    public var threads: Int?
    public var defaults = Defaults()

    public init(limits: DecodeOptions = DecodeOptions(maxPixels: 50_000_000), threads: Int? = nil) {
        self.limits = limits
        self.threads = threads
    }

    /// `bytes` processed as `options` say and written as `format` chooses. `frame`: where the
    /// picture comes from instead of decoding `bytes` (a blur cache's frame, at the cache's size),
    /// given whether the request turns the picture by its EXIF orientation.
    /// A source that is not an image, or too large, is a 422 or 413; a result an encoder cannot
    /// hold a 422; the other failures a 500. The work runs under `cancellation`'s stop flag (the
    /// codecs and kernels check it between rows and bands) and it is checked between steps.
    /// `source`: where a decode of these bytes may be kept for the next request, and the source's
    /// identity there (the pixels come out the same from a kept decode).
    public func process(_ bytes: [UInt8], options: ProcessingOptions, format: OutputFormat = OutputFormat(),
                        frame: ((Bool) throws -> Image)? = nil, source: (cache: DecodedSources, identity: String)? = nil,
                        cancellation: Cancellation? = nil) throws(ServiceError) -> Result {
        do {
            guard let cancellation else { return try run(bytes, options, format, frame, source, nil) }
            return try cancellation.during { try run(bytes, options, format, frame, source, cancellation) }
        } catch let error as ServiceError {
            throw error
        } catch let error as CodecError {
            throw Self.serviceError(error)
        } catch {
            throw ServiceError(500, "\(error)")
        }
    }

    /// The status a decoding or encoding failure answers with.
    public static func serviceError(_ error: CodecError) -> ServiceError {
        switch error.kind {
        case .tooLarge: ServiceError(413, "the source: \(error.message)")
        case .corrupt, .truncated, .unknownFormat, .unsupported: ServiceError(422, "the source: \(error.message)")
        case .stopped: ServiceError(499, "the request was abandoned")
        default: ServiceError(500, error.message)
        }
    }

    private func run(_ bytes: [UInt8], _ options: ProcessingOptions, _ choice: OutputFormat, _ frame: ((Bool) throws -> Image)?,
                     _ source: (cache: DecodedSources, identity: String)?, _ cancellation: Cancellation?) throws -> Result {
        guard let kind = ImageFormat(sniffing: bytes) else { throw ServiceError(422, "the source is not a PNG, JPEG, WebP, AVIF, HEIC or GIF file") }
        let info = try ImageInfo(bytes: bytes)
        var limits = self.limits
        limits.autoOrient = options.autoRotate ?? defaults.autoRotate
        let upright = limits.autoOrient && info.orientation >= 5 ? (info.height, info.width) : (info.width, info.height)
        try limits.checkPixels(width: upright.0, height: upright.1, of: "the source is")
        let turned = options.rotate % 180 == 90 ? (upright.1, upright.0) : upright
        let geometry = ServiceGeometry(width: turned.0, height: turned.1, options: options, maxResultDimension: defaults.maxResultDimension)
        try check(geometry, options, limits)
        let transparent = options.background == nil && (info.hasAlpha || options.extend || !options.padding.isEmpty)
        let animated = frame == nil && info.frames > 1
        let format = choice.resolve(source: kind, animated: animated, transparent: transparent, preferred: defaults.preferredFormats)
        // JPEG cannot hold a side past libjpeg's limit; the formats imgproxy scales down are scaled (`fitted`).
        if format == .jpeg {
            let size = geometry.resultSize(options)
            do { try format.checkHolds(width: size.width, height: size.height) } catch {
                throw ServiceError(422, "the result: \(error.message)")
            }
        }
        let q = defaults.quality(format, options)
        var encode = EncodeOptions(quality: q, progressive: false, compressionLevel: nil, pngFilter: EncodeOptions.pngFilter(forLevel: nil),
                                   webpQuality: q, background: options.background ?? EncodeOptions.defaultBackground)
        encode.avifQuality = q
        encode.heicQuality = q
        encode.metadata = metadata(bytes, options, upright: limits.autoOrient)
        let pipeline = Pipeline(processor: self, options: options, format: format, limits: limits, cancellation: cancellation)
        // An animation written as one (GIF, WebP, APNG: what `frost resize` writes it as): every
        // frame through the same steps, the delays and loop count kept.
        if animated, format.keepsAnimation {
            var animation = try Animation(decoding: bytes, options: limits)
            animation.frames = try animation.frames.map { try pipeline.finished($0, geometry) }
            let memory = MemoryFile()
            try animation.write(into: memory, as: format, options: encode)
            return Result(bytes: memory.bytes, format: format)
        }
        var decode = limits
        decode.frame = 0
        decode.requiresEveryFrame = false
        if frame == nil, [.jpeg, .webp].contains(kind), pipeline.shrinksOnLoad {
            decode.reduction = ShrinkOnLoad(steps: [pipeline.scaleStep(geometry)], width: turned.0, height: turned.1).reduction
        }
        let decoded = try frame.map { frame in
            // A frame is at its cache's size (at most --cache-max-side): a scale takes it as a
            // reduced decode; steps that place pixels by the source's coordinates need the source's size.
            let picture = try frame(limits.autoOrient)
            return pipeline.shrinksOnLoad ? picture : picture.resized(width: upright.0, height: upright.1, threads: threads)
        } ?? source.map { source in
            // Kept by what shapes the pixels: the reduction and the orientation (the rest of `decode` is the server's).
            try source.cache.image("\(source.identity)|\(decode.reduction)|\(decode.autoOrient)") { try Image(decoding: bytes, options: decode) }
        } ?? Image(decoding: bytes, options: decode)
        let image = try pipeline.finished(decoded, geometry)
        return Result(bytes: try image.encoded(as: format, options: encode, threads: threads), format: format)
    }

    /// Every picture the steps would make, checked against the pixel limit before any is made (a
    /// fill's scaled image is not made whole: only its crop, whatever the gravity).
    func check(_ geometry: ServiceGeometry, _ options: ProcessingOptions, _ limits: DecodeOptions) throws(CodecError) {
        for size in geometry.stageSizes(options) { try limits.checkPixels(width: size.width, height: size.height, of: "the result would be") }
        if options.gravity.kind == .smart {
            try limits.checkPixels(width: geometry.scaledWidth, height: geometry.scaledHeight, of: "the scaled picture would be")
        }
    }

    /// The metadata written: none (imgproxy's default `sm:1`), or with `sm:0` the source's EXIF,
    /// XMP and IPTC (EXIF's orientation reset when the picture was turned upright).
    private func metadata(_ bytes: [UInt8], _ options: ProcessingOptions, upright: Bool) -> ImageMetadata? {
        guard !(options.stripMetadata ?? defaults.stripMetadata) else { return nil }
        let metadata = ImageMetadata(reading: bytes)
        return upright ? metadata.uprighted() : metadata
    }
}
