import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects
import FrostFiles

extension ServiceProcessor.Pipeline {
    /// `wm:OPACITY:POSITION:X:Y:SCALE` as imgproxy draws it (its processing/watermark.go): the
    /// server's watermark, fitted into SCALE × the picture's size when SCALE is given (enlarged if
    /// need be), drawn at the position with the offsets (× the dpr; it may hang over the edges),
    /// or with `re` tiled over the whole picture from its centre, the offsets the gaps between
    /// tiles. Its opacity is OPACITY × the server's watermark opacity.
    /// A watermark scaled past the pixel limit is a 413.
    func watermarked(_ image: Image, _ mark: Image, _ wm: ProcessingOptions.Watermark, dpr: Double) throws -> Image {
        let (width, height) = (image.width, image.height)
        var tile = mark
        if wm.scale > 0 {
            var fit = ProcessingOptions()
            fit.width = max(PixelRounding.scaleToEven(width, wm.scale), 1)
            fit.height = max(PixelRounding.scaleToEven(height, wm.scale), 1)
            fit.enlarge = true
            let g = ServiceGeometry(width: mark.width, height: mark.height, options: fit)
            try limits.checkPixels(width: g.scaledWidth, height: g.scaledHeight, of: "the watermark would be")
            if (g.scaledWidth, g.scaledHeight) != (mark.width, mark.height) {
                tile = mark.resized(width: g.scaledWidth, height: g.scaledHeight, kernel: options.kernel, threads: processor.threads)
            }
        }
        let opacity = wm.opacity * processor.defaults.watermarkOpacity
        var out = image.premultiplied()
        if wm.position.kind == .replicate {
            func gap(_ offset: Double, _ size: Int) -> Int {
                abs(offset) >= 1 ? PixelRounding.roundToEven(offset * dpr) : PixelRounding.scaleToEven(size, offset)
            }
            // A gap past the picture leaves one tile in it: no wider is drawn.
            let (padX, padY) = (min(max(gap(wm.position.x, width), 0), width), min(max(gap(wm.position.y, height), 0), height))
            tile = tile.embedded(width: tile.width + padX, height: tile.height + padY, x: padX / 2, y: padY / 2, padding: .clear)
            // An odd count of tiles each way, the middle one centred on the picture.
            var across = (width + tile.width - 1) / tile.width, down = (height + tile.height - 1) / tile.height
            if across % 2 == 0 { across += 1 }
            if down % 2 == 0 { down += 1 }
            let (left, top) = ((across * tile.width - width) / 2, (down * tile.height - height) / 2)
            let layer = tile.premultiplied()
            for j in 0..<down {
                for i in 0..<across { out.drawOver(layer, x: i * tile.width - left, y: j * tile.height - top, opacity: opacity, threads: processor.threads) }
            }
        } else {
            let (x, y) = wm.position.position(outer: (width, height), inner: (tile.width, tile.height), dpr: dpr, allowOverflow: true)
            out.drawOver(tile.premultiplied(), x: x, y: y, opacity: opacity, threads: processor.threads)
        }
        return out
    }
}

extension ServiceProcessor.Defaults {
    /// The watermark image of `--watermark FILE` (imgproxy's `IMGPROXY_WATERMARK_PATH`), read
    /// once at start within `limits`, its colours in sRGB.
    public static func watermark(path: String, limits: DecodeOptions) throws -> Image {
        let image = try Image(decoding: try FileIO.read(path, maxBytes: limits.maxFileBytes), options: limits)
        return image.iccProfile == nil ? image : try image.converted(to: .sRGB)
    }
}
