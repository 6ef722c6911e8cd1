import FrostCore

/// A borrowed RGBA raster of samples (UInt8 pixels, or UInt16 8.7 fixed point for the blur
/// kernels), row-major, no padding.
///
/// A plane may hold only a window of its image's rows (a strip of a streamed image): `height` is
/// the whole image's, which kernels clamp their row coordinates to, and `base` holds rows from
/// `firstRow` on. Kernels only ever reach a row through `row(_:)`, so the same code runs on a
/// whole image and on a window (package FrostStream, docs/design.md, Streaming).
struct Plane<Sample> {
    let base: UnsafeMutablePointer<Sample>
    let width: Int
    let height: Int
    /// The image row `base` holds (0 for a whole image).
    var firstRow = 0

    init(base: UnsafeMutablePointer<Sample>, width: Int, height: Int, firstRow: Int = 0) {
        self.base = base
        self.width = width
        self.height = height
        self.firstRow = firstRow
    }

    @inline(__always) func row(_ y: Int) -> UnsafeMutablePointer<Sample> { base + (y &- firstRow) &* width &* 4 }
}

/// An owned RGBA raster for intermediate results: rows `rows` of an image `height` rows tall
/// (all of them unless told).
final class PlaneStorage<Sample> {
    let storage: UnsafeMutablePointer<Sample>
    let width: Int
    let height: Int
    let rows: Range<Int>

    init(width: Int, height: Int, rows: Range<Int>? = nil) {
        self.width = width
        self.height = height
        self.rows = rows ?? 0..<height
        storage = .allocate(capacity: max(1, width * self.rows.count * 4))
    }

    deinit { storage.deallocate() }

    var plane: Plane<Sample> { Plane(base: storage, width: width, height: height, firstRow: rows.lowerBound) }
}

/// The rows first…last (inclusive, either may lie outside the image) clamped to an image `height`
/// rows tall: the rows a kernel that clamps its row coordinates reads for them.
func clampedRows(_ first: Int, _ last: Int, _ height: Int) -> Range<Int> {
    min(max(first, 0), height - 1)..<(min(max(last, 0), height - 1) + 1)
}
