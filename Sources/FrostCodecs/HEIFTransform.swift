import FrostCore

/// HEIF turns and mirrors a picture with two properties instead of EXIF's one tag (ISO/IEC
/// 23008-12, 6.5.10 and 6.5.12): `irot`, quarter turns anticlockwise, then `imir`, 0 exchanging
/// top and bottom, 1 left and right. An AVIF's are read and written as the EXIF orientation that
/// shows the pixels the same way.
extension Orientation {
    /// [mirror + 1][turns]: no mirror, top and bottom exchanged, left and right exchanged.
    private static let heif: [[Orientation]] = [[.up, .left, .down, .right],
                                                [.downMirrored, .leftMirrored, .upMirrored, .rightMirrored],
                                                [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored]]

    /// The orientation of `turns` quarter turns anticlockwise then `mirror` (-1 none, 0, 1).
    init(heifTurns turns: Int, mirror: Int) {
        self = Self.heif[min(max(mirror, -1), 1) + 1][turns & 3]
    }

    /// The irot and imir that show the pixels as this orientation does (no mirror when none is needed).
    var heifTransform: (turns: Int, mirror: Int) {
        for mirror in -1...1 {
            if let turns = Self.heif[mirror + 1].firstIndex(of: self) { return (turns, mirror) }
        }
        return (0, -1)
    }
}
