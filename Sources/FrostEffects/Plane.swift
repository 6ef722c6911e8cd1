import FrostCore

/// A borrowed RGBA raster of samples (UInt8 pixels or Float working values), row-major, no padding.
struct Plane<Sample: PlaneSample> {
    let base: UnsafeMutablePointer<Sample>
    let width: Int
    let height: Int

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Sample> { base + y * width * 4 }
    @inline(__always) func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<Sample> { base + (y * width + x) * 4 }
}

/// Loads and stores of one pixel (SIMD4) or four adjacent pixels (SIMD16) as Float, and of
/// eight adjacent pixels to and from planar Float rows (eight reds, then eight greens, … each
/// `channelStride` floats apart). UInt8 stores clamp to 0...255 and round to nearest (LaneConversion).
protocol PlaneSample {
    static func loadPixel(_ p: UnsafePointer<Self>) -> SIMD4<Float>
    static func loadQuad(_ p: UnsafePointer<Self>) -> SIMD16<Float>
    static func storePixel(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Self>)
    static func storeQuad(_ v: SIMD16<Float>, _ p: UnsafeMutablePointer<Self>)
    static func splitChannels(_ p: UnsafePointer<Self>, into planar: UnsafeMutablePointer<Float>, channelStride: Int)
    static func packChannels(_ planar: UnsafePointer<Float>, channelStride: Int, into p: UnsafeMutablePointer<Self>)
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
    /// Channels cut from eight RGBA words with shifts and masks: vector code, where a byte →
    /// word widening initialiser would be a per-lane call. Not inlined: inside generic callers
    /// the 8-lane values were split into 4-lane halves (perf annotate); alone they stay whole.
    @inline(never) static func splitChannels(_ p: UnsafePointer<UInt8>, into planar: UnsafeMutablePointer<Float>, channelStride s: Int) {
        let words = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt32>.self)
        let byte = SIMD8<UInt32>(repeating: 0xFF)
        let out = UnsafeMutableRawPointer(planar)
        out.storeBytes(of: LaneConversion.floats(words & byte), as: SIMD8<Float>.self)
        out.storeBytes(of: LaneConversion.floats((words &>> 8) & byte), toByteOffset: 4 * s, as: SIMD8<Float>.self)
        out.storeBytes(of: LaneConversion.floats((words &>> 16) & byte), toByteOffset: 8 * s, as: SIMD8<Float>.self)
        out.storeBytes(of: LaneConversion.floats(words &>> 24), toByteOffset: 12 * s, as: SIMD8<Float>.self)
    }
    @inline(never) static func packChannels(_ planar: UnsafePointer<Float>, channelStride s: Int, into p: UnsafeMutablePointer<UInt8>) {
        let v = UnsafeRawPointer(planar)
        @inline(__always) func channel(_ c: Int) -> SIMD8<UInt32> {
            LaneConversion.roundedBytes(v.loadUnaligned(fromByteOffset: 4 * c * s, as: SIMD8<Float>.self))
        }
        let words = channel(0) | channel(1) &<< 8 | channel(2) &<< 16 | channel(3) &<< 24
        UnsafeMutableRawPointer(p).storeBytes(of: words, as: SIMD8<UInt32>.self)
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
    /// A 4×8 transpose written as lane constructions, which LLVM turns into permutes and
    /// blends (about 30 instructions where the per-sample loop moved 64 scalars).
    @inline(never) static func splitChannels(_ p: UnsafePointer<Float>, into planar: UnsafeMutablePointer<Float>, channelStride s: Int) {
        let raw = UnsafeRawPointer(p)
        let q0 = raw.loadUnaligned(as: SIMD8<Float>.self), q1 = raw.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
        let q2 = raw.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self), q3 = raw.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
        let out = UnsafeMutableRawPointer(planar)
        for c in 0..<4 {
            let v = SIMD8<Float>(q0[c], q0[c + 4], q1[c], q1[c + 4], q2[c], q2[c + 4], q3[c], q3[c + 4])
            out.storeBytes(of: v, toByteOffset: 4 * c * s, as: SIMD8<Float>.self)
        }
    }
    @inline(never) static func packChannels(_ planar: UnsafePointer<Float>, channelStride s: Int, into p: UnsafeMutablePointer<Float>) {
        let raw = UnsafeRawPointer(planar)
        let r = raw.loadUnaligned(as: SIMD8<Float>.self), g = raw.loadUnaligned(fromByteOffset: 4 * s, as: SIMD8<Float>.self)
        let b = raw.loadUnaligned(fromByteOffset: 8 * s, as: SIMD8<Float>.self), a = raw.loadUnaligned(fromByteOffset: 12 * s, as: SIMD8<Float>.self)
        let out = UnsafeMutableRawPointer(p)
        for q in 0..<4 {
            let i = 2 * q, j = 2 * q + 1
            out.storeBytes(of: SIMD8<Float>(r[i], g[i], b[i], a[i], r[j], g[j], b[j], a[j]), toByteOffset: 32 * q, as: SIMD8<Float>.self)
        }
    }
}

/// An owned Float RGBA raster for intermediate results.
final class FloatPlane {
    let storage: UnsafeMutablePointer<Float>
    let width: Int
    let height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        storage = .allocate(capacity: max(1, width * height * 4))
    }

    deinit { storage.deallocate() }

    var plane: Plane<Float> { Plane(base: storage, width: width, height: height) }
}
