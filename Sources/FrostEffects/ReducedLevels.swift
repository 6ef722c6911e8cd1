@_spi(Kernels) import FrostCore

/// The reduced levels of `GaussianLevels` (σ ≥ 8, each stored at the factor it is rendered at)
/// from an opaque source read once, in order, strip by strip, and handed out strip by strip: the
/// bytes `GaussianLevels.render` gives those levels, without the source or a level ever whole in
/// memory (a blur cache of a 16000² JPEG, docs/effects.md, "Operating a large catalog").
///
/// The source's box reduction by the smallest factor is the one large plane held: 8.7 samples, 8
/// bytes per reduced pixel, 2 bytes per source pixel at f = 2. A coarser factor's plane is halved
/// from the finer one (`Resample.halved`, the same bits) when the levels reach it, as
/// `GaussianLevels` makes it, and the finer one is then let go. A factor that cannot be halved
/// to (above 8, or with no level at half of it) is reduced from the source in the same pass.
package final class ReducedLevels: @unchecked Sendable {
    /// The levels handled, rising: σ, the factor each is rendered and stored at.
    package let sigmas: [Double]
    let factors: [Int]
    let width: Int
    let height: Int
    let threads: Int
    /// Each factor's margin in blocks: the widest kernel's reach there, plus the one kept.
    let margins: [Int: Int]
    /// The factors reduced from the source as it is read (the others are halved).
    let direct: [Int]
    private let planes = Locked<[Int: PlaneStorage<UInt16>]>([:])

    /// The levels of `sigmas` (rising) that `GaussianLevels` renders reduced, of a `width` ×
    /// `height` source; the others are left out (`sigmas` says which were kept).
    package init(sigmas all: [Double], width: Int, height: Int, threads: Int) {
        let levels = GaussianLevels(sigmas: all, threads: threads)
        sigmas = all.filter { $0 >= 0.3 && GaussianPlan.storageFactor(sigma: $0) > 1 }
        factors = sigmas.map(GaussianPlan.storageFactor(sigma:))
        (self.width, self.height, self.threads) = (width, height, max(1, threads))
        margins = Dictionary(uniqueKeysWithValues: Set(factors).map { ($0, levels.maximumPadding(at: $0) + 1) })
        let present = Set(factors)
        direct = present.sorted().filter { $0 > 8 || !present.contains($0 / 2) }
        for f in direct {
            let m = margins[f]!
            planes.withLock { $0[f] = PlaneStorage(width: Resample.reducedCount(width, factor: f, margin: m),
                                                   height: Resample.reducedCount(height, factor: f, margin: m)) }
        }
    }

    /// Source strips must begin at a multiple of this many rows (and all but the last be one long).
    package var stripAlignment: Int { direct.max() ?? 1 }

    /// The reduced rows that source rows `rows` make (`rows` begins at a multiple of
    /// `stripAlignment`; `source` holds them): strips may come in any order, on any thread.
    package func reduce(_ source: PixelRows, rows: Range<Int>) {
        precondition(source.width == width && source.height == height && rows.lowerBound % stripAlignment == 0)
        for f in direct {
            let m = margins[f]!, plane = planes.withLock { $0[f]! }
            // Reduced row j reads source rows f·(j − m) … f·(j − m) + f − 1, clamped to the image:
            // the top margin rides with the first strip, the bottom one with the last.
            let first = rows.lowerBound == 0 ? 0 : rows.lowerBound / f + m
            let last = rows.upperBound == height ? plane.height : rows.upperBound / f + m
            Resample.boxReduce(source, factor: f, margin: m, threads: 1, rows: first..<last, into: plane)
        }
    }

    /// Level k's stored size (its margin of one block included).
    package func size(_ k: Int) -> (width: Int, height: Int) {
        let f = factors[k], c = margins[f]! - 1
        return (Resample.reducedCount(width, factor: f, margin: margins[f]!) - 2 * c,
                Resample.reducedCount(height, factor: f, margin: margins[f]!) - 2 * c)
    }

    /// Level k's stored rows, `strips` (in order, covering `size(k)`'s height) handed to `body`
    /// one after another with their first row and the distance between rows. Levels are asked for
    /// in rising order, after every source row was reduced: a finer plane is let go once a
    /// coarser level needs none of it.
    package func render(_ k: Int, strips: [Range<Int>], body: (Range<Int>, UnsafePointer<UInt8>, Int) throws -> Void) rethrows {
        let f = factors[k], m = margins[f]!
        let plane = planes.withLock { planes -> PlaneStorage<UInt16> in
            if planes[f] == nil, let parent = planes[f / 2] {
                planes[f] = Resample.halved(parent, factor: f / 2, parentMargin: margins[f / 2]!, imageWidth: width,
                                            imageHeight: height, margin: m, threads: threads)
            }
            for finer in planes.keys where finer < f { planes[finer] = nil }
            return planes[f]!
        }
        guard case .kernel(let weights) = GaussianPlan(sigma: sigmas[k]).method else { preconditionFailure("a reduced level blurs") }
        let kernel = SeparableKernel(weights: weights, threads: threads)
        let (w, h) = size(k)
        let tallest = strips.map(\.count).max() ?? 0
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, tallest * w * 4))
        defer { buffer.deallocate() }
        for strip in strips {
            kernel.run(plane.plane, Plane(base: buffer, width: w, height: h, firstRow: strip.lowerBound), crop: m - 1, rows: strip)
            try body(strip, buffer, w * 4)
        }
    }
}
