import FrostCodecs
import FrostCore

/// The picture a placeholder is hashed from, as `frost placeholder` and the service's `/info`
/// read it: a JPEG or WebP decoded at the largest reduction (1/2, 1/4, 1/8) that keeps 200 pixels
/// along the longer side, twice the 100 a hash shrinks to.
public enum PlaceholderDecode {
    /// The decoded picture and the header it was read with (nil for a header `ImageInfo` cannot read).
    public static func image(_ bytes: [UInt8], options: DecodeOptions) throws -> (image: Image, info: ImageInfo?) {
        var options = options
        let info = try? ImageInfo(bytes: bytes)
        if let info, info.format != .png {
            let long = max(info.width, info.height)
            options.reduction = [8, 4, 2].first { long / $0 >= 200 } ?? 1
        }
        return (try Image(decoding: bytes, options: options), info)
    }
}
