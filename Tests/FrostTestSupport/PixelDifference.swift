@_spi(Kernels) import FrostCore

/// Largest and mean absolute difference per sample between two images of the same size.
public struct PixelDifference: CustomStringConvertible {
    public let max: Int
    public let mean: Double
    public var description: String { "max \(max), mean \(mean)" }

    /// Compares the first `channels` samples of every pixel (3 ignores alpha), premultiplied
    /// when either image is (straight and premultiplied bytes of one picture differ).
    public init(_ a: Image, _ b: Image, channels: Int = 4) {
        precondition(a.width == b.width && a.height == b.height, "size mismatch")
        let (a, b) = a.isPremultiplied == b.isPremultiplied ? (a, b) : (a.premultiplied(), b.premultiplied())
        var worst = 0
        var total = 0
        var i = 0
        while i < a.pixels.count {
            for c in 0..<channels {
                let d = abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))
                worst = Swift.max(worst, d)
                total += d
            }
            i += 4
        }
        max = worst
        mean = a.pixels.isEmpty ? 0 : Double(total) / Double(a.pixels.count / 4 * channels)
    }
}

/// Marsaglia's xorshift64 (13, 7, 17): deterministic pseudo-random numbers for tests.
public struct XorShift64 {
    private var state: UInt64

    /// `seed` must not be 0 (xorshift stays at 0).
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
}

/// A deterministic pseudo-random image (xorshift), for tests that need arbitrary content.
public func noiseImage(width: Int, height: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15, opaque: Bool = false) -> Image {
    var random = XorShift64(seed: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for i in 0..<pixels.count {
        pixels[i] = UInt8(truncatingIfNeeded: random.next() >> 24)
        if opaque && i % 4 == 3 { pixels[i] = 255 }
    }
    return Image(width: width, height: height, pixels: pixels, hasAlpha: !opaque)
}

/// Whether two images have the same pixels, as one Bool: `#expect(a.pixels == b.pixels)` prints
/// both arrays (megabytes) when it fails; this prints the images' one-line descriptions.
public func identical(_ a: Image, _ b: Image) -> Bool { a.width == b.width && a.pixels == b.pixels }
