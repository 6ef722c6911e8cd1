import CFrostSystem

/// SHA-256 (FIPS 180-4 §6.2): the cache manifest's content hashes, the service's URL signatures
/// (HMAC) and the S3 store's request signatures and upload checksums. Whole blocks go through the
/// x86 SHA extensions where the CPU has them (`frost_sha256_blocks`; hashing the 61 MB of a 4096²
/// `frost cache` took 0.59 s in `compress` and takes 0.12 s, perf); `compress` is the reference
/// they are tested against, and the path of CPUs without them.
public struct SHA256: Sendable {
    /// Whether this CPU has the SHA extensions.
    package static let hasExtensions = frost_has_sha_extensions() != 0

    private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k = Array(UnsafeBufferPointer(start: frost_sha256_constants(), count: 64))

    private let usesExtensions: Bool

    /// An empty hash, with the CPU's SHA extensions when it has them.
    public init() { self.init(usingExtensions: Self.hasExtensions) }

    /// `usingExtensions: false` runs the Swift reference even where the extensions exist.
    package init(usingExtensions: Bool) {
        precondition(!usingExtensions || Self.hasExtensions, "this CPU has no SHA extensions")
        usesExtensions = usingExtensions
    }

    /// The lowercase hex digest of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String { hexString(digest(bytes)) }

    /// The 32-byte digest of `bytes`.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Bytes as lowercase hex, two digits each.
    public static func hexString(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = digits[Int(b >> 4)]
                out[2 * i + 1] = digits[Int(b & 15)]
            }
            return bytes.count * 2
        }
    }

    /// Hashes `bytes` after what came before.
    public mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        var start = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer += bytes[0..<take]
            start = take
            if buffer.count == 64 { compress(buffer[...]); buffer.removeAll(keepingCapacity: true) }
        }
        let blocks = (bytes.count - start) / 64
        if usesExtensions && blocks > 0 {
            bytes.withUnsafeBufferPointer { input in
                state.withUnsafeMutableBufferPointer { frost_sha256_blocks($0.baseAddress!, input.baseAddress! + start, blocks) }
            }
            start += 64 * blocks
        }
        while start + 64 <= bytes.count {
            compress(bytes[start..<(start + 64)])
            start += 64
        }
        if start < bytes.count { buffer += bytes[start...] }
    }

    /// The 32-byte digest of everything given.
    public mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = buffer + [0x80]
        while tail.count % 64 != 56 { tail.append(0) }
        tail += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        for block in stride(from: 0, to: tail.count, by: 64) { compress(tail[block..<(block + 64)]) }
        return state.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        // The message schedule lives on the stack: this runs once per 64 bytes of every level file.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { compress(block, schedule: $0) }
    }

    private mutating func compress(_ block: ArraySlice<UInt8>, schedule w: UnsafeMutableBufferPointer<UInt32>) {
        let base = block.startIndex
        for t in 0..<16 {
            w[t] = (0..<4).reduce(0) { $0 << 8 | UInt32(block[base + 4 * t + $1]) }
        }
        for t in 16..<64 {
            let s0 = w[t - 15].rotatedRight(7) ^ w[t - 15].rotatedRight(18) ^ (w[t - 15] >> 3)
            let s1 = w[t - 2].rotatedRight(17) ^ w[t - 2].rotatedRight(19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.k[t] &+ w[t]
            let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
        }
        for (i, v) in [a, b, c, d, e, f, g, h].enumerated() { state[i] &+= v }
    }
}

private extension UInt32 {
    func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
