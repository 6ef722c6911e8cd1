@_spi(Kernels) import FrostCore

extension Image {
    /// Draws `layer` (premultiplied) with its top-left pixel at (x, y) over this premultiplied
    /// image, Porter-Duff source-over at `opacity` (`SourceOver`); whatever falls outside is
    /// clipped. (A watermark; the scenes' layers draw through the same rows with their blend modes.)
    public mutating func drawOver(_ layer: Image, x: Int, y: Int, opacity: Double = 1, threads: Int? = nil) {
        drawRows(of: layer, x: x, y: y, opacity: Self.layerOpacity(opacity), copiesOpaque: true, threads: RowBands.threads(threads)) { from, to, count, k in
            SourceOver.run(from, over: to, into: to, pixels: count, opacity: k, order: StreamOrder(forwards: true))
        }
    }

    /// An opacity 0…1 as the 0…255 the kernels take.
    package static func layerOpacity(_ opacity: Double) -> UInt8 { UInt8(min(max((opacity * 255).rounded(), 0), 255)) }

    /// `row` on each row of `layer` placed at (x, y) that lies over the image, clipped: the layer's
    /// pixels, the image's, their count and the opacity k; rows run in parallel bands. With
    /// `copiesOpaque`, an opaque layer at full opacity is copied instead (over the whole image, it
    /// replaces its pixels without a copy).
    package mutating func drawRows(of layer: Image, x: Int, y: Int, opacity k: UInt8, copiesOpaque: Bool, threads: Int,
                                   _ row: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int, UInt8) -> Void) {
        let area = PixelBounds(x: x, y: y, width: layer.width, height: layer.height).intersection(bounds)
        guard !area.isEmpty, k > 0 else { return }
        let canvasWidth = width, layerWidth = layer.width, copies = copiesOpaque && k == 255 && !layer.hasAlpha
        if copies && x == 0 && y == 0 && layer.width == width && layer.height == height {
            pixels = layer.pixels
            return
        }
        layer.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                RowBands.run(area.height, threads: threads, minimumBand: 32) { rows in
                    for j in rows {
                        let line = area.y + j
                        let from = s + ((line - y) * layerWidth + area.x - x) * 4, to = d + (line * canvasWidth + area.x) * 4
                        if copies { to.update(from: from, count: area.width * 4) } else { row(from, to, area.width, k) }
                    }
                }
            }
        }
    }
}
