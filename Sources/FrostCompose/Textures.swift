import FrostCore

extension TexturePattern {
    /// The pattern as opaque gray RGBA8 over the pixels of `bounds`, anchored at (`originX`,
    /// `originY`) so it moves with its layer, with a feature size of `spacing` pixels. Values sit
    /// around mid-gray (128), which overlay and soft-light leave unchanged. Deterministic in `seed`.
    func pixels(originX: Double, originY: Double, spacing: Double, seed: UInt32, bounds: PixelBounds) -> [UInt8] {
        let s = max(1, spacing)
        let ax = Int(originX.rounded(.down)), ay = Int(originY.rounded(.down))
        // Linen's threads: a term per row and per column (zero for other patterns); only the grain
        // is hashed per pixel.
        let threads = self == .linen ? 20 : 0
        let rowTerms = (0..<bounds.height).map { j in Int32(Self.signed(Self.hash(0, bounds.y + j - ay, seed &+ 1), amplitude: threads)) }
        let columnTerms = (0..<bounds.width).map { i in Int32(Self.signed(Self.hash(bounds.x + i - ax, 0, seed &+ 2), amplitude: threads)) }
        let grainAmplitude = self == .noise ? 40 : 8
        var grains = [Int32](repeating: 0, count: bounds.width + 8)
        return [UInt8](unsafeUninitializedCapacity: bounds.width * bounds.height * 4) { bytes, count in
            let words = UnsafeMutableRawPointer(bytes.baseAddress!).bindMemory(to: UInt32.self, capacity: bounds.width * bounds.height)
            for j in 0..<bounds.height {
                let v = bounds.y + j - ay
                let target = words + j * bounds.width
                switch self {
                case .noise, .linen:
                    grains.withUnsafeMutableBufferPointer { grain in
                        Self.grainRow(u: bounds.x - ax, v: v, seed: seed, amplitude: grainAmplitude, into: grain.baseAddress!, count: bounds.width)
                        columnTerms.withUnsafeBufferPointer { column in
                            let offset = 128 + rowTerms[j]
                            for i in 0..<bounds.width { target[i] = Self.word(Int(offset &+ grain[i] &+ column[i])) }
                        }
                    }
                case .lines:
                    // One-pixel lines every `spacing` pixels.
                    let gray = Double(v).truncatingRemainder(dividingBy: s).magnitude < 1 ? 92 : 134
                    target.initialize(repeating: Self.word(gray), count: bounds.width)
                case .squares:
                    let row = Int((Double(v) / s).rounded(.down))
                    for i in 0..<bounds.width {
                        target[i] = Self.word((Int((Double(bounds.x + i - ax) / s).rounded(.down)) + row) & 1 == 0 ? 116 : 140)
                    }
                }
            }
            count = bounds.width * bounds.height * 4
        }
    }

    /// Opaque gray as a little-endian RGBA word (R = G = B), clamped.
    @inline(__always)
    private static func word(_ gray: Int) -> UInt32 {
        (UInt32(min(max(gray, 0), 255)) &* 0x0001_0101 | 0xFF00_0000).littleEndian
    }

    /// lowbias32 (C. Wellons, "Hash Prospector") of a pixel position and seed.
    static func hash(_ u: Int, _ v: Int, _ seed: UInt32) -> UInt32 {
        var x = UInt32(truncatingIfNeeded: u) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: v) &* 0x85EB_CA77 ^ seed
        x ^= x >> 16; x = x &* 0x7FEB_352D
        x ^= x >> 15; x = x &* 0x846C_A68B
        x ^= x >> 16
        return x
    }

    /// `hash` of eight positions in a row at once (the same values, lane by lane).
    @inline(__always)
    static func hash(_ u: SIMD8<UInt32>, _ v: Int, _ seed: UInt32) -> SIMD8<UInt32> {
        var x = u &* 0x9E37_79B1 ^ (UInt32(truncatingIfNeeded: v) &* 0x85EB_CA77 ^ seed)
        x ^= x &>> 16; x = x &* 0x7FEB_352D
        x ^= x &>> 15; x = x &* 0x846C_A68B
        x ^= x &>> 16
        return x
    }

    /// A hash mapped onto −amplitude…amplitude by its top 16 bits (uniform to 1/65536).
    static func signed(_ h: UInt32, amplitude: Int) -> Int {
        Int(((h >> 16) * UInt32(2 * amplitude + 1)) >> 16) - amplitude
    }

    /// `signed(hash(u + i, v, seed), amplitude)` for i in 0..<count, eight per step (`out` holds
    /// count rounded up to 8).
    static func grainRow(u: Int, v: Int, seed: UInt32, amplitude: Int, into out: UnsafeMutablePointer<Int32>, count: Int) {
        let lanes = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7), n = UInt32(2 * amplitude + 1), a = Int32(amplitude)
        var i = 0
        while i < count {
            let h = hash(lanes &+ UInt32(truncatingIfNeeded: u + i), v, seed)
            let mapped = unsafeBitCast(((h &>> 16) &* n) &>> 16, to: SIMD8<Int32>.self) &- a
            UnsafeMutableRawPointer(out + i).storeBytes(of: mapped, as: SIMD8<Int32>.self)
            i += 8
        }
    }
}

extension Image {
    /// The image repeated over the pixels of `bounds`, one image pixel per pixel, a tile's
    /// top-left corner at (`originX`, `originY`). Premultiplied.
    func tiled(originX: Double, originY: Double, bounds: PixelBounds) -> Image {
        let tile = premultiplied()
        let ax = Int(originX.rounded(.down)), ay = Int(originY.rounded(.down))
        var out = [UInt8](repeating: 0, count: bounds.width * bounds.height * 4)
        for j in 0..<bounds.height {
            let sy = ((bounds.y + j - ay) % height + height) % height
            for i in 0..<bounds.width {
                let sx = ((bounds.x + i - ax) % width + width) % width
                let s = (sy * width + sx) * 4, o = (j * bounds.width + i) * 4
                for c in 0..<4 { out[o + c] = tile.pixels[s + c] }
            }
        }
        return Image(width: bounds.width, height: bounds.height, pixels: out, isPremultiplied: true, hasAlpha: hasAlpha)
    }
}
