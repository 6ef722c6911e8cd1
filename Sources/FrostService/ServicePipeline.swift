import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects
import FrostStream

extension ServiceProcessor {
    /// The steps of one request on a decoded picture (a still, or each frame of an animation).
    struct Pipeline {
        let processor: ServiceProcessor
        let options: ProcessingOptions
        let format: ImageFormat
        let limits: DecodeOptions
        let cancellation: Cancellation?

        private var threads: Int? { processor.threads }

        /// Whether the scale is the first step, so that a JPEG or WebP can be decoded smaller
        /// (shrink on load, as `frost resize` does): not after a trim, a crop or a turn.
        var shrinksOnLoad: Bool {
            options.trim == nil && options.crop == nil && options.rotate == 0 && !options.flipHorizontal && !options.flipVertical
        }

        /// The scale as `frost resize` takes it (what shrink on load plans from).
        func scaleStep(_ g: ServiceGeometry) -> FilterStep {
            .resize(width: g.scaledWidth, height: g.scaledHeight, fit: .fill, noEnlarge: false, padding: .clear, kernel: options.kernel)
        }

        /// A decoded picture through the URL's steps, in imgproxy's order, to sRGB.
        func finished(_ decoded: Image, _ planned: ServiceGeometry) throws -> Image {
            func proceed() throws(ServiceError) { try cancellation?.check() }
            var image = turned(decoded), geometry = planned
            if let trim = options.trim {
                try proceed()
                if let bounds = image.trimBounds(threshold: trim.threshold, color: trim.color, equalHorizontal: trim.equalHorizontal,
                                                 equalVertical: trim.equalVertical), bounds != image.bounds {
                    image = image.cropped(to: bounds)
                    geometry = ServiceGeometry(width: image.width, height: image.height, options: options,
                                               maxResultDimension: processor.defaults.maxResultDimension)
                    try processor.check(geometry, options, limits)
                }
            }
            if geometry.cropWidth > 0 || geometry.cropHeight > 0 {
                image = cropped(image, width: geometry.cropWidth, height: geometry.cropHeight, options.crop?.gravity ?? options.gravity, dpr: 1)
            }
            try proceed()
            image = scaled(straight(image), geometry)
            if options.blur > 0 {
                try proceed()
                image = try FilterStep.gaussian(sigma: Self.blurSigma(options.blur, image)).apply(to: straight(image), limits: limits, threads: threads)
            }
            try proceed()
            if options.sharpen > 0 { image = straight(image).sharpened(sigma: Self.blurSigma(options.sharpen, image), threads: threads) }
            if let effect = options.effect { image = straight(image).applyEffect(effect, threads: threads) }
            if !options.adjustment.isIdentity { image = straight(image).adjusted(options.adjustment, threads: threads) }
            if options.extend { image = extended(image, width: geometry.targetWidth, height: geometry.targetHeight, options.extendGravity, geometry) }
            if options.extendAspectRatio, geometry.aspectWidth > 0, geometry.aspectHeight > 0 {
                image = extended(image, width: geometry.aspectWidth, height: geometry.aspectHeight, options.extendAspectRatioGravity, geometry)
            }
            let p = geometry.padding(options)
            if !p.isEmpty {
                image = straight(image).embedded(width: image.width + p.left + p.right, height: image.height + p.top + p.bottom,
                                                 x: p.left, y: p.top, padding: options.background ?? .clear)
            }
            try proceed()
            image = fitted(straight(image))
            if let background = options.background, image.hasAlpha { image = straight(image).flattened(onto: background) }
            if let watermark = options.watermark, let mark = processor.defaults.watermark {
                image = try watermarked(image, mark, watermark, dpr: geometry.dprScale)
            }
            if image.iccProfile != nil, options.stripColorProfile ?? processor.defaults.stripColorProfile {
                do { image = try straight(image).converted(to: .sRGB, threads: threads) } catch {
                    throw ServiceError(422, "the source: cannot convert its colours: \(error.description)")
                }
            }
            try proceed()
            return straight(image)
        }

        /// Between steps the picture goes straight, as `frost run` passes it (FilterFiles.run).
        private func straight(_ image: Image) -> Image { image.isPremultiplied && image.hasAlpha ? image.unpremultiplied() : image }

