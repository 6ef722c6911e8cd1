import CFrostSystem
@_spi(Kernels) import FrostCore

extension Image {
    /// (1 − t)·self + t·other on premultiplied pixels (sizes must match).
    ///
    /// t is quantised to w = round(256·t) and every sample computed as (a·(256 − w) + b·w + 128) >> 8
    /// in 16-bit lanes: t = 0 gives self and t = 1 gives other bit for bit, and the kernel streams
    /// at memory speed. Straight-alpha inputs are premultiplied as they are read (the same bytes as
    /// `premultiplied()` first, without that pass). `BlendKernel.runScalar` is the reference the
    /// tests hold it to. `linear`: mixed in linear light (`LinearLight`), with the same weights.
    public func blended(with other: Image, fraction t: Double, linear: Bool = false, threads: Int? = nil) -> Image {
        precondition(width == other.width && height == other.height, "blend needs images of one size")
        let w = UInt16(min(max((t * 256).rounded(), 0), 256))
        if w == 0 { return premultiplied() }
        if w == 256 { return other.premultiplied() }
        if linear { return linearBlended(with: other, weight: UInt32(w), threads: threads) }
        let count = pixels.count, straight = (readsStraightAlpha, other.readsStraightAlpha)
        var out = self
        out.isPremultiplied = true
        out.hasAlpha = hasAlpha || other.hasAlpha
        out.isGray = isGray && other.isGray
        out.pixels = pixels.withUnsafeBufferPointer { ap in
            other.pixels.withUnsafeBufferPointer { bp in
                [UInt8](unsafeUninitializedCapacity: count) { op, initialized in
                    let x = ap.baseAddress!, y = bp.baseAddress!, o = op.baseAddress!
                    RowBands.run(count / 32, threads: RowBands.threads(threads), minimumBand: 4096) { blocks in
                        let start = 32 * blocks.lowerBound
                        BlendKernel.run(x + start, y + start, into: o + start, count: 32 * blocks.count, weight: w,
                                        premultiplying: straight)
                    }
                    let tail = count % 32
                    if tail > 0 {
                        BlendKernel.runScalar(x + count - tail, y + count - tail, into: o + count - tail, count: tail, weight: w,
                                              premultiplying: straight)
                    }
                    initialized = count
                }
            }
        }
        return out
    }

    /// `blended` on linear 8.7 rows of both images, each row encoded back as it is made.
    private func linearBlended(with other: Image, weight w: UInt32, threads: Int?) -> Image {
        let n = 4 * width
        let pixels = [UInt8](unsafeUninitializedCapacity: self.pixels.count) { out, count in
            withLinearRows { a in
                other.withLinearRows { b in
                    RowBands.run(height, threads: RowBands.threads(threads)) { rows in
                        let x = UnsafeMutablePointer<UInt16>.allocate(capacity: n), y = UnsafeMutablePointer<UInt16>.allocate(capacity: n)
                        defer { x.deallocate(); y.deallocate() }
                        for j in rows {
                            let p = a.row(j, scratch: x), q = b.row(j, scratch: y)
                            for i in 0..<n { x[i] = UInt16((UInt32(p[i]) &* (256 &- w) &+ UInt32(q[i]) &* w &+ 128) &>> 8) }
                            LinearLight.encode(x, pixels: width, into: out.baseAddress! + j * n)
                        }
                    }
                }
            }
            count = self.pixels.count
        }
        return Image(width: width, height: height, pixels: pixels, isPremultiplied: true, hasAlpha: hasAlpha || other.hasAlpha,
                     isGray: isGray && other.isGray, iccProfile: iccProfile)
    }
}

/// The blend row kernel, out of place (reading a and b once, writing once: a copy followed by
/// an in-place pass moved the image through memory twice). 32 samples per step as sixteen
/// UInt16 words: the even bytes are `word & 0xFF`, the odd ones `word >> 8`, so no widening
/// conversion is needed (Swift's generic UInt8 → UInt16 one compiles to a call); each half is
/// mixed in 16-bit lanes (at most 255·256 + 128 < 2¹⁶) and the halves are ORed back. An input
/// with straight alpha is premultiplied in the same halves (`premultipliedHalves`). The result
/// goes out with streaming stores (CFrostSystem): the kernel is memory-bound, and ordinary
/// stores also read every output line first.
enum BlendKernel {
    /// `premultiplying` says which inputs hold straight alpha (then `count` is whole pixels).
    static func run(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                    count: Int, weight w: UInt16, premultiplying: (Bool, Bool) = (false, false)) {
        switch premultiplying {
        case (false, false): run(a, b, into: out, count: count, weight: w, PremultipliedSamples.self, PremultipliedSamples.self)
        case (true, false): run(a, b, into: out, count: count, weight: w, StraightAlphaSamples.self, PremultipliedSamples.self)
        case (false, true): run(a, b, into: out, count: count, weight: w, PremultipliedSamples.self, StraightAlphaSamples.self)
        case (true, true): run(a, b, into: out, count: count, weight: w, StraightAlphaSamples.self, StraightAlphaSamples.self)
        }
    }

