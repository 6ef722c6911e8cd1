@_spi(Kernels) import FrostCore
import FrostTestSupport
import Testing

/// `changedRegion(since:)`, what an APNG frame stores: the exact bounding box of the changed pixels,
/// checked against a pixel-by-pixel scan.
@Suite struct ChangedRegionTests {
    /// The bounding box by brute force.
    static func reference(_ a: Image, _ b: Image) -> PixelBounds? {
        var xs: [Int] = [], ys: [Int] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixels[(y * a.width + x) * 4..<(y * a.width + x) * 4 + 4] != b.pixels[(y * a.width + x) * 4..<(y * a.width + x) * 4 + 4] {
                xs.append(x)
                ys.append(y)
            }
        }
        guard let x0 = xs.min(), let y0 = ys.min() else { return nil }
        return PixelBounds(x: x0, y: y0, width: xs.max()! - x0 + 1, height: ys.max()! - y0 + 1)
    }

    @Test(arguments: [(1, 1), (2, 3), (37, 23), (64, 1), (1, 40)])
    func findsTheBoxOfEveryChange(width: Int, height: Int) {
        let base = noiseImage(width: width, height: height, seed: 5)
        var random = XorShift64(seed: UInt64(width * 1000 + height))
        for trial in 0..<60 {
            var changed = base
            // One to three pixels changed in one channel each (corners included by chance and below).
            for _ in 0..<(1 + trial % 3) {
                let i = Int(random.next() % UInt64(width * height)) * 4 + Int(random.next() % 4)
                changed.pixels[i] &+= 1 + UInt8(random.next() % 255)
            }
            if trial == 0 { changed.pixels[0] &+= 1 }
            if trial == 1 { changed.pixels[changed.pixels.count - 1] &+= 1 }
            #expect(changed.changedRegion(since: base) == Self.reference(changed, base), "trial \(trial)")
        }
        #expect(base.changedRegion(since: base) == PixelBounds(x: 0, y: 0, width: 1, height: 1))
        var other = base
        other.isPremultiplied.toggle()
        #expect(other.changedRegion(since: base) == base.bounds)
    }
}
