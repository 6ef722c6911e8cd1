import FrostCore

/// A borrowed RGBA raster of samples (UInt8 pixels, or UInt16 8.7 fixed point for the blur
/// kernels), row-major, no padding.
struct Plane<Sample> {
    let base: UnsafeMutablePointer<Sample>
    let width: Int
    let height: Int

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Sample> { base + y * width * 4 }
    @inline(__always) func pixel(_ x: Int, _ y: Int) -> UnsafeMutablePointer<Sample> { base + (y * width + x) * 4 }
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
