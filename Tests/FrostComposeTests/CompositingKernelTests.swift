@testable import FrostCompose
import FrostEffects
@_spi(Kernels) import FrostCore
import FrostTestSupport
import Testing

/// The pixel kernels against their scalar references and against the formulas in Double.
@Suite struct CompositingKernelTests {
    /// Valid premultiplied pixels (every sample ≤ its alpha), with runs of 0 and 255 alpha.
    static func premultipliedPixels(_ count: Int, seed: UInt64) -> [UInt8] {
        let noise = noiseImage(width: count, height: 1, seed: seed).pixels
        var out = [UInt8](repeating: 0, count: count * 4)
        for p in 0..<count {
            let a = p % 7 == 0 ? 255 : (p % 11 == 0 ? 0 : noise[4 * p + 3])
            out[4 * p + 3] = a
            for c in 0..<3 { out[4 * p + c] = UInt8(UInt32(noise[4 * p + c]) * UInt32(a) / 255) }
        }
        return out
    }

    @Test(arguments: [255, 200, 77, 1] as [UInt8])
    func sourceOverSIMDEqualsScalarAndFormula(opacity: UInt8) {
        let count = 1003
        let src = Self.premultipliedPixels(count, seed: 1), base = Self.premultipliedPixels(count, seed: 2)
        var simd = base, scalar = base
        simd.withUnsafeMutableBufferPointer { SourceOver.run(src, over: $0.baseAddress!, into: $0.baseAddress!, pixels: count, opacity: opacity) }
        scalar.withUnsafeMutableBufferPointer { SourceOver.runScalar(src, over: $0.baseAddress!, into: $0.baseAddress!, pixels: count, opacity: opacity) }
        #expect(simd == scalar)
        // Out of place (backdrop read from `base`, result written elsewhere), walking backwards
        // (48 bytes past the inputs modulo 4096) or forwards (4048: StreamOrder), the same bytes.
        for offset in [48, 4048] {
            let separate = withStreamPlacement([src, base], targetBytes: base.count, targetOffset: offset) { inputs, target in
                SourceOver.run(inputs[0], over: inputs[1], into: target, pixels: count, opacity: opacity)
                return Array(UnsafeBufferPointer(start: target, count: base.count))
            }
            #expect(separate == simd)
        }
        let k = Double(opacity) / 255
        for p in 0..<count {
            let alpha = Double(src[4 * p + 3]) * k
            for c in 0..<4 {
                let expected = Double(src[4 * p + c]) * k + Double(base[4 * p + c]) * (1 - alpha / 255)
                #expect(abs(Double(scalar[4 * p + c]) - expected) <= 1, "pixel \(p) sample \(c)")
            }
        }
    }

    /// W3C Compositing and Blending §10, written out independently in Double.
    static func blend(_ mode: BlendMode, _ cb: Double, _ cs: Double) -> Double {
        switch mode {
        case .normal: return cs
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return cb <= 0.5 ? cs * 2 * cb : 1 - (1 - cs) * (1 - (2 * cb - 1))
        case .softLight:
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (d - cb)
        }
    }

    @Test(arguments: BlendMode.allCases)
    func blendModesFollowTheirFormulas(mode: BlendMode) {
        let count = 2000
        let src = Self.premultipliedPixels(count, seed: 3), base = Self.premultipliedPixels(count, seed: 4)
        for opacity in [255, 150] as [UInt8] {
            var out = base
            out.withUnsafeMutableBufferPointer { BlendComposite.run(src, $0.baseAddress!, pixels: count, mode: mode, opacity: opacity) }
            let k = Double(opacity) / 255
            for p in 0..<count {
                let aS = Double(src[4 * p + 3]) / 255 * k, aB = Double(base[4 * p + 3]) / 255
                let alpha = aS + aB * (1 - aS)
                #expect(abs(Double(out[4 * p + 3]) - alpha * 255) <= 1)
                guard src[4 * p + 3] > 0 else { continue }
                for c in 0..<3 {
                    let cs = Double(src[4 * p + c]) / Double(src[4 * p + 3]), cb = aB > 0 ? Double(base[4 * p + c]) / 255 / aB : 0
                    let co = k * Double(src[4 * p + c]) / 255 * (1 - aB) + Double(base[4 * p + c]) / 255 * (1 - aS)
                        + aS * aB * Self.blend(mode, cb, min(cs, 1))
                    #expect(abs(Double(out[4 * p + c]) - co * 255) <= 1, "\(mode) pixel \(p) sample \(c): \(out[4 * p + c]) vs \(co * 255)")
                }
            }
        }
    }

