import CFrostCodecs
@_spi(Kernels) import FrostCore

/// Pixels moved from the space their profile says into another, by lcms2 (ICC.1, its transforms
/// with 8-bit tables): rows in bands on the threads the budget grants, on straight alpha (the
/// alpha kept). The policy that decides when (docs/formats.md, "Colour") is the callers'.
extension Image {
    /// The image in `target`, tagged with its profile (untagged for sRGB); with no profile, or an
    /// sRGB one, the pixels are sRGB already and only the tag changes. A Gray or CMYK profile on
    /// these (RGBA) pixels is refused: such pixels were converted when decoded.
    public func converted(to target: ColorTarget, intent: RenderingIntent = .relative, threads: Int? = nil) throws(ColorError) -> Image {
        try converted(to: target, intent: intent, threads: threads, engine: .automatic)
    }

    /// Who converts: the matrix/TRC fast path where both profiles allow it, else lcms2's transform
    /// (`automatic`); or lcms2's always (the reference the tests and `frost bench` compare with).
    package enum ColorEngine: Sendable { case automatic, lcms2, fastScalar }

    package func converted(to target: ColorTarget, intent: RenderingIntent, threads: Int?, engine: ColorEngine) throws(ColorError) -> Image {
        let source = try iccProfile.map { bytes throws(ColorError) in try ColorProfile(bytes) }
        if let source, !source.isRGB {
            throw ColorError("a \(source.colorSpace) profile on RGB pixels cannot be converted")
        }
        let tag = target == .sRGB ? nil : ColorProfile.builtIn(target)
        if source == nil || source!.isSRGB(for: intent), target == .sRGB || ColorProfile.builtIn(target) == nil {
            var same = self
            same.iccProfile = tag
            return same
        }
        var out = try Self.transformed(isPremultiplied ? unpremultiplied() : self, from: source?.bytes, layout: FROST_COLOUR_RGBA,
                                       to: target, intent: intent, threads: threads, engine: engine)
        out.iccProfile = tag
        return out
    }

    /// sRGB pixels for what holds no profile (GIF, placeholders, data URLs): the image itself when
    /// untagged or sRGB-tagged (so those paths stay byte for byte what they were); else converted
    /// (relative colorimetric). A profile lcms2 cannot use leaves the pixels as they are, untagged.
    public func inSRGB(threads: Int? = nil) -> Image {
        guard let bytes = iccProfile else { return self }
        if let profile = try? ColorProfile(bytes), profile.isSRGB { return self }
        if let converted = try? converted(to: .sRGB, threads: threads) { return converted }
        var untagged = self
        untagged.iccProfile = nil
        return untagged
    }

    /// Pixels decoded as gray (their red the gray) or CMYK under `profile`, in sRGB by `intent`:
    /// what a decoder gives for a Gray- or CMYK-tagged file, so that no such profile reaches RGB
    /// pixels. A gray picture stays gray where the profile maps every gray to a neutral one.
    package static func fromDeviceSpace(_ image: Image, profile: [UInt8], cmyk: Bool = false, inverted: Bool = false,
                                        intent: RenderingIntent = .relative, threads: Int? = nil) throws(ColorError) -> Image {
        let layout = cmyk ? (inverted ? FROST_COLOUR_CMYK_INVERTED : FROST_COLOUR_CMYK) : FROST_COLOUR_GRAY
        var out = try transformed(image, from: profile, layout: layout, to: .sRGB, intent: intent, threads: threads)
        out.iccProfile = nil
        return out
    }

