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
        let source = try iccProfile.map { bytes throws(ColorError) in try ColorProfile(bytes) }
        if let source, !source.isRGB {
            throw ColorError("a \(source.colorSpace) profile on RGB pixels cannot be converted")
        }
        let tag = target == .sRGB ? nil : ColorProfile.builtIn(target)
        if source == nil || source!.isSRGB, target == .sRGB || ColorProfile.builtIn(target) == nil {
            var same = self
            same.iccProfile = tag
            return same
        }
        var out = try Self.transformed(isPremultiplied ? unpremultiplied() : self, from: source?.bytes, layout: FROST_COLOUR_RGBA,
                                       to: target, intent: intent, threads: threads)
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

    /// Pixels decoded as gray (their red the gray) or CMYK under `profile`, in sRGB: what a decoder
    /// gives for a Gray- or CMYK-tagged file, so that no such profile reaches RGB pixels.
    package static func fromDeviceSpace(_ image: Image, profile: [UInt8], cmyk: Bool = false, inverted: Bool = false,
                                        threads: Int? = nil) throws(ColorError) -> Image {
        let layout = cmyk ? (inverted ? FROST_COLOUR_CMYK_INVERTED : FROST_COLOUR_CMYK) : FROST_COLOUR_GRAY
        var out = try transformed(image, from: profile, layout: layout, to: .sRGB, intent: .relative, threads: threads)
        out.iccProfile = nil
        return out
    }

    private static func transformed(_ image: Image, from source: [UInt8]?, layout: Int, to target: ColorTarget,
                                    intent: RenderingIntent, threads: Int?) throws(ColorError) -> Image {
        var error = frost_error()
        var transform: OpaquePointer?
        let targetBytes: [UInt8] = if case .profile(let bytes) = target { bytes } else { [] }
        let kind = switch target {
        case .sRGB: FROST_COLOUR_SRGB
        case .displayP3: FROST_COLOUR_P3
        case .profile: FROST_COLOUR_GIVEN
        }
        let status = (source ?? []).withUnsafeBufferPointer { source in
            targetBytes.withUnsafeBufferPointer { target in
                frost_colour_transform_create(source.count > 0 ? source.baseAddress : nil, source.count, Int32(layout), Int32(kind),
                                              target.baseAddress, target.count, intent.rawValue, &transform, &error)
            }
        }
        guard status == FROST_OK, let transform else { throw ColorError(error) }
        defer { frost_colour_transform_free(transform) }
        var out = image
        let (width, rowBytes) = (image.width, image.rowBytes)
        // A transform made without lcms2's one-pixel cache can be shared by the bands (colour.c);
        // the gray path keeps a scratch row, so it runs on one.
        let bands = layout == FROST_COLOUR_GRAY ? 1 : RowBands.threads(threads)
        let failed = Locked(false)
        image.pixels.withUnsafeBufferPointer { input in
            out.pixels.withUnsafeMutableBufferPointer { output in
                let (source, target) = (input.baseAddress!, output.baseAddress!)
                RowBands.run(image.height, threads: bands) { rows in
                    var error = frost_error()
                    if frost_colour_transform_rows(transform, source + rows.lowerBound * rowBytes, target + rows.lowerBound * rowBytes,
                                                   width, rows.count, rowBytes, rowBytes, &error) != FROST_OK {
                        failed.withLock { $0 = true }
                    }
                }
            }
        }
        if failed.withLock({ $0 }) { throw ColorError("out of memory") }
        out.isPremultiplied = false
        // A gray picture stays gray where its profile maps every gray to a neutral one.
        out.isGray = layout == FROST_COLOUR_GRAY && out.pixels.withUnsafeBufferPointer { p in
            stride(from: 0, to: p.count, by: 4).allSatisfy { p[$0] == p[$0 + 1] && p[$0] == p[$0 + 2] }
        }
        return out
    }
}
