import FrostCore

/// RGBA8 rows of an image held in memory, perhaps only some of them: a window of consecutive
/// rows, or a ring the image's rows pass through (a streamed image's decoded rows). Row y lives
/// in slot (y − origin) mod `slots`, so a ring is a window whose rows wrap around.
package struct PixelRows: @unchecked Sendable {
    package let base: UnsafeMutablePointer<UInt8>
    /// The image's size (its rows may be held only in part).
    package let width: Int
    package let height: Int
    /// The row slot 0 holds, and how many slots there are.
    package let origin: Int
    package let slots: Int

    package init(base: UnsafeMutablePointer<UInt8>, width: Int, height: Int, origin: Int = 0, slots: Int? = nil) {
        self.base = base
        self.width = width
        self.height = height
        self.origin = origin
        self.slots = slots ?? height
    }

    /// Row y, which must be held (y ≥ origin, and not yet overwritten in a ring).
    @inline(__always)
    package func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + ((y &- origin) % slots) &* width &* 4 }

    /// Rows `rows`, which must not wrap, as a plane the kernels write.
    func plane(_ rows: Range<Int>) -> Plane<UInt8> {
        precondition((rows.lowerBound - origin) % slots + rows.count <= slots, "a kernel writes consecutive rows")
        return Plane(base: row(rows.lowerBound), width: width, height: height, firstRow: rows.lowerBound)
    }
}

extension PixelRows: RowSource {
    static var makesRows: Bool { false }
    @inline(__always)
    func row(_ y: Int, scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> { UnsafePointer(row(y)) }
}

/// An operation that makes any strip of its output rows from a window of its input rows, the
/// same bytes as the whole-image operation gives on those rows: what a streamed command runs
/// (package FrostStream, docs/design.md, Streaming). Inputs and outputs are opaque RGBA8 (every
/// alpha 255), which premultiplied and straight alpha read alike.
package protocol RowOperation: Sendable {
    var inputWidth: Int { get }
    var inputHeight: Int { get }
    var outputWidth: Int { get }
    var outputHeight: Int { get }
    /// The input rows that output rows `rows` read (never empty for non-empty `rows`).
    func inputRows(for rows: Range<Int>) -> Range<Int>
    /// Output rows `rows` into `output` (which holds them, consecutive) from `input`, which
    /// holds at least `inputRows(for: rows)`; on the calling thread.
    func run(_ input: PixelRows, rows: Range<Int>, into output: PixelRows)
}

/// `gaussianBlurred(sigma:linear:)` of an opaque image, by strips.
package struct GaussianRows: RowOperation {
    package let inputWidth: Int
    package let inputHeight: Int
    let blur: GaussianBlur
    let linear: Bool

    package init(sigma: Double, linear: Bool = false, width: Int, height: Int) {
        precondition(sigma.isFinite && sigma >= 0, "sigma must be a finite number ≥ 0")
        (inputWidth, inputHeight) = (width, height)
        blur = GaussianBlur(plan: GaussianPlan(sigma: sigma), threads: 1)
        self.linear = linear
    }

    package var outputWidth: Int { inputWidth }
    package var outputHeight: Int { inputHeight }

    package func inputRows(for rows: Range<Int>) -> Range<Int> { blur.sourceRows(for: rows, height: inputHeight) }

    package func run(_ input: PixelRows, rows: Range<Int>, into output: PixelRows) {
        guard blur.plan.method != .copy else { return copyRows(input, rows, output) }
        if linear { return blur.runLinear(LinearRows(bytes: input, straightAlpha: false), output.plane(rows), rows: rows) }
        blur.run(input, output.plane(rows), opaque: true, rows: rows)
    }
}

/// `adjusted(_:)` of an opaque image, by strips: a map of each pixel alone.
package struct AdjustRows: RowOperation {
    package let inputWidth: Int
    package let inputHeight: Int
    let kernel: AffineColorKernel
    let gamma: GammaTable?

    package init(_ adjustment: ColorAdjustment, width: Int, height: Int) {
        (inputWidth, inputHeight) = (width, height)
        kernel = adjustment.affineKernel
        gamma = adjustment.gamma != 1 ? GammaTable(power: adjustment.gamma) : nil
    }

    package var outputWidth: Int { inputWidth }
    package var outputHeight: Int { inputHeight }
    package func inputRows(for rows: Range<Int>) -> Range<Int> { rows }

    package func run(_ input: PixelRows, rows: Range<Int>, into output: PixelRows) {
        for y in rows {
            kernel.apply(input.row(y), into: output.row(y), pixels: inputWidth, threads: 1)
            gamma?.apply(output.row(y), pixels: inputWidth, straight: false, threads: 1)
        }
    }
}

/// `resized(width:height:fit:linear:)` of an opaque image, by strips (not `.pad`, and not a size
/// that leaves the image as it is: `init` returns nil for those).
package struct ResizeRows: RowOperation {
    package let inputWidth: Int
    package let inputHeight: Int
    package let outputWidth: Int
    package let outputHeight: Int
    /// One of the two: the sRGB plan, or with `linear` the linear-light one.
    let plan: ResamplePlan?
    let linearPlan: LinearResamplePlan?

    package init?(width: Int, height: Int, toWidth w: Int?, height h: Int?, fit: ResizeFit, kernel: ResampleKernel,
                  linear: Bool = false) {
        guard fit != .pad else { return nil }
        let placement = ResizePlacement(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
        // The same size is the image itself (`resized(width:height:)`), or, for `.cover`, a copy.
        guard placement.rect != Rect(x: 0, y: 0, width: Double(width), height: Double(height)) else { return nil }
        (inputWidth, inputHeight, outputWidth, outputHeight) = (width, height, placement.width, placement.height)
        let region = PixelBounds(x: 0, y: 0, width: placement.width, height: placement.height)
        plan = linear ? nil : ResamplePlan(kernel: kernel, width: width, height: height, over: placement.rect, region: region,
                                           hasAlpha: false)
        linearPlan = linear ? LinearResamplePlan(kernel: kernel, width: width, height: height, over: placement.rect, region: region,
                                                 hasAlpha: false) : nil
    }

    package func inputRows(for rows: Range<Int>) -> Range<Int> { linearPlan?.sourceRows(for: rows) ?? plan!.sourceRows(for: rows) }

    package func run(_ input: PixelRows, rows: Range<Int>, into output: PixelRows) {
        if let linearPlan { return linearPlan.run(LinearRows(bytes: input, straightAlpha: false), rows: rows, into: output.plane(rows)) }
        plan!.run(input, rows: rows, into: output.plane(rows))
    }
}

private func copyRows(_ input: PixelRows, _ rows: Range<Int>, _ output: PixelRows) {
    for y in rows { output.row(y).update(from: input.row(y), count: 4 * input.width) }
}
