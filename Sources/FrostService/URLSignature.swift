import FrostCore

/// imgproxy's URL signature (docs/serve.md, "Signing"): HMAC-SHA256 (RFC 2104) keyed with the key
/// over the salt followed by the path after the signature ("/rs:fit:300:0/plain/…"), written in
/// URL-safe base64 without padding. Key and salt are given in hex, as imgproxy takes them.
public struct URLSignature: Sendable {
    private let key: [UInt8]
    private let salt: [UInt8]

    /// A signer from hex key and salt; nil when either is not hex of at least one byte.
    public init?(keyHex: String, saltHex: String) {
        guard let key = Self.bytes(hex: keyHex), let salt = Self.bytes(hex: saltHex), !key.isEmpty, !salt.isEmpty else { return nil }
        self.key = key
        self.salt = salt
    }

    /// The signature of `path` (which begins with "/").
    public func signature(for path: String) -> String {
        Base64URL.encode(HMAC.sha256(key: key, message: salt + Array(path.utf8)))
    }

    /// Whether `signature` is the one `path` has: compared in time that does not depend on where
    /// they first differ.
    public func verifies(_ signature: String, for path: String) -> Bool {
        let expected = Array(self.signature(for: path).utf8), given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x41...0x46: c - 0x41 + 10
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}

/// URL-safe base64 (RFC 4648 §5): what imgproxy's signatures and encoded source URLs are written in.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let chunk = (UInt32(bytes[i]) << 16) | (n > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (n > 2 ? UInt32(bytes[i + 2]) : 0)
            for k in 0...n { out.append(alphabet[Int(chunk >> (18 - 6 * UInt32(k)) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`, with or without padding ('+' and '/' taken too); nil when it is not base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var bits: UInt32 = 0, count = 0
        var out: [UInt8] = []
        let body = text.utf8.reversed().drop { $0 == UInt8(ascii: "=") }.reversed()
        for c in body {
            let v: UInt8
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = c - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = c - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): v = 63
            default: return nil
            }
            bits = bits << 6 | UInt32(v)
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        // A lone sixth character cannot end base64.
        return body.count % 4 == 1 ? nil : out
    }
}
