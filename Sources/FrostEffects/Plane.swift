import FrostCore

/// A borrowed RGBA raster of samples (UInt8 pixels, Float working values, or UInt16 8.7 fixed
/// point from the blur kernels), row-major, no padding.
struct Plane<Sample> {
    let base: UnsafeMutablePointer<Sample>
    let width: Int
    let height: Int

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Sample> { base + y * width * 4 }
    @inline(__always) func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<Sample> { base + (y * width + x) * 4 }
}

/// Loads and stores of one pixel (SIMD4), four adjacent pixels (SIMD16) or a run of whole pixels
/// as Float. UInt8 stores clamp to 0...255 and round to nearest (LaneConversion).
protocol PlaneSample {
    static func loadPixel(_ p: UnsafePointer<Self>) -> SIMD4<Float>
    static func loadQuad(_ p: UnsafePointer<Self>) -> SIMD16<Float>
    static func storePixel(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Self>)
    static func storeQuad(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Self>)
    /// `count` samples (whole pixels) from `p` as Float into `out`.
    static func loadSamples(_ p: UnsafePointer<Self>, count: Int, into out: UnsafeMutablePointer<Float>)
    /// `count` Float samples (whole pixels) from `v`, stored into `p`.
    static func storeSamples(_ v: UnsafePointer<Float>, count: Int, into p: UnsafeMutablePointer<Self>)
}

extension UInt8: PlaneSample {
    @inline(__always) static func loadPixel(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
        LaneConversion.floats(UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt8>.self))
    }
    @inline(__always) static func loadQuad(_ p: UnsafePointer<UInt8>) -> SIMD16<Float> {
        LaneConversion.floats(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self))
    }
    @inline(__always) static func storePixel(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: LaneConversion.bytes(v), as: SIMD4<UInt8>.self)
    }
    @inline(__always) static func storeQuad(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: LaneConversion.bytes(v), as: SIMD16<UInt8>.self)
    }
    /// Not inlined: inside generic callers 16-lane values were split into 4-lane halves (perf
    /// annotate); alone they stay whole vectors.
    @inline(never) static func loadSamples(_ p: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<Float>) {
        var i = 0
        while i + 16 <= count { Float.storeQuad(loadQuad(p + i), out + i); i += 16 }
        while i < count { Float.storePixel(loadPixel(p + i), out + i); i += 4 }
    }
    @inline(never) static func storeSamples(_ v: UnsafePointer<Float>, count: Int, into p: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i + 16 <= count { storeQuad(Float.loadQuad(v + i), p + i); i += 16 }
        while i < count { storePixel(Float.loadPixel(v + i), p + i); i += 4 }
    }
}

extension Float: PlaneSample {
    @inline(__always) static func loadPixel(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
    }
    @inline(__always) static func loadQuad(_ p: UnsafePointer<Float>) -> SIMD16<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self)
    }
    @inline(__always) static func storePixel(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
    }
    @inline(__always) static func storeQuad(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<Float>.self)
    }
    static func loadSamples(_ p: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<Float>) {
        out.update(from: p, count: count)
    }
    static func storeSamples(_ v: UnsafePointer<Float>, count: Int, into p: UnsafeMutablePointer<Float>) {
        p.update(from: v, count: count)
    }
}

/// An owned RGBA raster for intermediate results.
final class PlaneStorage<Sample> {
    let storage: UnsafeMutablePointer<Sample>
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        storage = .allocate(capacity: max(1, width * height * 4))
    }

    deinit { storage.deallocate() }

    var plane: Plane<Sample> { Plane(base: storage, width: width, height: height) }
}
