import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects
import FrostStream

/// What a processing URL makes of a source's bytes: the same library calls `frost resize`, `blur`,
/// `effect` and `adjust` make (shrink on load included), in imgproxy's fixed order — resize (and
/// its crop), blur, sharpen, Frost's effect and adjustments, extend, flatten onto `bg` — then
/// converted to sRGB and written without metadata, as imgproxy does by default.
public struct ServiceProcessor: Sendable {
    /// A result: the file's bytes and its format.
    public struct Result: Sendable {
        public let bytes: [UInt8]
        public let format: ImageFormat
        /// The HTTP Content-Type of `format`.
        public var contentType: String { Self.contentTypes[format]! }

        static let contentTypes: [ImageFormat: String] = [.png: "image/png", .jpeg: "image/jpeg", .webp: "image/webp",
                                                          .avif: "image/avif", .heic: "image/heic", .gif: "image/gif"]
    }

    /// Pixels, file size and frames a source may have (imgproxy's `IMGPROXY_MAX_SRC_RESOLUTION`, 50 MP).
    public var limits: DecodeOptions
    /// Threads per request (nil: the compute budget's share).
    public var threads: Int?

    public init(limits: DecodeOptions = DecodeOptions(maxPixels: 50_000_000), threads: Int? = nil) {
        self.limits = limits
        self.threads = threads
    }

    /// `bytes` processed as `options` say and written as `format` (nil: the source's own format).
    /// `frame`: where the picture comes from instead of decoding `bytes` (a blur cache's frame, at
    /// the source's size). A source that is not an image, or too large, is a 422 or 413; the other
    /// failures a 500. The work runs under `cancellation`'s stop flag (the codecs and kernels
    /// check it between rows and bands) and it is checked between steps.
    /// `source`: where a decode of these bytes may be kept for the next request, and the source's
    /// identity there (the pixels come out the same from a kept decode).
    public func process(_ bytes: [UInt8], options: ProcessingOptions, format requested: ImageFormat? = nil,
                        frame: (() throws -> Image)? = nil, source: (cache: DecodedSources, identity: String)? = nil,
                        cancellation: Cancellation? = nil) throws(ServiceError) -> Result {
        do {
            guard let cancellation else { return try run(bytes, options, requested, frame, source, nil) }
            return try cancellation.during { try run(bytes, options, requested, frame, source, cancellation) }
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

    private func run(_ bytes: [UInt8], _ options: ProcessingOptions, _ requested: ImageFormat?, _ frame: (() throws -> Image)?,
                     _ source: (cache: DecodedSources, identity: String)?, _ cancellation: Cancellation?) throws -> Result {
        guard let kind = ImageFormat(sniffing: bytes) else { throw ServiceError(422, "the source is not a PNG, JPEG, WebP, AVIF, HEIC or GIF file") }
        let info = try ImageInfo(bytes: bytes)
        let turned = limits.autoOrient && info.orientation >= 5
        let (width, height) = turned ? (info.height, info.width) : (info.width, info.height)
        try limits.checkPixels(width: width, height: height, of: "the source is")
        let plan = ResizePlan(options, width: width, height: height)
        if let box = plan.extensionSize { try limits.checkPixels(width: box.width, height: box.height, of: "the extended result would be") }
        var steps: [FilterStep] = plan.step.map { [$0] } ?? []
        if options.blur > 0 { steps.append(.gaussian(sigma: options.blur)) }
        let format = options.format ?? requested ?? kind
        let q = options.quality
        var encode = EncodeOptions(quality: q, progressive: false, compressionLevel: nil, pngFilter: EncodeOptions.pngFilter(forLevel: nil),
                                   webpQuality: q, background: options.background ?? EncodeOptions.defaultBackground)
        encode.avifQuality = q
        encode.heicQuality = q
        // An animation written as one (GIF, WebP, APNG: what `frost resize` writes it as): every
        // frame through the same steps, the delays and loop count kept.
        if frame == nil, info.frames > 1, [.gif, .webp, .png].contains(format) {
            var animation = try Animation(decoding: bytes, options: limits)
            animation.frames = try animation.frames.map { try finished($0, steps, plan, options, cancellation) }
            let memory = MemoryFile()
            try animation.write(into: memory, as: format, options: encode)
            return Result(bytes: memory.bytes, format: format)
        }
        var decode = limits
        decode.frame = 0
        decode.requiresEveryFrame = false
        if frame == nil, [.jpeg, .webp].contains(kind) {
            let shrink = ShrinkOnLoad(steps: steps, width: width, height: height)
            decode.reduction = shrink.reduction
            steps = shrink.steps
        }
        let decoded = try frame?() ?? source.map { source in
            // Kept by what shapes the pixels: the reduction and the orientation (the rest of `decode` is the server's).
            try source.cache.image("\(source.identity)|\(decode.reduction)|\(decode.autoOrient)") { try Image(decoding: bytes, options: decode) }
        } ?? Image(decoding: bytes, options: decode)
        let image = try finished(decoded, steps, plan, options, cancellation)
        return Result(bytes: try image.encoded(as: format, options: encode, threads: threads), format: format)
    }

    /// A decoded picture through the URL's steps, in imgproxy's order, to sRGB.
    private func finished(_ decoded: Image, _ steps: [FilterStep], _ plan: ResizePlan, _ options: ProcessingOptions,
                          _ cancellation: Cancellation?) throws -> Image {
        func proceed() throws(ServiceError) { try cancellation?.check() }
        var image = decoded
        // Between steps the image goes straight, as `frost run` passes it (FilterFiles.run).
        func straight(_ image: Image) -> Image { image.isPremultiplied && image.hasAlpha ? image.unpremultiplied() : image }
        for (i, step) in steps.enumerated() {
            try proceed()
            image = try step.apply(to: straight(image), limits: limits, threads: threads)
            if i == 0, plan.step != nil { image = plan.cropped(image) }
        }
        try proceed()
        if plan.step == nil { image = plan.cropped(image) }
        if options.sharpen > 0 { image = straight(image).sharpened(sigma: options.sharpen, threads: threads) }
        if let effect = options.effect { image = straight(image).applyEffect(effect, threads: threads) }
        if !options.adjustment.isIdentity { image = straight(image).adjusted(options.adjustment, threads: threads) }
        image = straight(plan.extended(straight(image), background: options.background ?? .clear))
        if let background = options.background, image.hasAlpha { image = image.flattened(onto: background) }
        if image.iccProfile != nil {
            do { image = try image.converted(to: .sRGB, threads: threads) } catch {
                throw ServiceError(422, "the source: cannot convert its colours: \(error.description)")
            }
        }
        try proceed()
        return image
    }
}
