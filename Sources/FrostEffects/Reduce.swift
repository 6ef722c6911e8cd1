@_spi(Kernels) import FrostCore

extension Image {
    /// The image averaged over f×f blocks of the edge-extended image, premultiplied:
    /// ⌈w/f⌉ + 2m × ⌈h/f⌉ + 2m pixels, where block (i, j) covers pixels [f·(i−m), f·(i−m)+f) ×
    /// [f·(j−m), f·(j−m)+f). The m blocks of margin hold the picture's edges, so enlarging back
    /// with the same margin interpolates right up to the border. Each mean is rounded to 1/128
    /// (exact for f = 2, 4, 8) and then to a byte, halves up.
    public func reduced(by f: Int, margin m: Int = 0, threads: Int? = nil) -> Image {
        precondition(f >= 1 && m >= 0)
        let source = premultiplied()
        guard f > 1 || m > 0 else { return source }
        let threads = RowBands.threads(threads)
        return source.withPlane { plane in
            let reduced = Resample.boxReduce(plane, factor: f, margin: m, threads: threads)
            return Image(fixedPoint: reduced.plane, like: source, threads: threads)
        }
    }

    /// A reduced image (see `reduced(by:margin:)`) enlarged bilinearly to `width` × `height`,
    /// pixel centers aligned: how compact cache levels are shown.
    public func enlarged(by f: Int, margin m: Int = 0, toWidth w: Int, height h: Int, threads: Int? = nil) -> Image {
        let source = premultiplied()
        if f == 1 && m == 0 && w == width && h == height { return source }
        return source.withPlane { Image(enlarging: $0, factor: f, margin: m, width: w, height: h, like: source, threads: RowBands.threads(threads)) }
    }

    /// A plane enlarged bilinearly (`Resample.bilinearEnlarge`) into a new premultiplied image
    /// with `like`'s flags.
    init<S: FixedPointSource>(enlarging plane: Plane<S>, factor f: Int, margin m: Int, width w: Int, height h: Int, like: Image, threads: Int) {
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, count in
            Resample.bilinearEnlarge(plane, factor: f, margin: m, into: Plane(base: out.baseAddress!, width: w, height: h), threads: threads)
            count = w * h * 4
        }
        self.init(width: w, height: h, pixels: pixels, isPremultiplied: true, hasAlpha: like.hasAlpha, isGray: like.isGray,
                  iccProfile: like.iccProfile)
    }

    /// The image with m pixels of edge extension on every side.
    func extended(by m: Int) -> Image {
        m > 0 ? cropped(to: bounds.outset(by: m)) : self
    }

    /// Runs `body` over the pixels as a plane (read-only use).
    func withPlane<R>(_ body: (Plane<UInt8>) -> R) -> R {
        pixels.withUnsafeBufferPointer { p in
            body(Plane(base: UnsafeMutablePointer(mutating: p.baseAddress!), width: width, height: height))
        }
    }

    /// An image rounded from an 8.7 plane, with `like`'s flags.
    init(fixedPoint plane: Plane<UInt16>, like: Image, threads: Int) {
        let (w, h) = (plane.width, plane.height)
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, count in
            let dst = Plane(base: out.baseAddress!, width: w, height: h)
            RowBands.run(h, threads: threads, minimumBand: 16) { rows in
                for y in rows { UInt8.store(fixedPointRow: plane.row(y), pixels: w, channels: 4, into: dst.row(y)) }
            }
            count = w * h * 4
        }
        self.init(width: w, height: h, pixels: pixels, isPremultiplied: true, hasAlpha: like.hasAlpha,
                  isGray: like.isGray, iccProfile: like.iccProfile)
    }
}

extension Image {
    /// (1 − t)·A + t·B where A and B are reduced images (see `reduced(by:margin:)`) enlarged
    /// bilinearly to `width` × `height`: one pass, each output row of B blended, as it is made, with
    /// the row of A in 8.7 fixed point (a third lerp, `EnlargedRows`) before the single rounding.
    /// How a crossfade frame is drawn.
    public static func enlargedBlend(_ a: Image, factor fa: Int, margin ma: Int, _ b: Image, factor fb: Int, margin mb: Int,
                                     fraction t: Double, width w: Int, height h: Int, threads: Int? = nil) -> Image {
        let a = a.premultiplied(), b = b.premultiplied()
        let threads = RowBands.threads(threads)
        // t in 0.16; the ends take one image as it is (65 536 has no 16-bit weight).
        let weight = Int((min(max(t, 0), 1) * 65_536).rounded())
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { out, count in
            a.withPlane { pa in
                b.withPlane { pb in
                    let rowsA = EnlargedRows(pa, factor: fa, margin: ma, width: w), rowsB = EnlargedRows(pb, factor: fb, margin: mb, width: w)
                    let dst = Plane(base: out.baseAddress!, width: w, height: h)
                    RowBands.run(h, threads: threads) { band in
                        let scratchA = rowsA.makeScratch(), scratchB = rowsB.makeScratch()
                        defer { scratchA.deallocate(); scratchB.deallocate() }
                        for y in band {
                            switch weight {
                            case 0: rowsA.row(y, scratchA, into: EnlargedByteRow(out: dst.row(y)))
                            case 65_536: rowsB.row(y, scratchB, into: EnlargedByteRow(out: dst.row(y)))
                            default:
                                let sink = EnlargedBlendedRow(other: rowsA.row(y, scratchA), weight: UInt16(weight), out: dst.row(y))
                                rowsB.row(y, scratchB, into: sink)
                            }
                        }
                    }
                }
            }
            count = w * h * 4
        }
        return Image(width: w, height: h, pixels: pixels, isPremultiplied: true, hasAlpha: a.hasAlpha || b.hasAlpha,
                     isGray: a.isGray && b.isGray, iccProfile: a.iccProfile)
    }
}
