@_spi(Kernels) import FrostCore

/// Multiplies premultiplied RGBA8 pixels by a coverage (0…255 per pixel), rounded to nearest:
/// how clips and masks take effect before a layer is composited.
enum CoverageScale {
    static func run(_ pixels: UnsafeMutablePointer<UInt8>, coverage: UnsafePointer<UInt8>, count: Int) {
        for p in 0..<count {
            let k = UInt32(coverage[p])
            if k == 255 { continue }
            for c in 0..<4 { pixels[4 * p + c] = UInt8(divideBy255(UInt32(pixels[4 * p + c]) * k)) }
        }
    }
}
