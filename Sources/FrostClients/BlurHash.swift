import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// BlurHash (Wolt, github.com/woltapp/blurhash): an image as a few cosine components in 20–30
/// characters of base 83, which a client decodes into a blurred placeholder while the picture
/// loads. The encoder follows the reference C implementation (what PyPI's `blurhash-python` runs)
/// operation for operation in single precision, so that the same pixels give the same string.
/// BlurHash has no alpha: transparent pixels count by their color, as the reference reads RGB.
public enum BlurHash {
    /// The hash of `image`'s straight RGB with `componentsX` × `componentsY` components (1…9 each).
    /// Cost grows with pixels × components: hand it a small image (`Image.placeholderSource`).
    public static func encode(_ image: Image, componentsX: Int, componentsY: Int) throws(PlaceholderError) -> String {
        guard (1...9).contains(componentsX), (1...9).contains(componentsY) else {
            throw PlaceholderError("BlurHash takes 1 to 9 components on each axis")
        }
        let pixels = image.straightRGBA()
        let w = image.width, h = image.height
        let linear = (0..<256).map { sRGBToLinear($0) }
        // cosf(π·i·x / w), the argument in double as the reference's M_PI makes it.
        let columns = (0..<componentsX).map { i in (0..<w).map { cosf(Float(Double.pi * Double(i) * Double($0) / Double(w))) } }
        var factors: [(Float, Float, Float)] = []
        for j in 0..<componentsY {
            let ys = (0..<h).map { cosf(Float(Double.pi * Double(j) * Double($0) / Double(h))) }
            for i in 0..<componentsX {
                let xs = columns[i]
                var r: Float = 0, g: Float = 0, b: Float = 0
                for y in 0..<h {
                    for x in 0..<w {
                        let basis = xs[x] * ys[y], p = 4 * (y * w + x)
                        r += basis * linear[Int(pixels[p])]
                        g += basis * linear[Int(pixels[p + 1])]
                        b += basis * linear[Int(pixels[p + 2])]
                    }
                }
                let scale = Float(i == 0 && j == 0 ? 1 : 2) / Float(w * h)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        var hash = base83((componentsX - 1) + (componentsY - 1) * 9, digits: 1)
        let ac = factors.dropFirst()
        var maximum: Float = 1
        if ac.isEmpty {
            hash += base83(0, digits: 1)
        } else {
            let actual = ac.reduce(Float(0)) { max($0, abs($1.0), abs($1.1), abs($1.2)) }
            // (float × 166 − 0.5) is evaluated in double by the reference, then floorf'd.
            let quantised = Int(max(0, min(82, floorf(Float(Double(actual * 166) - 0.5)))))
            maximum = (Float(quantised) + 1) / 166
            hash += base83(quantised, digits: 1)
        }
        let dc = factors[0]
        hash += base83((linearToSRGB(dc.0) << 16) + (linearToSRGB(dc.1) << 8) + linearToSRGB(dc.2), digits: 4)
        for f in ac {
            func quantise(_ v: Float) -> Int {
                let signed = copysignf(powf(abs(v / maximum), 0.5), v / maximum)
                return Int(max(0, min(18, floorf(Float(Double(signed * 9) + 9.5)))))
            }
            hash += base83(quantise(f.0) * 19 * 19 + quantise(f.1) * 19 + quantise(f.2), digits: 2)
        }
        return hash
    }

    /// The image a hash stands for, `width` × `height`, opaque; `punch` > 1 strengthens its contrast.
    public static func decode(_ hash: String, width: Int, height: Int, punch: Double = 1) throws(PlaceholderError) -> Image {
        let chars = Array(hash.utf8)
        guard chars.count >= 6, let size = digit(chars[0]) else { throw PlaceholderError("not a BlurHash (too short)") }
        let nx = size % 9 + 1, ny = size / 9 + 1
        guard chars.count == 4 + 2 * nx * ny else {
            throw PlaceholderError("not a BlurHash (\(nx)×\(ny) components take \(4 + 2 * nx * ny) characters, not \(chars.count))")
        }
        guard let values = decode83(chars) else { throw PlaceholderError("not a BlurHash (a character outside base 83)") }
        guard width > 0, height > 0, width * height <= 16_777_216 else { throw PlaceholderError("the size must be positive and at most 16 megapixels") }
        let maximum = Double(values(1, 1) + 1) / 166 * max(punch, 1)
        let dcValue = values(2, 4)
        var colors: [(Double, Double, Double)] = [(Double(sRGBToLinear(dcValue >> 16)), Double(sRGBToLinear((dcValue >> 8) & 255)),
                                                  Double(sRGBToLinear(dcValue & 255)))]
        for k in 1..<(nx * ny) {
            let v = values(4 + 2 * (k - 1), 2)
            func unquantise(_ q: Int) -> Double {
                let x = (Double(q) - 9) / 9
                return (x < 0 ? -1 : 1) * x * x * maximum
            }
            colors.append((unquantise(v / (19 * 19)), unquantise((v / 19) % 19), unquantise(v % 19)))
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var r = 0.0, g = 0.0, b = 0.0
                for j in 0..<ny {
                    for i in 0..<nx {
                        let basis = cos(Double.pi * Double(x * i) / Double(width)) * cos(Double.pi * Double(y * j) / Double(height))
                        let c = colors[i + j * nx]
                        r += c.0 * basis
                        g += c.1 * basis
                        b += c.2 * basis
                    }
                }
                let p = 4 * (y * width + x)
                pixels[p] = UInt8(linearToSRGB(Float(r)))
                pixels[p + 1] = UInt8(linearToSRGB(Float(g)))
                pixels[p + 2] = UInt8(linearToSRGB(Float(b)))
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// Components for an image's shape: 4 along its longer side and, along the shorter, the same
    /// spacing (4 × short / long, rounded, at least 3), so that a panorama gets no more detail per
    /// unit of length than a square (9 at most).
    public static func components(width: Int, height: Int) -> (x: Int, y: Int) {
        let long = Double(max(width, height, 1)), short = Double(max(min(width, height), 1))
        let other = max(3, min(4, Int((4 * short / long).rounded())))
        return width >= height ? (4, other) : (other, 4)
    }

    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    private static func base83(_ value: Int, digits: Int) -> String {
        var out = [UInt8](repeating: 0, count: digits), v = value
        for k in stride(from: digits - 1, through: 0, by: -1) {
            out[k] = alphabet[v % 83]
            v /= 83
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func digit(_ c: UInt8) -> Int? { alphabet.firstIndex(of: c) }

    /// The base-83 number of `count` characters from `start`, for every position at once.
    private static func decode83(_ chars: [UInt8]) -> ((Int, Int) -> Int)? {
        let digits = chars.map(digit)
        guard digits.allSatisfy({ $0 != nil }) else { return nil }
        let d = digits.map { $0! }
        return { start, count in d[start..<(start + count)].reduce(0) { $0 * 83 + $1 } }
    }

    /// The reference's sRGBToLinear: v/12.92 and the power in single precision.
    static func sRGBToLinear(_ value: Int) -> Float {
        let v = Float(value) / 255
        if v <= 0.04045 { return Float(Double(v) / 12.92) }
        return powf(Float((Double(v) + 0.055) / 1.055), 2.4)
    }

    /// The reference's linearTosRGB: clamped, scaled in double, truncated after + 0.5.
    static func linearToSRGB(_ value: Float) -> Int {
        let v = max(0, min(1, value))
        if v <= 0.0031308 { return Int(Double(v) * 12.92 * 255 + 0.5) }
        return Int((1.055 * Double(powf(v, Float(1 / 2.4))) - 0.055) * 255 + 0.5)
    }
}
