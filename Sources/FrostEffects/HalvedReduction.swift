@_spi(Kernels) import FrostCore

extension Resample {
    /// The 2f×2f reduction of an image made from its f×f one (`boxReduce`), bit for bit the
    /// same as reducing the image by 2f directly, while 2f ≤ 8: those means are exact in 8.7
    /// (f×f reduced values are 128/f² × an integer sum, so two of them add without overflow, and
    /// the halvings of exact sums drop no bits). Reading the f×f plane instead of the image again
    /// saves a pass over the full-size source and its premultiplication (a blur cache reduces
    /// by 2, 4 and 8).
    ///
    /// Reduced block i (`margin` m′) covers blocks 2(i − m′) + m and the one after of the f×f
    /// plane (`parentMargin` m), clamped to that plane: all its margin blocks repeat the image's
    /// edge (`boxReduce`), so clamping into them extends the edge as reducing the image would.
    static func halved(_ parent: PlaneStorage<UInt16>, factor f: Int, parentMargin m: Int, imageWidth: Int, imageHeight: Int,
                       margin childMargin: Int, threads: Int) -> PlaneStorage<UInt16> {
        precondition([2, 4].contains(f) && m >= 1 && childMargin >= 0, "exact only up to 8×8 blocks, from a plane with margin")
        let g = 2 * f
        let rw = (imageWidth + g - 1) / g + 2 * childMargin, rh = (imageHeight + g - 1) / g + 2 * childMargin
        let out = PlaneStorage<UInt16>(width: rw, height: rh)
        let src = parent.plane, dst = out.plane
        @inline(__always) func parentIndex(_ i: Int, _ limit: Int) -> Int { min(max(i, 0), limit - 1) }
        RowBands.run(rh, threads: threads) { rows in
            for j in rows {
                let p = 2 * (j - childMargin) + m
                let top = src.row(parentIndex(p, src.height)), bottom = src.row(parentIndex(p + 1, src.height))
                let target = dst.row(j)
                for i in 0..<rw {
                    let x0 = parentIndex(2 * (i - childMargin) + m, src.width), x1 = parentIndex(2 * (i - childMargin) + m + 1, src.width)
                    let a = halfSum(load(top + 4 * x0), load(bottom + 4 * x0)), b = halfSum(load(top + 4 * x1), load(bottom + 4 * x1))
                    UnsafeMutableRawPointer(target + 4 * i).storeBytes(of: halfSum(a, b), as: SIMD4<UInt16>.self)
                }
            }
        }
        return out
    }

    /// (a + b) / 2 of two 8.7 values that are both even: exact, and a + b ≤ 65 280 fits.
    @inline(__always) private static func halfSum(_ a: SIMD4<UInt16>, _ b: SIMD4<UInt16>) -> SIMD4<UInt16> { (a &+ b) &>> 1 }

    @inline(__always) private static func load(_ p: UnsafePointer<UInt16>) -> SIMD4<UInt16> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt16>.self)
    }
}
