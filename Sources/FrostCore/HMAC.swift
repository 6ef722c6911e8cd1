/// HMAC (RFC 2104) with SHA-256: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)), a key longer than the 64-byte
/// block hashed first. imgproxy's URL signatures (FrostService) and AWS Signature Version 4's
/// signing keys (FrostStorage) are made with it.
public enum HMAC {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}
