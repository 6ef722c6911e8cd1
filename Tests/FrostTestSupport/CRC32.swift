/// CRC-32 (ISO-HDLC, reflected polynomial 0xEDB88320), as zlib's crc32().
public func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
