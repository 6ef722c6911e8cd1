import CFrostCodecs
import FrostColor
@_spi(Kernels) import FrostCore

extension Image {
    /// The file bytes of this image in `format`.
    ///
    /// Premultiplied pixels are un-premultiplied first. PNG keeps the image's kind: gray stays gray
    /// while every pixel is gray, alpha is written when the source had it or some pixel is not
    /// opaque. JPEG has no alpha: a transparent image is flattened onto `options.background`. WebP is lossless unless
    /// `options.webpQuality` is set, and keeps alpha where some pixel is not opaque. AVIF is
    /// 8-bit at `options.avifQuality` (lossless at 100), alpha where some pixel is not opaque,
    /// encoded by aom on `threads` threads. HEIC likewise at `options.heicQuality`, encoded by x265,
    /// upright (an EXIF orientation is applied to the pixels).
    /// A baseline JPEG of more than a few hundred rows is encoded in horizontal strips on `threads`
    /// threads and joined (`JPEGStrips`), and a PNG's run-length deflate in segments of about
    /// 1 MiB: the same bytes on any number of threads, in about half the time on two cores.
    /// `options.metadata` goes where the format keeps it (`ImageMetadata`).
    public func encoded(as format: ImageFormat, options: EncodeOptions = EncodeOptions(), threads: Int? = nil) throws -> [UInt8] {
        let bytes: [UInt8]
        switch format {
        case .png: bytes = try encodedPNG(options, threads: RowBands.threads(threads))
        case .jpeg: bytes = try encodedJPEG(options, threads: RowBands.threads(threads))
        case .webp: bytes = try encodedWebP(options)
        case .avif:
            return try encodedHEIF(.avif, quality: options.avifQuality ?? EncodeOptions.defaultAVIFQuality,
                                   effort: options.compressionLevel ?? EncodeOptions.defaultAVIFEffort, metadata: options.metadata,
                                   threads: RowBands.threads(threads))
        case .heic:
            return try encodedHEIF(.heic, quality: options.heicQuality ?? EncodeOptions.defaultHEICQuality,
                                   effort: options.compressionLevel ?? EncodeOptions.defaultHEICEffort, metadata: options.metadata,
                                   threads: RowBands.threads(threads))
        case .gif:
            let file = MemoryFile()
            try Animation(frames: [self], delay: 0).write(into: file, as: .gif, options: options)
            return file.bytes
        }
        guard let metadata = options.metadata else { return bytes }
        return metadata.inserted(into: bytes, as: format, hasAlpha: hasAlpha, width: width, height: height)
    }

    /// The PNG of `region` (the whole image without one), read where it lies: no copy is made of it.
    func encodedPNG(_ options: EncodeOptions, threads: Int, region: PixelBounds? = nil) throws -> [UInt8] {
        let level = options.compressionLevel ?? EncodeOptions.defaultPNGLevel
        guard (0...9).contains(level) else { throw CodecError(.encode, "PNG compression level \(level) is not in 0...9") }
        if options.colors != nil, let region, region != bounds { return try cropped(to: region).encodedPNG(options, threads: threads) }
        if let colors = options.colors { return try palettePNG(colors: colors, dither: options.dither, level: level) }
        let r = region ?? bounds
        precondition(r.x >= 0 && r.y >= 0 && r.width >= 1 && r.height >= 1 && r.x + r.width <= width && r.y + r.height <= height,
                     "the region lies inside the image")
        // Premultiplied rows are un-premultiplied by the encoder as it packs them (a straight copy
        // first was 7% of a `frost cache` of an RGBA photo, perf). Gray is the same test on
        // either: un-premultiplying treats the three colors alike.
        let gray = isGray && isVisuallyGray
        var pngOptions = frost_png_write_options()
        pngOptions.channels = Int32((gray ? 1 : 3) + (hasAlpha ? 1 : 0))
        // Without `hasAlpha` the encoder still looks at every alpha as it packs the rows, and
        // keeps alpha if one is below 255: a pass of its own over the pixels was 4% of a
        // `frost cache` of an opaque photo (perf).
        pngOptions.alpha_if_needed = 1
        pngOptions.premultiplied = isPremultiplied ? 1 : 0
        pngOptions.compression_level = Int32(level)
        pngOptions.filter = Int32(options.pngFilter ?? -1)
        // The deflate's segments run on threads the C code makes: as many as the budget grants.
        return try RowBands.withThreads(threads) { granted in
            pngOptions.threads = Int32(granted)
            return try withICC { icc, length in
                pngOptions.icc = icc
                pngOptions.icc_length = length
                return try encode(.png) { pixels, out, size, error in
                    frost_png_encode(pixels.map { $0 + r.y * rowBytes + r.x * 4 }, UInt32(r.width), UInt32(r.height), rowBytes,
                                     &pngOptions, out, size, error)
                }
            }
        }
    }

