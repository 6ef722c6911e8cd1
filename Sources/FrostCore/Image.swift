/// An 8-bit RGBA raster: the one pixel type every Frost module works on.
///
/// Pixels are row-major, 4 bytes per pixel (R, G, B, A), no row padding. Whether the color samples
/// are premultiplied by alpha is recorded, not assumed: decoders hand over what the file holds
/// (straight alpha), effects premultiply on the way in, writers un-premultiply on the way out
/// (docs/design.md, Pixels). `hasAlpha` and `isGray` remember the source's kind so that writing an image
/// back keeps it (an opaque file writes without alpha, gray stays gray).
public struct Image: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// RGBA8 samples, `width * height * 4` bytes.
    public var pixels: [UInt8]
    /// True when R, G and B are already multiplied by A / 255.
    public var isPremultiplied: Bool
    /// The source had an alpha channel (or tRNS transparency). `false` promises that every alpha
    /// is 255: decoders and effects keep that promise, so effects need not scan for it. Writers
    /// still check pixels before dropping alpha, so an image built by hand never loses it.
    public var hasAlpha: Bool
    /// The source was grayscale. Writers write gray only while every pixel still has R == G == B.
    public var isGray: Bool
    /// An embedded ICC profile, carried from input to output untouched.
    public var iccProfile: [UInt8]?

    /// An image over RGBA8 `pixels` (`width` × `height` × 4 bytes, rows packed).
    public init(width: Int, height: Int, pixels: [UInt8], isPremultiplied: Bool = false,
                hasAlpha: Bool = true, isGray: Bool = false, iccProfile: [UInt8]? = nil) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "pixel buffer does not match \(width)×\(height) RGBA8")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.isPremultiplied = isPremultiplied
        self.hasAlpha = hasAlpha
        self.isGray = isGray
        self.iccProfile = iccProfile
    }

    /// A new image filled with one RGBA color (given in the image's own alpha convention).
    public init(width: Int, height: Int, filledWith rgba: (UInt8, UInt8, UInt8, UInt8),
                isPremultiplied: Bool = false) {
        let word = UInt32(rgba.0) | UInt32(rgba.1) << 8 | UInt32(rgba.2) << 16 | UInt32(rgba.3) << 24
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            UnsafeMutableRawPointer(buffer.baseAddress!).initializeMemory(as: UInt32.self, repeating: word.littleEndian, count: width * height)
            count = width * height * 4
        }
        self.init(width: width, height: height, pixels: pixels, isPremultiplied: isPremultiplied,
                  hasAlpha: rgba.3 != 255)
    }

    /// Bytes per row.
    @inlinable public var rowBytes: Int { width * 4 }

    /// The RGBA sample at (x, y).
    public func pixel(x: Int, y: Int) -> SIMD4<UInt8> {
        let i = (y * width + x) * 4
        return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// True when some pixel's alpha is below 255: the pixels' 64-bit words ANDed together (a loop
    /// LLVM vectorises) and their alpha bytes looked at every 4 KiB (a byte a step was 2% of a
    /// `frost cache`).
    public var containsTransparency: Bool {
        pixels.withUnsafeBytes { p in
            // Color bytes set: only the alpha bytes of the AND can fall below 255.
            let colors: UInt64 = 0x00FF_FFFF_00FF_FFFF
            let whole = p.count / 8 * 8
            var start = 0
            while start < whole {
                let end = Swift.min(whole, start + 4096)
                var all = UInt64.max
                for i in stride(from: start, to: end, by: 8) { all &= p.loadUnaligned(fromByteOffset: i, as: UInt64.self) }
                if all | colors != .max { return true }
                start = end
            }
            return stride(from: whole + 3, to: p.count, by: 4).contains { p[$0] != 255 }
        }
    }

    /// True when every pixel has R == G == B.
    public var isVisuallyGray: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i] != p[i + 1] || p[i] != p[i + 2] { return false }
                i += 4
            }
            return true
        }
    }
}

extension Image: CustomStringConvertible {
    /// Size and flags, never the pixels.
    public var description: String {
        "Image(\(width)×\(height)\(isPremultiplied ? " premultiplied" : "")\(hasAlpha ? " alpha" : "")"
            + "\(isGray ? " gray" : "")\(iccProfile != nil ? " icc" : ""))"
    }
}
