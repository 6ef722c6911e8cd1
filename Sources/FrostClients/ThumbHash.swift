import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// ThumbHash (Evan Wallace, github.com/evanw/thumbhash): an image of at most 100×100 as ~25
/// bytes of DCT coefficients in a luminance/chroma space, with its alpha and its aspect ratio,
/// decoded by a client into a blurred placeholder of the right shape. The encoder follows the
/// reference's arithmetic (double precision, JavaScript's `Math.round`).
public enum ThumbHash {
    /// The hash of `image` (at most 100 pixels on each side: `Image.placeholderSource`).
    public static func encode(_ image: Image) throws(PlaceholderError) -> [UInt8] {
        let w = image.width, h = image.height
        guard w <= 100, h <= 100 else { throw PlaceholderError("ThumbHash takes at most 100×100 pixels, not \(w)×\(h)") }
        let rgba = image.straightRGBA()
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        for i in 0..<(w * h) {
            let alpha = Double(rgba[4 * i + 3]) / 255
            avgR += alpha / 255 * Double(rgba[4 * i])
            avgG += alpha / 255 * Double(rgba[4 * i + 1])
            avgB += alpha / 255 * Double(rgba[4 * i + 2])
            avgA += alpha
        }
        if avgA > 0 { (avgR, avgG, avgB) = (avgR / avgA, avgG / avgA, avgB / avgA) }
        let hasAlpha = avgA < Double(w * h)
        let lLimit = hasAlpha ? 5.0 : 7.0
        let lx = max(1, round(lLimit * Double(w) / Double(max(w, h)))), ly = max(1, round(lLimit * Double(h) / Double(max(w, h))))
        var l: [Double] = [], p: [Double] = [], q: [Double] = [], a: [Double] = []
        for i in 0..<(w * h) {
            let alpha = Double(rgba[4 * i + 3]) / 255
            // Transparent pixels take the average colour, so that they do not pull the edges dark.
            let r = avgR * (1 - alpha) + alpha / 255 * Double(rgba[4 * i])
            let g = avgG * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 1])
            let b = avgB * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 2])
            l.append((r + g + b) / 3)
            p.append((r + g) / 2 - b)
            q.append(r - g)
            a.append(alpha)
        }
        func channel(_ values: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac: [Double] = [], scale = 0.0
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += values[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }
        let lc = channel(l, max(3, Int(lx)), max(3, Int(ly))), pc = channel(p, 3, 3), qc = channel(q, 3, 3)
        let ac = hasAlpha ? channel(a, 5, 5) : (dc: 1, ac: [], scale: 1)
        let isLandscape = w > h
        let header24 = jsRound(63 * lc.dc) | (jsRound(31.5 + 31.5 * pc.dc) << 6) | (jsRound(31.5 + 31.5 * qc.dc) << 12)
            | (jsRound(31 * lc.scale) << 18) | ((hasAlpha ? 1 : 0) << 23)
        let header16 = Int(isLandscape ? ly : lx) | (jsRound(63 * pc.scale) << 3) | (jsRound(63 * qc.scale) << 9) | ((isLandscape ? 1 : 0) << 15)
        var hash: [UInt8] = [UInt8(header24 & 255), UInt8((header24 >> 8) & 255), UInt8(header24 >> 16),
                             UInt8(header16 & 255), UInt8(header16 >> 8)]
        if hasAlpha { hash.append(UInt8(jsRound(15 * ac.dc) | (jsRound(15 * ac.scale) << 4))) }
        var odd = false
        for f in lc.ac + pc.ac + qc.ac + ac.ac {
            let u = UInt8(jsRound(15 * f))
            if odd { hash[hash.count - 1] |= u << 4 } else { hash.append(u) }
            odd.toggle()
        }
        return hash
    }

    /// The hash's picture, its longer side `size` pixels (32 by default) and its shape the
    /// hash's aspect ratio; straight alpha, which is opaque unless the hash has alpha.
    public static func decode(_ hash: [UInt8], size: Int = 32) throws(PlaceholderError) -> Image {
        guard hash.count >= 5 else { throw PlaceholderError("not a ThumbHash (shorter than 5 bytes)") }
        guard (1...4096).contains(size) else { throw PlaceholderError("the size must be from 1 to 4096 pixels") }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16, header16 = Int(hash[3]) | Int(hash[4]) << 8
        let lDC = Double(header24 & 63) / 63, pDC = Double((header24 >> 6) & 63) / 31.5 - 1, qDC = Double((header24 >> 12) & 63) / 31.5 - 1
        let lScale = Double((header24 >> 18) & 31) / 31, hasAlpha = header24 >> 23 != 0
        let pScale = Double((header16 >> 3) & 63) / 63, qScale = Double((header16 >> 9) & 63) / 63, isLandscape = header16 >> 15 != 0
        let lx = max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7), ly = max(3, isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        guard !hasAlpha || hash.count >= 6 else { throw PlaceholderError("not a ThumbHash (its alpha byte is missing)") }
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1, aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        let start = hasAlpha ? 6 : 5
        var index = 0
        func channel(_ nx: Int, _ ny: Int, _ scale: Double) throws(PlaceholderError) -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let byte = start + index >> 1
                    guard byte < hash.count else { throw PlaceholderError("not a ThumbHash (it ends inside its coefficients)") }
                    ac.append((Double((Int(hash[byte]) >> ((index & 1) << 2)) & 15) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return ac
        }
        let lAC = try channel(lx, ly, lScale), pAC = try channel(3, 3, pScale * 1.25), qAC = try channel(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? try channel(5, 5, aScale) : []
        let ratio = aspectRatio(hash)
        let w = ratio > 1 ? size : max(1, jsRound(Double(size) * ratio)), h = ratio > 1 ? max(1, jsRound(Double(size) / ratio)) : size
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let cxStop = max(lx, hasAlpha ? 5 : 3), cyStop = max(ly, hasAlpha ? 5 : 3)
        var fx = [Double](repeating: 0, count: cxStop), fy = [Double](repeating: 0, count: cyStop)
        for y in 0..<h {
            for x in 0..<w {
                var l = lDC, p = pDC, q = qDC, a = aDC
                for cx in 0..<cxStop { fx[cx] = cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }
                for cy in 0..<cyStop { fy[cy] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = fy[cy] * 2
                    while cx * ly < lx * (ly - cy) {
                        l += lAC[j] * fx[cx] * fy2
                        cx += 1
                        j += 1
                    }
                }
                j = 0
                for cy in 0..<3 {
                    let fy2 = fy[cy] * 2
                    for cx in (cy > 0 ? 0 : 1)..<(3 - cy) {
                        p += pAC[j] * fx[cx] * fy2
                        q += qAC[j] * fx[cx] * fy2
                        j += 1
                    }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        let fy2 = fy[cy] * 2
                        for cx in (cy > 0 ? 0 : 1)..<(5 - cy) {
                            a += aAC[j] * fx[cx] * fy2
                            j += 1
                        }
                    }
                }
                let b = l - 2.0 / 3.0 * p, r = (3 * l - b + q) / 2, g = r - q
                let o = 4 * (y * w + x)
                for (k, v) in [r, g, b, a].enumerated() { pixels[o + k] = UInt8(max(0, min(255, jsRound(255 * v)))) }
            }
        }
        var image = Image(width: w, height: h, pixels: pixels)
        image.hasAlpha = hasAlpha
        return image
    }

    /// The width-to-height ratio a hash records (to a seventh or a fifth).
    public static func aspectRatio(_ hash: [UInt8]) -> Double {
        guard hash.count >= 5 else { return 1 }
        let hasAlpha = hash[2] & 0x80 != 0, isLandscape = hash[4] & 0x80 != 0
        let lMax = hasAlpha ? 5.0 : 7.0, lMin = Double(max(1, hash[3] & 7))
        return isLandscape ? lMax / lMin : lMin / lMax
    }

    /// JavaScript's `Math.round`: halves round up.
    private static func jsRound(_ x: Double) -> Int { Int((x + 0.5).rounded(.down)) }
}
