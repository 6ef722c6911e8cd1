@_spi(Kernels) import FrostCore
import FrostEffects

extension Image {
    /// Draws `layer` (premultiplied) with its top-left pixel at (x, y) onto this premultiplied
    /// image with a blend mode and opacity; whatever falls outside is clipped. An opaque layer
    /// drawn normally is copied. Rows run in parallel bands. `linear`: blended in linear light
    /// (`LinearComposite`).
    mutating func draw(_ layer: Image, x: Int, y: Int, mode: BlendMode, opacity: Double = 1, linear: Bool = false, threads: Int) {
        let area = PixelBounds(x: x, y: y, width: layer.width, height: layer.height)
            .intersection(bounds)
        let k = UInt8(min(max((opacity * 255).rounded(), 0), 255))
        guard !area.isEmpty, k > 0 else { return }
        let canvasWidth = width, layerWidth = layer.width, copies = mode == .normal && k == 255 && !layer.hasAlpha
        if copies && x == 0 && y == 0 && layer.width == width && layer.height == height {
            pixels = layer.pixels   // an opaque layer over the whole canvas replaces it: no copy
            return
        }
        let table = mode == .normal || linear ? [] : BlendTable.mixed(mode, opacity: k)
        layer.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                let s = src.baseAddress!, d = dst.baseAddress!
                RowBands.run(area.height, threads: threads, minimumBand: 32) { rows in
                    for j in rows {
                        let row = area.y + j
                        let from = s + ((row - y) * layerWidth + area.x - x) * 4, to = d + (row * canvasWidth + area.x) * 4
                        if copies {
                            to.update(from: from, count: area.width * 4)
                        } else if linear {
                            LinearComposite.run(from, to, pixels: area.width, mode: mode, opacity: k)
                        } else if mode == .normal {
                            SourceOver.run(from, over: to, into: to, pixels: area.width, opacity: k, order: StreamOrder(forwards: true))
                        } else {
                            BlendComposite.run(from, to, pixels: area.width, mode: mode, opacity: k, table: table)
                        }
                    }
                }
            }
        }
    }

    /// Every pixel times its coverage (0…255): clips, masks and borders take effect this way.
    mutating func scale(byCoverage coverage: [UInt8]) {
        precondition(coverage.count == width * height, "coverage does not match the image")
        hasAlpha = true
        pixels.withUnsafeMutableBufferPointer { p in
            coverage.withUnsafeBufferPointer { c in CoverageScale.run(p.baseAddress!, coverage: c.baseAddress!, count: c.count) }
        }
    }
}
