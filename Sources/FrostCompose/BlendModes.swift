@_spi(Kernels) import FrostCore
import FrostEffects

extension BlendMode {
    /// B(Cb, Cs) of the W3C Compositing and Blending spec §10 on straight colors in 0…1
    /// (lanes are R, G, B; the fourth lane is ignored).
    @inline(__always)
    func mix(backdrop b: SIMD4<Float>, source s: SIMD4<Float>) -> SIMD4<Float> {
        switch self {
        case .normal:
            return s
        case .multiply:
            return b * s
        case .screen:
            return b + s - b * s
        case .overlay:
            // HardLight with the layers swapped: multiply(2Cb, Cs) below 0.5, screen above.
            let low = 2 * b * s
            let high = 2 * (b + s - b * s) - 1
            return low.replacing(with: high, where: b .> 0.5)
        case .softLight:
            let d = ((16 * b - 12) * b + 4) * b
            let root = SIMD4<Float>(b[0].squareRoot(), b[1].squareRoot(), b[2].squareRoot(), b[3].squareRoot())
            let dOfB = d.replacing(with: root, where: b .> 0.25)
            let darken = b - (1 - 2 * s) * b * (1 - b)
            let lighten = b + (2 * s - 1) * (dOfB - b)
            return darken.replacing(with: lighten, where: s .> 0.5)
        }
    }
}

/// Separable blend modes on premultiplied RGBA8 (W3C Compositing §5.8 with source-over), with a
/// layer opacity k: the source counts as k·s, so
/// co = k·cs·(1 − αb) + cb·(1 − k·αs) + k·αs·αb·B(Cb, Cs), αo = k·αs + αb·(1 − k·αs).
/// Where source and backdrop are opaque (textures over photos) this is cb + k·(B − cb) with B
/// read from a 256×256 table of the formula rounded to bytes; elsewhere it is evaluated in Float.
/// Each path rounds at most twice: within one level of the Float formula (`runScalar`).
enum BlendComposite {
    static func run(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, pixels: Int, mode: BlendMode, opacity k: UInt8) {
        run(src, dst, pixels: pixels, mode: mode, opacity: k, table: BlendTable.mixed(mode, opacity: k))
    }

    /// With the opaque-pixel table `BlendTable.mixed(mode, opacity: k)` made once per layer.
    static func run(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, pixels: Int, mode: BlendMode,
                    opacity k: UInt8, table: [UInt8]) {
        guard k > 0 else { return }
        let integer = OpaqueBlend(mode: mode, opacity: k)
        table.withUnsafeBufferPointer { t in
            var p = 0
            while p < pixels {
                // Eight opaque-over-opaque pixels at once in integers where the mode allows.
                if let integer, p % 8 == 0, p + 8 <= pixels, integer.blendGroup(src + 4 * p, dst + 4 * p) {
                    p += 8
                    continue
                }
                defer { p += 1 }
                let s = src + 4 * p, d = dst + 4 * p
                let alphaS = s[3]
                if alphaS == 255 && d[3] == 255 {
                    d[0] = t[Int(d[0]) << 8 | Int(s[0])]
                    d[1] = t[Int(d[1]) << 8 | Int(s[1])]
                    d[2] = t[Int(d[2]) << 8 | Int(s[2])]
                } else if alphaS != 0 {
                    runScalar(s, d, pixels: 1, mode: mode, opacity: k)
                }
            }
        }
    }

    /// The Float formula for every pixel: the reference the table path is held to.
    static func runScalar(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, pixels: Int, mode: BlendMode, opacity k: UInt8) {
        let unit: Float = 1 / 255
        for p in 0..<pixels {
            let s = LaneConversion.floats(UnsafeRawPointer(src + 4 * p).loadUnaligned(as: SIMD4<UInt8>.self)) * unit
            if s[3] == 0 { continue }
            let target = dst + 4 * p
            let b = LaneConversion.floats(UnsafeRawPointer(target).loadUnaligned(as: SIMD4<UInt8>.self)) * unit
            let alphaS = s[3], alphaB = b[3], opacity = Float(k) * unit
            let straightS = s / alphaS
            let straightB = b / max(alphaB, .leastNormalMagnitude)
            let mixed: SIMD4<Float> = mode.mix(backdrop: straightB, source: straightS) * (alphaS * alphaB)
            var o: SIMD4<Float> = s * (1 - alphaB) + mixed
            o = o * opacity + b * (1 - opacity * alphaS)
            o[3] = opacity * alphaS + alphaB * (1 - opacity * alphaS)
            // Premultiplied output: no sample above its alpha.
            let bytes = LaneConversion.bytes(LaneConversion.clamp(o * 255, upper: SIMD4(repeating: o[3] * 255)))
            UnsafeMutableRawPointer(target).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        }
    }
}