        /// `rot` (clockwise) then `fl`.
        private func turned(_ image: Image) -> Image {
            var image = image
            switch options.rotate {
            case 90: image = image.oriented(.right)
            case 180: image = image.oriented(.down)
            case 270: image = image.oriented(.left)
            default: break
            }
            if options.flipHorizontal { image = image.oriented(.upMirrored) }
            if options.flipVertical { image = image.oriented(.downMirrored) }
            return image
        }

        /// The `width` × `height` part at `gravity` (a size of 0 or past the picture keeps its side).
        private func cropped(_ image: Image, width: Int, height: Int, _ gravity: Gravity, dpr: Double) -> Image {
            let w = PixelRounding.minNonZero(width, image.width), h = PixelRounding.minNonZero(height, image.height)
            guard w < image.width || h < image.height else { return image }
            if gravity.kind == .smart { return image.cropped(to: image.attentionCrop(width: w, height: h)) }
            let (x, y) = gravity.position(outer: (image.width, image.height), inner: (w, h), dpr: dpr)
            return image.cropped(to: PixelBounds(x: x, y: y, width: w, height: h))
        }

        /// The picture scaled, and cut to the result's crop at the gravity: only the crop's pixels are
        /// made (a centred crop and another cost the same), except for `sm`, which looks at them all.
        private func scaled(_ image: Image, _ g: ServiceGeometry) -> Image {
            let (sw, sh) = (g.scaledWidth, g.scaledHeight), (w, h) = g.regionSize
            if options.gravity.kind == .smart {
                let whole = image.width == sw && image.height == sh ? image : image.resized(width: sw, height: sh, kernel: options.kernel, threads: threads)
                return cropped(whole, width: w, height: h, options.gravity, dpr: g.dprScale)
            }
            let (x, y) = options.gravity.position(outer: (sw, sh), inner: (w, h), dpr: g.dprScale)
            let region = PixelBounds(x: x, y: y, width: w, height: h)
            if image.width == sw, image.height == sh { return region == image.bounds ? image : image.cropped(to: region) }
            return image.resized(width: sw, height: sh, keeping: region, kernel: options.kernel, threads: threads)
        }

        /// The picture placed on a `width` × `height` canvas at `gravity`, the rest the background
        /// (transparent without `bg`); a side of 0 keeps the picture's, and a canvas smaller than the
        /// picture on one side cuts it there (as libvips's embed does).
        private func extended(_ image: Image, width: Int, height: Int, _ gravity: Gravity, _ g: ServiceGeometry) -> Image {
            guard width > image.width || height > image.height else { return image }
            let w = width > 0 ? width : image.width, h = height > 0 ? height : image.height
            let (x, y) = gravity.position(outer: (w, h), inner: (image.width, image.height), dpr: g.dprScale)
            var part = straight(image)
            if part.width > w || part.height > h { part = part.cropped(to: PixelBounds(x: 0, y: 0, width: min(w, part.width), height: min(h, part.height))) }
            return part.embedded(width: w, height: h, x: x, y: y, padding: options.background ?? .clear)
        }

        /// Scaled down to the side the format holds, as imgproxy's `fixSize` does: WebP 16383,
        /// AVIF and HEIC 16384, GIF 65535 (JPEG's 65500 is refused before any work instead).
        private func fitted(_ image: Image) -> Image {
            let side: Int? = switch format {
            case .webp: 16383
            case .avif, .heic: 16384
            case .gif: 65535
            default: nil
            }
            guard let side, max(image.width, image.height) > side else { return image }
            let scale = Double(side) / Double(max(image.width, image.height))
            return image.resized(width: max(1, PixelRounding.round(Double(image.width) * scale)),
                                 height: max(1, PixelRounding.round(Double(image.height) * scale)), kernel: options.kernel, threads: threads)
        }

        /// A blur's σ for the kernels (imgproxy sets no bound): at most 64 times the picture's longer
        /// side (measured on a 60×40 gradient: σ = 64 L moves no pixel more than a level from 16 L,
        /// and a larger σ less), and below 2^17, where the gaussian's reduction stops (`GaussianPlan`).
        static func blurSigma(_ sigma: Double, _ image: Image) -> Double {
            min(sigma, 64 * Double(max(image.width, image.height, 1)), 131_071)
        }
    }
}