    private static func transformed(_ image: Image, from source: [UInt8]?, layout: Int, to target: ColorTarget,
                                    intent: RenderingIntent, threads: Int?, engine: ColorEngine = .automatic) throws(ColorError) -> Image {
        let transform = try RowColorTransform(from: source, layout: layout, to: target, intent: intent, engine: engine)
        var out = image
        let (width, rowBytes) = (image.width, image.rowBytes)
        let failed = Locked(false)
        image.pixels.withUnsafeBufferPointer { input in
            out.pixels.withUnsafeMutableBufferPointer { output in
                let (source, target) = (input.baseAddress!, output.baseAddress!)
                RowBands.run(image.height, threads: RowBands.threads(threads)) { rows in
                    if !transform.apply(source + rows.lowerBound * rowBytes, into: target + rows.lowerBound * rowBytes, width: width,
                                        rows: rows.count, rowBytes: rowBytes) {
                        failed.withLock { $0 = true }
                    }
                }
            }
        }
        if failed.withLock({ $0 }) { throw ColorError("out of memory") }
        out.isPremultiplied = false
        out.isGray = transform.keepsGray
        return out
    }
}

/// One conversion made ready for rows: the matrix/TRC fast path where both profiles allow it (RGBA
/// rows), else lcms2's transform; what whole images and the streamed executor's strips both run.
/// Threads share it: the fast path's tables, an lcms2 transform without its one-pixel cache and a
/// gray transform's table are read only (colour.c).
package final class RowColorTransform: @unchecked Sendable {
    private let fast: OpaquePointer?
    private let lcms: OpaquePointer?
    private let scalar: Bool

    /// From `source` (nil: sRGB) rows in `layout` (colour.c's FROST_COLOUR_RGBA, CMYK, …) to `target`.
    package init(from source: [UInt8]?, layout: Int = Int(FROST_COLOUR_RGBA), to target: ColorTarget, intent: RenderingIntent,
                 engine: Image.ColorEngine = .automatic) throws(ColorError) {
        let targetBytes: [UInt8] = if case .profile(let bytes) = target { bytes } else { [] }
        let kind = switch target {
        case .sRGB: FROST_COLOUR_SRGB
        case .displayP3: FROST_COLOUR_P3
        case .profile: FROST_COLOUR_GIVEN
        }
        let source = source ?? []
        fast = layout == FROST_COLOUR_RGBA && engine != .lcms2 ? source.withUnsafeBufferPointer { source in
            targetBytes.withUnsafeBufferPointer { target in
                frost_colour_fast_create(source.count > 0 ? source.baseAddress : nil, source.count, Int32(kind), target.baseAddress,
                                         target.count, intent.rawValue)
            }
        } : nil
        scalar = engine == .fastScalar
        guard fast == nil else {
            lcms = nil
            return
        }
        var transform: OpaquePointer?, error = frost_error()
        let status = source.withUnsafeBufferPointer { source in
            targetBytes.withUnsafeBufferPointer { target in
                frost_colour_transform_create(source.count > 0 ? source.baseAddress : nil, source.count, Int32(layout), Int32(kind),
                                              target.baseAddress, target.count, intent.rawValue, &transform, &error)
            }
        }
        guard status == FROST_OK, let transform else { throw ColorError(error) }
        lcms = transform
    }

    deinit {
        frost_colour_fast_free(fast)
        frost_colour_transform_free(lcms)
    }

    /// Gray rows whose every gray comes out neutral: the picture stays gray (written as gray).
    package var keepsGray: Bool { lcms.map { frost_colour_transform_keeps_gray($0) != 0 } ?? false }

    /// The matrix/TRC fast path converts (not lcms2's transform).
    package var isFastPath: Bool { fast != nil }

    /// `rows` rows of `width` pixels from `input` into `output` (the same rows may be both);
    /// false when out of memory.
    package func apply(_ input: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>, width: Int, rows: Int,
                       rowBytes: Int, outputRowBytes: Int? = nil) -> Bool {
        let outputRowBytes = outputRowBytes ?? rowBytes
        if let fast {
            if scalar {
                frost_colour_fast_rows_scalar(fast, input, output, width, rows, rowBytes, outputRowBytes)
            } else {
                frost_colour_fast_rows(fast, input, output, width, rows, rowBytes, outputRowBytes)
            }
            return true
        }
        var error = frost_error()
        return frost_colour_transform_rows(lcms, input, output, width, rows, rowBytes, outputRowBytes, &error) == FROST_OK
    }
}
