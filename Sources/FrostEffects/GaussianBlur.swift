@_spi(Kernels) import FrostCore

extension Image {
    /// A gaussian blur of standard deviation `sigma` pixels (CIGaussianBlur's inputRadius is σ),
    /// edges extended, in premultiplied space; the result is premultiplied.
    ///
    /// Measured against an exact float64 gaussian (rounded to 8 bits) on photo crops for σ from 0.3
    /// to 250: at most 1 level off, mean at most 0.12 (GaussianAccuracyTests). σ < 0.3 returns a copy. The
    /// kernel never exceeds 47 taps, so the cost per pixel is bounded whatever σ (GaussianPlan).
    /// `linear`: blurred in linear light (`LinearLight`), light spreading as light does.
    public func gaussianBlurred(sigma: Double, linear: Bool = false, threads: Int? = nil) -> Image {
        precondition(sigma.isFinite && sigma >= 0, "sigma must be a finite number ≥ 0")
        let plan = GaussianPlan(sigma: sigma)
        guard plan.method != .copy, width > 0, height > 0 else { return premultiplied() }
        let blur = GaussianBlur(plan: plan, threads: RowBands.threads(threads))
        var out = self
        out.isPremultiplied = true
        out.pixels = [UInt8](unsafeUninitializedCapacity: pixels.count) { target, count in
            let dst = Plane(base: target.baseAddress!, width: width, height: height)
            if linear {
                withLinearRows { blur.runLinear($0, dst) }
            } else {
                withPlane { src in readsStraightAlpha ? blur.run(StraightAlphaRows(plane: src), dst) : blur.run(src, dst, opaque: !hasAlpha) }
            }
            count = pixels.count
        }
        return out
    }
}

/// Executes a GaussianPlan on RGBA8 planes: all of them, or a strip of output rows from a window
/// of source rows (`sourceRows` says which), bit for bit the same rows either way.
struct GaussianBlur {
    let plan: GaussianPlan
    let threads: Int

    /// The margin of reduced blocks around the reduced image: the blur's reach plus the
    /// interpolation's one sample.
    private var margin: Int { plan.padding + 1 }

    /// The source rows (of `height`) that output rows `rows` read.
    func sourceRows(for rows: Range<Int>, height: Int) -> Range<Int> {
        let r = plan.padding, f = plan.factor
        guard f > 1 else { return clampedRows(rows.lowerBound - r, rows.upperBound - 1 + r, height) }
        let reduced = reducedRows(for: rows, height: height)
        return clampedRows((reduced.lowerBound - margin) * f, (reduced.upperBound - margin) * f - 1, height)
    }

    /// The reduced rows the blurred rows behind output rows `rows` read.
    private func reducedRows(for rows: Range<Int>, height: Int) -> Range<Int> {
        let rh = Resample.reducedCount(height, factor: plan.factor, margin: margin)
        let enlarged = Resample.enlargedRows(rows, factor: plan.factor, margin: margin, limit: rh)
        return max(enlarged.lowerBound - plan.padding, 0)..<min(enlarged.upperBound + plan.padding, rh)
    }

    /// An `opaque` source (every alpha 255) is blurred in its colors only (SeparableKernel.run).
    /// `rows` picks the output rows to make (all by default); `src` must then hold `sourceRows(for:)`.
    func run<Source: RowSource<UInt8>>(_ src: Source, _ dst: Plane<UInt8>, opaque: Bool = false, rows: Range<Int>? = nil) {
        guard case .kernel(let weights) = plan.method else { return }
        let kernel = SeparableKernel(weights: weights, threads: threads)
        let f = plan.factor
        guard f > 1 else { return kernel.run(src, dst, opaque: opaque, rows: rows) }
        runReduced(kernel, sourceHeight: src.height, dst, rows: rows) {
            Resample.boxReduce(src, factor: f, margin: margin, threads: threads, rows: $0)
        }
    }

    /// What `run` does at a reduction: `reduce` makes the reduced rows it is given (all for nil),
    /// the kernel blurs them, `finish` sees the blurred plane, which is then enlarged into `dst`.
    private func runReduced(_ kernel: SeparableKernel, sourceHeight: Int, _ dst: Plane<UInt8>, rows: Range<Int>?,
                            reduce: (Range<Int>?) -> PlaneStorage<UInt16>, finish: (PlaneStorage<UInt16>) -> Void = { _ in }) {
        let f = plan.factor
        let rh = Resample.reducedCount(sourceHeight, factor: f, margin: margin)
        let reduced = reduce(rows.map { reducedRows(for: $0, height: sourceHeight) })
        let enlarged = rows.map { Resample.enlargedRows($0, factor: f, margin: margin, limit: rh) } ?? 0..<rh
        let blurred = PlaneStorage<UInt16>(width: reduced.width, height: rh, rows: enlarged)
        kernel.run(reduced.plane, blurred.plane, rows: enlarged)
        finish(blurred)
        Resample.bilinearEnlarge(blurred.plane, factor: f, margin: margin, into: dst, threads: threads, rows: rows ?? 0..<dst.height)
    }

    /// `run` in linear light: the box reduction and the kernel on linear 8.7 samples, the blurred
    /// reduced plane encoded back to sRGB 8.7 before its enlargement (interpolating a blur that
    /// smooth between neighbours in sRGB instead of light moves no pixel by a level, and encodes
    /// f² times fewer samples); without a reduction, the kernel's linear rows encoded to bytes.
    /// Premultiplied bytes out, as `run`.
    func runLinear<Bytes: HeldRows>(_ src: LinearRows<Bytes>, _ dst: Plane<UInt8>, rows: Range<Int>? = nil) {
        guard case .kernel(let weights) = plan.method else { return }
        let kernel = SeparableKernel(weights: weights, threads: threads)
        let f = plan.factor, made = rows ?? 0..<dst.height
        guard f > 1 else {
            let linear = PlaneStorage<UInt16>(width: dst.width, height: dst.height, rows: made)
            kernel.run(src, linear.plane, rows: made)
            RowBands.run(made.count, threads: threads) { band in
                for y in (band.lowerBound + made.lowerBound)..<(band.upperBound + made.lowerBound) {
                    LinearLight.encode(linear.plane.row(y), pixels: dst.width, into: dst.row(y))
                }
            }
            return
        }
        runReduced(kernel, sourceHeight: src.height, dst, rows: rows) {
            Resample.linearBoxReduce(src, factor: f, margin: margin, threads: threads, rows: $0)
        } finish: { blurred in
            LinearLight.encode(blurred.storage, pixels: blurred.width * blurred.rows.count)
        }
    }
}
