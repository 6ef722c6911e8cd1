import CFrostSystem
import Foundation
@_spi(Kernels) import FrostCore

/// Linear light: the sRGB transfer (IEC 61966-2-1) undone before a blur, resize or blend and
/// redone after it, so that pixels average as light does. In gamma-encoded values a 2× shrink of
/// alternating black and white lines gives 128, which shows as 22% grey; in light it gives 50%
/// light, which encodes as 188 (docs/formats.md, Linear light).
///
/// Linear samples are premultiplied RGBA in the 8.7 fixed point the kernels already work in
/// (0…32640 for 0…1, UInt16): the darkest sRGB step, 1/255, is 9.9 units, so every byte comes back
/// from a round trip as itself (LinearLightTests). Bytes are decoded by `frost_linear_decode`
/// (CFrostSystem: a table, looked up by AVX-512 VBMI byte permutes where the CPU has them) and
/// encoded here through a table of the curve over every 8.7 value (straight to bytes for opaque
/// pixels: `byteEncoding`).
package enum LinearLight {
    static let one = Int(FROST_RESAMPLE_TOP)

    /// Straight linear 8.7 (0…32640) → sRGB 8.7, rounded to nearest.
    static let encoding: [UInt16] = (0...one).map { v in
        let l = Double(v) / Double(one)
        let e = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
        return UInt16((e * Double(one)).rounded())
    }

    /// Premultiplied linear 8.7 → premultiplied sRGB 8.7, in place: each color un-premultiplied
    /// (rounded, at most 32640), encoded, and multiplied by its alpha again.
    static func encode(_ p: UnsafeMutablePointer<UInt16>, pixels: Int) {
        encoding.withUnsafeBufferPointer { table in
            for i in 0..<pixels { encodePixel(p + 4 &* i, table) }
        }
    }

    @inline(__always)
    private static func encodePixel(_ px: UnsafeMutablePointer<UInt16>, _ table: UnsafeBufferPointer<UInt16>) {
        let a = UInt32(px[3])
        if a == UInt32(one) {
            for c in 0..<3 { px[c] = table[Int(px[c])] }
        } else if a == 0 {
            for c in 0..<3 { px[c] = 0 }
        } else {
            for c in 0..<3 {
                let straight = min((UInt32(px[c]) &* UInt32(one) &+ a / 2) / a, UInt32(one))
                px[c] = UInt16((UInt32(table[Int(straight)]) &* a &+ UInt32(one / 2)) / UInt32(one))
            }
        }
    }

    /// `encoding` rounded to bytes: what `encode` then `UInt8.sample` give an opaque pixel's colour,
    /// in one lookup (32 KB).
    static let byteEncoding: [UInt8] = encoding.map { UInt8.sample(fixedPoint: $0) }

    /// Premultiplied linear 8.7 → premultiplied sRGB bytes (`encode`, then rounded to bytes); an
    /// opaque pixel's colours straight through `byteEncoding`.
    static func encode(_ p: UnsafeMutablePointer<UInt16>, pixels: Int, into out: UnsafeMutablePointer<UInt8>) {
        encoding.withUnsafeBufferPointer { table in
            byteEncoding.withUnsafeBufferPointer { bytes in
                var i = 0
                while i < pixels {
                    i += frost_linear_encode_opaque(p + 4 &* i, pixels &- i, bytes.baseAddress!, out + 4 &* i)
                    guard i < pixels else { break }
                    let px = p + 4 &* i
                    encodePixel(px, table)
                    for c in 0..<4 { out[4 &* i &+ c] = UInt8.sample(fixedPoint: px[c]) }
                    i += 1
                }
            }
        }
    }
}

/// RGBA8 rows held in memory, read in place: a whole image's plane, or a streamed strip's rows.
protocol HeldRows {
    var width: Int { get }
    var height: Int { get }
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8>
}

extension Plane: HeldRows where Sample == UInt8 {}
extension PixelRows: HeldRows {}

/// sRGB RGBA8 rows read as rows of premultiplied linear 8.7 samples, decoded into the reader's
/// scratch row as it reads (`frost_linear_decode`): no linear copy of the image exists.
/// `straightAlpha`: the pixels have alpha (straight), which is multiplied in; else every alpha
/// is read as 255.
struct LinearRows<Bytes: HeldRows>: RowSource {
    let bytes: Bytes
    let straightAlpha: Bool
    var width: Int { bytes.width }
    var height: Int { bytes.height }
    static var makesRows: Bool { true }

    @inline(__always)
    func row(_ y: Int, scratch: UnsafeMutablePointer<UInt16>) -> UnsafePointer<UInt16> {
        frost_linear_decode(bytes.row(y), scratch, bytes.width, straightAlpha ? 1 : 0)
        return UnsafePointer(scratch)
    }

    /// Row y's samples added to `sums` (4 × width of them).
    @inline(__always)
    func add(_ y: Int, into sums: UnsafeMutablePointer<UInt32>) {
        frost_linear_decode_add(bytes.row(y), sums, bytes.width, straightAlpha ? 1 : 0)
    }
}

extension Image {
    /// The image's rows in linear light (`LinearRows`); a premultiplied image with alpha is read
    /// through a straight copy.
    func withLinearRows<R>(_ body: (LinearRows<Plane<UInt8>>) -> R) -> R {
        let straight = unpremultiplied()
        return straight.withPlane { body(LinearRows(bytes: $0, straightAlpha: straight.hasAlpha)) }
    }
}

extension LinearLight {
    /// Each sRGB byte's light (0…1), for compositing in Float (FrostCompose).
    package static let lights: [Float] = (0..<256).map { b in
        let v = Double(b) / 255
        return Float(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4))
    }

    /// Light (clamped to 0…1) as an sRGB byte, rounded to nearest (through `encoding`).
    package static func byte(light: Float) -> UInt8 {
        let v = Int((min(max(light, 0), 1) * Float(one)).rounded())
        return UInt8.sample(fixedPoint: encoding[v])
    }
}