    /// One loop per pair of input kinds (generic parameters: a run-time flag inside the loop was
    /// neither unswitched nor kept in vector form, 0.57x).
    private static func run<A: BlendSamples, B: BlendSamples>(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int, weight w: UInt16,
        _: A.Type, _: B.Type
    ) {
        let keep = SIMD16<UInt16>(repeating: 256 - w), take = SIMD16<UInt16>(repeating: w)
        let low = SIMD16<UInt16>(repeating: 0xFF), half = SIMD16<UInt16>(repeating: 128)
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b), ro = UnsafeMutableRawPointer(out)
        let premultiplying = (A.premultiplies, B.premultiplies)
        // The samples before the first 32-byte boundary go through the scalar path (all of them
        // if that would split a pixel to premultiply).
        let unit = A.premultiplies || B.premultiplies ? 4 : 1
        let head = unit * (streamingHead(ro, count: count / unit, unit: unit) ?? count / unit)
        runScalar(a, b, into: out, count: head, weight: w, premultiplying: premultiplying)
        let groups = (count - head) / 32, order = StreamOrder(reading: ra, rb, writing: ro), lead = order.prefetchLead
        for n in 0..<groups {
            let i = head &+ 32 &* order.position(n, of: groups)
            // Two input streams from DRAM: 1.2-1.4x with the prefetch (1 KiB ahead: 1.1x).
            frost_prefetch_at(ra + i, lead); frost_prefetch_at(rb + i, lead)
            let (xEven, xOdd) = A.halves(ra.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt16>.self))
            let (yEven, yOdd) = B.halves(rb.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt16>.self))
            let even = (xEven &* keep &+ yEven &* take &+ half) &>> 8
            let odd = (xOdd &* keep &+ yOdd &* take &+ half) & ~low
            frost_stream_store(ro + i, unsafeBitCast(even | odd, to: SIMD8<UInt32>.self))
        }
        frost_store_fence()
        let done = head + 32 * groups
        if done < count {
            runScalar(a + done, b + done, into: out + done, count: count - done, weight: w, premultiplying: premultiplying)
        }
    }

    /// `runScalar` on inputs of which those flagged hold straight alpha: they are premultiplied
    /// (`premultiplyScalar`) into scratch first; `count` is then whole pixels.
    static func runScalar(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                          count: Int, weight w: UInt16, premultiplying: (Bool, Bool)) {
        guard premultiplying.0 || premultiplying.1 else { return runScalar(a, b, into: out, count: count, weight: w) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * count) { scratch in
            let pa = scratch.baseAddress!, pb = pa + count
            if premultiplying.0 { premultiplyScalar(a, into: pa, pixels: count / 4) } else { pa.update(from: a, count: count) }
            if premultiplying.1 { premultiplyScalar(b, into: pb, pixels: count / 4) } else { pb.update(from: b, count: count) }
            runScalar(pa, pb, into: out, count: count, weight: w)
        }
    }

    static func runScalar(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                          count: Int, weight w: UInt16) {
        for i in 0..<count {
            out[i] = UInt8((UInt32(a[i]) * UInt32(256 - w) + UInt32(b[i]) * UInt32(w) + 128) >> 8)
        }
    }
}

/// How the blend reads 32 bytes of an input: as the even bytes (R, B) and the odd bytes (G, A)
/// of sixteen words, premultiplied.
protocol BlendSamples {
    static var premultiplies: Bool { get }
    static func halves(_ v: SIMD16<UInt16>) -> (even: SIMD16<UInt16>, odd: SIMD16<UInt16>)
}

/// Premultiplied (or opaque) pixels: the bytes as they are.
enum PremultipliedSamples: BlendSamples {
    static let premultiplies = false
    @inline(__always) static func halves(_ v: SIMD16<UInt16>) -> (even: SIMD16<UInt16>, odd: SIMD16<UInt16>) { (v & 0xFF, v &>> 8) }
}

/// Straight-alpha pixels, premultiplied as they are read.
enum StraightAlphaSamples: BlendSamples {
    static let premultiplies = true
    @inline(__always) static func halves(_ v: SIMD16<UInt16>) -> (even: SIMD16<UInt16>, odd: SIMD16<UInt16>) {
        premultipliedHalves(unsafeBitCast(v, to: SIMD8<UInt32>.self))
    }
}