    /// A mask's coverage as a per-pixel opacity: SIMD equals the scalar reference, in place and
    /// out of place (either StreamOrder), and the formula within one level; coverage 0 keeps the backdrop exactly.
    @Test func sourceOverWithCoverageEqualsScalarAndFormula() {
        let count = 1003
        let src = Self.premultipliedPixels(count, seed: 3), base = Self.premultipliedPixels(count, seed: 4)
        let coverage = noiseImage(width: count, height: 1, seed: 8).pixels.enumerated().filter { $0.offset % 4 == 0 }
            .map { $0.offset % 20 == 0 ? 0 : ($0.offset % 36 == 0 ? 255 : $0.element) }
        var simd = base, scalar = base
        simd.withUnsafeMutableBufferPointer { SourceOver.run(src, over: $0.baseAddress!, into: $0.baseAddress!, pixels: count, coverage: coverage) }
        scalar.withUnsafeMutableBufferPointer { SourceOver.runScalar(src, over: $0.baseAddress!, into: $0.baseAddress!, pixels: count) { Float(coverage[$0]) } }
        #expect(simd == scalar)
        for offset in [48, 4048] {
            let separate = withStreamPlacement([src, base], targetBytes: base.count, targetOffset: offset) { inputs, target in
                SourceOver.run(inputs[0], over: inputs[1], into: target, pixels: count, coverage: coverage)
                return Array(UnsafeBufferPointer(start: target, count: base.count))
            }
            #expect(separate == simd)
        }
        for p in 0..<count {
            let k = Double(coverage[p]) / 255, alpha = Double(src[4 * p + 3]) * k
            for c in 0..<4 {
                let expected = Double(src[4 * p + c]) * k + Double(base[4 * p + c]) * (1 - alpha / 255)
                #expect(abs(Double(simd[4 * p + c]) - expected) <= 1, "pixel \(p) sample \(c)")
                if coverage[p] == 0 { #expect(simd[4 * p + c] == base[4 * p + c]) }
            }
        }
    }

    @Test(arguments: [BlendMode.normal, .multiply, .screen, .overlay])
    func integerOpaqueBlendEqualsTheTable(mode: BlendMode) {
        let count = 4096
        let src = noiseImage(width: count, height: 1, seed: 5, opaque: true).pixels, base = noiseImage(width: count, height: 1, seed: 6, opaque: true).pixels
        for opacity in [255, 200, 33] as [UInt8] {
            let table = BlendTable.mixed(mode, opacity: opacity)
            var fast = base
            let integer = OpaqueBlend(mode: mode, opacity: opacity)!
            src.withUnsafeBufferPointer { s in
                fast.withUnsafeMutableBufferPointer { d in
                    for g in 0..<(count / 8) { #expect(integer.blendGroup(s.baseAddress! + 32 * g, d.baseAddress! + 32 * g)) }
                }
            }
            for p in 0..<count {
                for c in 0..<3 { #expect(fast[4 * p + c] == table[Int(base[4 * p + c]) << 8 | Int(src[4 * p + c])], "\(mode) \(opacity) pixel \(p)") }
                #expect(fast[4 * p + 3] == 255)
            }
        }
        #expect(OpaqueBlend(mode: .softLight, opacity: 255) == nil)
    }

    @Test func textureGrainRowEqualsTheScalarHash() {
        var row = [Int32](repeating: 0, count: 104)
        row.withUnsafeMutableBufferPointer { TexturePattern.grainRow(u: -37, v: 12, seed: 9, amplitude: 8, into: $0.baseAddress!, count: 100) }
        for i in 0..<100 {
            #expect(Int(row[i]) == TexturePattern.signed(TexturePattern.hash(-37 + i, 12, 9), amplitude: 8))
            #expect((-8...8).contains(Int(row[i])))
        }
    }
}
