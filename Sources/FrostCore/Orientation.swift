/// EXIF orientation (TIFF tag 0x0112): how the stored pixels must be turned to show upright.
public enum Orientation: Int, Sendable, CaseIterable {
    /// 1: as stored.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored
    /// 3: turned 180°.
    case down
    /// 4: mirrored top to bottom.
    case downMirrored
    /// 5: mirrored across the main diagonal (transposed).
    case leftMirrored
    /// 6: turned 90° clockwise to show.
    case right
    /// 7: mirrored across the anti-diagonal (transversed).
    case rightMirrored
    /// 8: turned 90° counterclockwise to show.
    case left

    /// An orientation from a raw tag value; 0 and anything outside 1...8 count as `.up`.
    public init(exifValue: Int) {
        self = Orientation(rawValue: exifValue) ?? .up
    }

    /// True for the four orientations that swap width and height (5–8).
    public var swapsAxes: Bool { rawValue >= 5 }
}

extension Image {
    /// The upright picture for pixels stored with the given EXIF orientation.
    ///
    /// Each display pixel (dx, dy) reads stored pixel origin + dx·stepX + dy·stepY, where the origin
    /// and steps (in stored pixels) follow from the tag's definition (TIFF 6.0 / EXIF 2.3 §4.6.4).
    public func oriented(_ orientation: Orientation) -> Image {
        guard orientation != .up else { return self }
        let w = width, h = height
        let (outW, outH) = orientation.swapsAxes ? (h, w) : (w, h)
        let (origin, stepX, stepY): (Int, Int, Int)
        switch orientation {
        case .up: (origin, stepX, stepY) = (0, 1, w)
        case .upMirrored: (origin, stepX, stepY) = (w - 1, -1, w)                   // 2: flip horizontal
        case .down: (origin, stepX, stepY) = (w * h - 1, -1, -w)                    // 3: rotate 180
        case .downMirrored: (origin, stepX, stepY) = ((h - 1) * w, 1, -w)           // 4: flip vertical
        case .leftMirrored: (origin, stepX, stepY) = (0, w, 1)                      // 5: transpose
        case .right: (origin, stepX, stepY) = ((h - 1) * w, -w, 1)                  // 6: rotate 90 CW
        case .rightMirrored: (origin, stepX, stepY) = (w * h - 1, -w, -1)           // 7: transverse
        case .left: (origin, stepX, stepY) = (w - 1, w, -1)                         // 8: rotate 90 CCW
        }
        var out = [UInt32](repeating: 0, count: outW * outH)
        pixels.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt32.self)
            out.withUnsafeMutableBufferPointer { dst in
                for dy in 0..<outH {
                    var s = origin + dy * stepY
                    let row = dy * outW
                    for dx in 0..<outW {
                        dst[row + dx] = src[s]
                        s += stepX
                    }
                }
            }
        }
        let bytes = out.withUnsafeBytes { [UInt8]($0) }
        return Image(width: outW, height: outH, pixels: bytes, isPremultiplied: isPremultiplied,
                     hasAlpha: hasAlpha, isGray: isGray, iccProfile: iccProfile)
    }
}
