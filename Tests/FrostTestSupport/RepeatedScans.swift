import FrostCodecs
import FrostCore

/// A progressive JPEG (libjpeg's default progression: 10 scans) of a flat `width`² picture with
/// its last scan written `extra` more times before the EOI marker: a few bytes a copy, each
/// costing the decoder a pass over every coefficient (2000 copies in 57 KB took 6 s of CPU on
/// 2048²), so past a scan limit such a file is refused.
public func repeatedScansJPEG(width: Int = 256, extra: Int) throws -> [UInt8] {
    let jpeg = try Image(width: width, height: width, filledWith: (120, 160, 200, 255)).encoded(as: .jpeg, options: EncodeOptions(quality: 80, progressive: true))
    var last: Int?, i = 2
    while i + 4 <= jpeg.count, jpeg[i] == 0xFF, jpeg[i + 1] != 0xD9 {
        let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
        guard jpeg[i + 1] == 0xDA else {
            i += 2 + length
            continue
        }
        last = i
        // Entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
        var j = i + 2 + length
        while j + 1 < jpeg.count, !(jpeg[j] == 0xFF && jpeg[j + 1] != 0 && !(0xD0...0xD7).contains(jpeg[j + 1])) { j += 1 }
        i = j
    }
    let end = jpeg.count - 2
    guard let last, jpeg[end...] == [0xFF, 0xD9] else { throw CodecError(.corrupt, "no scans found in the progressive JPEG made") }
    return Array(jpeg[..<end]) + Array(repeating: Array(jpeg[last..<end]), count: extra).joined() + [0xFF, 0xD9]
}