    private func encodedJPEG(_ options: EncodeOptions, threads: Int) throws -> [UInt8] {
        try options.checkJPEG()
        guard width > 0, height > 0 else { throw CodecError(.encode, "cannot write an empty image") }
        let flat = flattened(onto: options.background)
        let gray = isGray && flat.isVisuallyGray
        let strips = JPEGStrips(height: height, mcuRows: options.jpegMCURows(gray: gray), threads: options.progressive ? 1 : threads)
        // Rows of the image as one JPEG; the first strip carries the ICC profile.
        func encodeRows(_ rows: Range<Int>) throws -> [UInt8] {
            try flat.pixels.withUnsafeBufferPointer { pixels in
                try encodeJPEGRows(pixels.baseAddress! + rows.lowerBound * rowBytes, width: width, rows: rows.count, rowBytes: rowBytes,
                                   options: options, gray: gray, restarts: strips.restarts && !options.progressive, iccProfile: rows.lowerBound == 0 ? flat.iccProfile : nil)
            }
        }
        guard strips.count > 1 else { return try encodeRows(0..<height) }
        let parts = ResultSlots<Result<[UInt8], Error>>(count: strips.count)
        RowBands.runEach(strips.count, threads: threads) { i in parts.set(i, Result { try encodeRows(strips.rows(i)) }) }
        return try strips.join(try parts.values.map { try $0.get() })
    }

    private func encodedWebP(_ options: EncodeOptions) throws -> [UInt8] {
        let straight = isPremultiplied ? unpremultiplied() : self
        var webpOptions = try options.webp(hasAlpha: hasAlpha && straight.containsTransparency)
        return try straight.withICC { icc, length in
            webpOptions.icc = icc
            webpOptions.icc_length = length
            return try straight.encode(.webp) { pixels, out, size, error in
                frost_webp_encode(pixels, UInt32(width), UInt32(height), rowBytes, &webpOptions, out, size, error)
            }
        }
    }

    /// This image as an AVIF or a HEIC, 8-bit: its metadata and ICC profile are items of the
    /// container, written by the encoder rather than spliced in afterwards; alpha where some
    /// pixel is not opaque. HEIF readers turn a picture by irot/imir, not by EXIF: an AVIF stores
    /// an EXIF orientation as those too, and its EXIF then says 1 (one signal: a reader that
    /// applied both would turn the picture twice). A HEIC's pixels are turned instead and its EXIF
    /// set upright: libheif 1.15 writes a quarter turn's irot with the turned size in ispe (a
    /// reader that keeps the stored pixels then gets a size that does not match them).
    private func encodedHEIF(_ format: ImageFormat, quality: Int, effort: Int, metadata: ImageMetadata?, threads: Int) throws -> [UInt8] {
        guard (1...100).contains(quality) else { throw CodecError(.encode, "\(format.displayName) quality \(quality) is not in 1...100") }
        let orientation = metadata?.orientation ?? .up, turned = format == .heic && orientation != .up
        let source = turned ? oriented(orientation) : self
        let straight = source.isPremultiplied ? source.unpremultiplied() : source
        let exif = (orientation != .up ? metadata?.uprighted() : metadata)?.fitted(width: source.width, height: source.height).exif ?? []
        let xmp = metadata?.xmp ?? []
        let transform = format == .avif ? orientation.heifTransform : (turns: 0, mirror: -1)
        var options = frost_heif_write_options()
        options.quality = Int32(quality)
        options.effort = Int32(min(max(effort, 0), 9))
        options.has_alpha = hasAlpha && straight.containsTransparency ? 1 : 0
        (options.rotation, options.mirror) = (Int32(transform.turns), Int32(transform.mirror))
        return try RowBands.withThreads(threads) { granted in
            options.threads = Int32(granted)
            if let cicp = straight.iccProfile.flatMap(ColorProfile.cicp(madeFor:)) {
                (options.cicp_primaries, options.cicp_transfer) = (Int32(cicp.primaries), Int32(cicp.transfer))
            }
            return try straight.withICC { icc, length in
                (options.icc, options.icc_length) = (icc, Int(length))
                return try exif.withUnsafeBufferPointer { exif in
                    try xmp.withUnsafeBufferPointer { xmp in
                        (options.exif, options.exif_length) = (exif.baseAddress, exif.count)
                        (options.xmp, options.xmp_length) = (xmp.baseAddress, xmp.count)
                        return try straight.encode(format) { pixels, out, size, error in
                            let (w, h, rowBytes) = (UInt32(straight.width), UInt32(straight.height), straight.rowBytes)
                            return format == .avif ? frost_avif_encode(pixels, w, h, rowBytes, &options, out, size, error)
                                : frost_heic_encode(pixels, w, h, rowBytes, &options, out, size, error)
                        }
                    }
                }
            }
        }
    }