/// B(Cb, Cs) for every pair of 8-bit straight colors, rounded: index Cb·256 + Cs.
enum BlendTable {
    static let shared: [BlendMode: [UInt8]] = Dictionary(uniqueKeysWithValues: BlendMode.allCases.map { mode in
        (mode, (0..<65536).map { i in
            let b = SIMD4<Float>(repeating: Float(i >> 8) / 255), s = SIMD4<Float>(repeating: Float(i & 255) / 255)
            return LaneConversion.byte(mode.mix(backdrop: b, source: s)[0] * 255)
        })
    })

    /// The opaque-over-opaque result with opacity k: (Cb·(255 − k) + B·k) / 255 rounded.
    static func mixed(_ mode: BlendMode, opacity k: UInt8) -> [UInt8] {
        let keep = 255 - UInt32(k), take = UInt32(k)
        return shared[mode]!.enumerated().map { i, blended in UInt8(divideBy255(UInt32(i >> 8) * keep + UInt32(blended) * take)) }
    }
}

/// Multiply, screen and overlay of opaque pixels over opaque pixels in integers, eight pixels per
/// step in UInt16 lanes (even bytes R, B and odd bytes G, A split by mask and shift). With whole
/// bytes b and s: multiply = bs/255, screen = b + s − bs/255, overlay = 2bs/255 for b ≤ 127 else
/// 255 − 2(255−b)(255−s)/255; every product is at most 255², and none of these quotients is ever
/// exactly halfway, so rounding each once gives exactly the table's values (the Float formula
/// rounded); the opacity lerp is then the table path's. Alpha lanes stay 255 (B(1, 1) = 1).
/// Soft-light needs a square root and keeps the table.
struct OpaqueBlend {
    let mode: BlendMode
    let take: SIMD16<UInt16>
    let keep: SIMD16<UInt16>

    /// nil for soft-light (its table stays).
    init?(mode: BlendMode, opacity k: UInt8) {
        guard mode != .softLight else { return nil }
        self.mode = mode
        take = SIMD16(repeating: UInt16(k))
        keep = SIMD16(repeating: 255 - UInt16(k))
    }

    /// Blends eight pixels if every source and backdrop pixel among them is opaque; false (and
    /// nothing written) otherwise.
    @inline(__always)
    func blendGroup(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>) -> Bool {
        let opaque = SIMD8<UInt32>(repeating: 0xFF00_0000), low = SIMD16<UInt16>(repeating: 0xFF)
        let sw = UnsafeRawPointer(src).loadUnaligned(as: SIMD8<UInt32>.self)
        let dw = UnsafeRawPointer(dst).loadUnaligned(as: SIMD8<UInt32>.self)
        // Any pixel with an alpha below 255 leaves a bit set here (a reduction, no lane loop).
        guard (~(sw & dw) & opaque).max() == 0 else { return false }
        let s = unsafeBitCast(sw, to: SIMD16<UInt16>.self), d = unsafeBitCast(dw, to: SIMD16<UInt16>.self)
        let evens = blend(d & low, s & low), odds = blend(d &>> 8, s &>> 8)
        UnsafeMutableRawPointer(dst).storeBytes(of: evens | odds &<< 8, as: SIMD16<UInt16>.self)
        return true
    }

    /// B(b, s) rounded, then the opacity lerp (b·(255 − k) + B·k) / 255 rounded. Products of the
    /// branch not taken may wrap; the select discards them.
    @inline(__always)
    private func blend(_ b: SIMD16<UInt16>, _ s: SIMD16<UInt16>) -> SIMD16<UInt16> {
        let full = SIMD16<UInt16>(repeating: 255)
        let mixed: SIMD16<UInt16>
        switch mode {
        case .normal, .softLight:
            mixed = s
        case .multiply:
            mixed = divideBy255(b &* s)
        case .screen:
            mixed = b &+ s &- divideBy255(b &* s)
        case .overlay:
            let dark = divideBy255(b &* s &* 2)
            let light = full &- divideBy255((full &- b) &* (full &- s) &* 2)
            // All ones where b > 127, by arithmetic: a mask select compiles to a lane loop.
            let high = 0 &- (b &>> 7)
            mixed = (dark & ~high) | (light & high)
        }
        return divideBy255(b &* keep &+ mixed &* take)
    }
}
