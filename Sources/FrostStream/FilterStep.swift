import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects

/// An operation of a filter command, defined once here for whole images (`apply`) and for strips
/// (`StreamedFilter`): what `blur --sigma`, `adjust` and `resize` do.
package enum FilterStep: Sendable, Equatable {
    /// `linear`: in linear light (`Image.gaussianBlurred(sigma:linear:)`).
    case gaussian(sigma: Double, linear: Bool = false)
    case adjust(ColorAdjustment)
    /// `noEnlarge`: a result larger than the image leaves it as it is. `padding` fills `.pad`'s box.
    /// `linear`: in linear light.
    case resize(width: Int?, height: Int?, fit: ResizeFit, noEnlarge: Bool, padding: Color, kernel: ResampleKernel = .default,
                linear: Bool = false)
    /// The colours converted from the input's profile (`source`, nil: sRGB) to `target`: the last
    /// step of a command with `--colorspace` (after a shrink: fewer pixels), by rows when streamed.
    case color(source: [UInt8]?, target: ColorTarget, intent: RenderingIntent)

    /// Whether `StreamedFilter` runs it (all but `.pad`, whose box is drawn around a whole result).
    package var streams: Bool {
        if case .resize(_, _, .pad, _, _, _, _) = self { false } else { true }
    }

    /// The step on a whole image; a resize larger than `limits` allow is refused.
    package func apply(to image: Image, limits: DecodeOptions, threads: Int?) throws -> Image {
        switch self {
        case .gaussian(let sigma, let linear): return image.gaussianBlurred(sigma: sigma, linear: linear, threads: threads)
        case .adjust(let adjustment): return image.adjusted(adjustment, threads: threads)
        case .resize(let w, let h, let fit, _, let padding, let kernel, let linear):
            guard try resizes(width: image.width, height: image.height, limits: limits) else { return image }
            return image.resized(width: w, height: h, fit: fit, padding: padding, kernel: kernel, linear: linear, threads: threads)
        case .color(_, let target, let intent):
            do { return try image.converted(to: target, intent: intent, threads: threads) } catch {
                throw CodecError(.unsupported, "cannot convert its colours: \(error.description)")
            }
        }
    }

    /// The size the step makes of an image of `width` × `height`.
    package func size(width: Int, height: Int) -> (width: Int, height: Int) {
        guard case .resize(let w, let h, let fit, let noEnlarge, _, _, _) = self else { return (width, height) }
        let size = ResizePlacement.size(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
        return noEnlarge && (size.width > width || size.height > height) ? (width, height) : size
    }

    /// Whether a resize changes an image of `width` × `height` (not when `noEnlarge` keeps it);
    /// a result larger than `limits` allow is refused before its memory exists.
    func resizes(width: Int, height: Int, limits: DecodeOptions) throws -> Bool {
        guard case .resize(let w, let h, let fit, let noEnlarge, _, _, _) = self else { return false }
        let size = ResizePlacement.size(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
        if noEnlarge, size.width > width || size.height > height { return false }
        try limits.checkPixels(width: size.width, height: size.height, of: "the result would be")
        return true
    }
}

/// Shrink on load (docs/design.md, Streaming): where a command begins with a resize that shrinks
/// (after steps that map pixels alone), a JPEG is decoded at 1/2, 1/4 or 1/8 of its size by
/// libjpeg's DCT scaling, the largest reduction that still leaves the resize a shrink of at
/// least 2 on both axes, so that its area average still decides the result (as libvips's
/// thumbnail does). The resize then names the size it would have made from the whole image. Not
/// before a resize in linear light: the DCT's reduction averages gamma-encoded values.
package struct ShrinkOnLoad: Sendable, Equatable {
    package private(set) var reduction = 1
    package private(set) var steps: [FilterStep]

    /// The steps as they are, for a format without a reduced decode (PNG).
    package init(unreduced steps: [FilterStep]) {
        self.steps = steps
    }

    /// For an image of `width` × `height` as the steps see it (turned upright).
    package init(steps: [FilterStep], width: Int, height: Int) {
        self.steps = steps
        guard let index = steps.firstIndex(where: { if case .resize = $0 { true } else { false } }),
              steps[..<index].allSatisfy({ if case .adjust = $0 { true } else { false } }),
              case .resize(let w, let h, let fit, let noEnlarge, let padding, let kernel, false) = steps[index], fit != .pad else { return }
        let placement = ResizePlacement(sourceWidth: width, sourceHeight: height, width: w, height: h, fit: fit)
        let shrink = min(Double(width) / placement.rect.width, Double(height) / placement.rect.height)
        guard let r = [8, 4, 2].first(where: { shrink >= Double(2 * $0) }) else { return }
        reduction = r
        self.steps[index] = fit == .cover
            ? .resize(width: placement.width, height: placement.height, fit: .cover, noEnlarge: noEnlarge, padding: padding, kernel: kernel)
            : .resize(width: placement.width, height: placement.height, fit: .fill, noEnlarge: noEnlarge, padding: padding, kernel: kernel)
    }
}
