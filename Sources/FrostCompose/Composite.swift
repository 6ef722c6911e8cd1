@_spi(Kernels) import FrostCore
import FrostEffects

extension Image {
    /// Draws `layer` (premultiplied) with its top-left pixel at (x, y) onto this premultiplied
    /// image with a blend mode and opacity; whatever falls outside is clipped. An opaque layer
    /// drawn normally is copied. Rows run in parallel bands. `linear`: blended in linear light
    /// (`LinearComposite`).
    mutating func draw(_ layer: Image, x: Int, y: Int, mode: BlendMode, opacity: Double = 1, linear: Bool = false, threads: Int) {
        let k = Self.layerOpacity(opacity)
        let table = mode == .normal || linear || k == 0 ? [] : BlendTable.mixed(mode, opacity: k)
        drawRows(of: layer, x: x, y: y, opacity: k, copiesOpaque: mode == .normal, threads: threads) { from, to, count, k in
            if linear {
                LinearComposite.run(from, to, pixels: count, mode: mode, opacity: k)
            } else if mode == .normal {
                SourceOver.run(from, over: to, into: to, pixels: count, opacity: k, order: StreamOrder(forwards: true))
            } else {
                BlendComposite.run(from, to, pixels: count, mode: mode, opacity: k, table: table)
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