    /// A palette PNG (what pngquant writes): libimagequant's palette of at most `colors`, each
    /// pixel remapped with dithering, written by libpng with its adaptive filters (zlib `level`, at
    /// least 6: a palette image is small and worth it).
    private func palettePNG(colors: Int, dither: Double, level: Int) throws -> [UInt8] {
        let straight = isPremultiplied ? unpremultiplied() : self
        let (indices, palette) = try straight.quantized(colors: colors, dither: dither)
        return try straight.withICC { icc, length in
            try indices.withUnsafeBufferPointer { indices in
                try palette.withUnsafeBufferPointer { entries in
                    try encoderOutput(.png) { out, size, error in
                        frost_png_encode_palette(indices.baseAddress, UInt32(width), UInt32(height), entries.baseAddress,
                                                 UInt32(entries.count / 4), Int32(max(level, 6)), icc, length, out, size, error)
                    }
                }
            }
        }
    }

    /// The pixels as palette indices and the palette (RGBA entries), libimagequant's.
    func quantized(colors: Int, dither: Double) throws -> (indices: [UInt8], palette: [UInt8]) {
        try checkPaletteSize(colors)
        guard width > 0, height > 0 else { throw CodecError(.encode, "cannot write an empty image") }
        var options = frost_quantize_options(colors: Int32(colors), dither: Float(min(max(dither, 0), 1)), speed: 4,
                                             binary_alpha: 0, reserve_transparent: 0)
        var palette = [UInt8](repeating: 0, count: 1024), count: UInt32 = 0, transparent: Int32 = 0
        let indices: [UInt8] = try decodedSamples(count: width * height) { buffer in
            var error = frost_error()
            try check(pixels.withUnsafeBufferPointer { pixels in
                palette.withUnsafeMutableBufferPointer { palette in
                    frost_quantize(pixels.baseAddress, UInt32(width), UInt32(height), 1, &options, buffer.baseAddress,
                                   palette.baseAddress, &count, &transparent, &error)
                }
            }, error, .png)
        }
        return (indices, Array(palette.prefix(Int(count) * 4)))
    }

    private func withICC<R>(_ body: (UnsafePointer<UInt8>?, UInt32) throws -> R) rethrows -> R {
        guard let icc = iccProfile, !icc.isEmpty else { return try body(nil, 0) }
        return try icc.withUnsafeBufferPointer { try body($0.baseAddress, UInt32($0.count)) }
    }

    /// Runs a C encoder that returns a malloc'd buffer and copies it into an array.
    private func encode(
        _ format: ImageFormat,
        _ call: (UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<frost_error>) -> frost_status
    ) throws -> [UInt8] {
        guard width > 0, height > 0 else { throw CodecError(.encode, "cannot write an empty image") }
        return try pixels.withUnsafeBufferPointer { pixels in try encoderOutput(format) { call(pixels.baseAddress, $0, $1, $2) } }
    }
}

extension EncodeOptions {
    /// libwebp's settings for these options (still images and animations alike): lossy at
    /// `webpQuality`, else lossless; `compressionLevel` as the effort.
    func webp(hasAlpha: Bool) throws -> frost_webp_write_options {
        if let quality = webpQuality, !(0...100).contains(quality) {
            throw CodecError(.encode, "WebP quality \(quality) is not in 0...100")
        }
        var options = frost_webp_write_options()
        options.quality = Int32(webpQuality ?? -1)
        options.effort = Int32(min(max(compressionLevel ?? EncodeOptions.defaultWebPEffort, 0), 9))
        options.has_alpha = hasAlpha ? 1 : 0
        options.loops = Int32(clamping: loops ?? 0)
        return options
    }
}

/// A palette (GIF's, a palette PNG's) holds 2…256 entries.
func checkPaletteSize(_ colors: Int) throws(CodecError) {
    guard (2...256).contains(colors) else { throw CodecError(.encode, "a palette of \(colors) colours: 2...256") }
}
