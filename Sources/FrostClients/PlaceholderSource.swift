import Foundation
import FrostColor
import FrostCore
import FrostEffects

/// Why a placeholder could not be made or read.
public struct PlaceholderError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Image {
    /// The pixels a placeholder is computed from: the picture shrunk by area averaging to fit
    /// `maxSide` × `maxSide` (never enlarged; ThumbHash's limit is 100), its shape kept, in sRGB
    /// (a tagged picture converted after the shrink; a hash or a data URL carries no profile), and
    /// untagged. The hashes depend only on these pixels, so the same ones handed to a reference
    /// give the same string.
    public func placeholderSource(maxSide: Int = 100) -> Image {
        let scale = min(1, Double(maxSide) / Double(max(width, height)))
        var source = self
        if scale < 1 {
            let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
            source = resized(width: w, height: h, kernel: .area, threads: 1)
        }
        source = source.inSRGB(threads: 1)
        source.iccProfile = nil
        return source
    }

    /// The pixels as straight RGBA bytes (premultiplied images divided back).
    func straightRGBA() -> [UInt8] {
        isPremultiplied && hasAlpha ? unpremultiplied().pixels : pixels
    }
}

extension Image {
    /// This picture's BlurHash: shrunk to fit 100×100 first, with `BlurHash.components` for its
    /// shape unless given.
    public func blurHash(componentsX: Int? = nil, componentsY: Int? = nil) throws(PlaceholderError) -> String {
        let source = placeholderSource()
        let shape = BlurHash.components(width: source.width, height: source.height)
        return try BlurHash.encode(source, componentsX: componentsX ?? shape.x, componentsY: componentsY ?? shape.y)
    }

    /// This picture's ThumbHash (shrunk to fit 100×100 first), as bytes.
    public func thumbHash() throws(PlaceholderError) -> Data {
        Data(try ThumbHash.encode(placeholderSource()))
    }

    /// The picture a BlurHash stands for, `width` × `height`.
    public init(blurHash: String, width: Int, height: Int, punch: Double = 1) throws(PlaceholderError) {
        self = try BlurHash.decode(blurHash, width: width, height: height, punch: punch)
    }

    /// The picture a ThumbHash stands for, its longer side `size` pixels, its shape the hash's.
    public init(thumbHash: Data, size: Int = 32) throws(PlaceholderError) {
        self = try ThumbHash.decode([UInt8](thumbHash), size: size)
    }
}
