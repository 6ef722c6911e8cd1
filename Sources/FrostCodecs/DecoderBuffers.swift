import CFrostSystem

/// Bytes a C decoder points to inside its input (an ICC profile), copied out; nil when empty.
func copiedBytes(_ start: UnsafePointer<UInt8>?, count: some BinaryInteger) -> [UInt8]? {
    guard let start, count > 0 else { return nil }
    return Array(UnsafeBufferPointer(start: start, count: Int(count)))
}

/// `count` samples written by a decoder call; when it throws, nothing uninitialised is kept.
/// Large ones are asked for in huge pages before the decoder first touches them.
func decodedSamples<T>(count: Int, _ fill: (UnsafeMutableBufferPointer<T>) throws -> Void) throws -> [T] {
    try [T](unsafeUninitializedCapacity: count) { buffer, n in
        n = 0
        if count * MemoryLayout<T>.stride >= 4 << 20 { frost_advise_huge_pages(buffer.baseAddress, count * MemoryLayout<T>.stride) }
        try fill(buffer)
        n = count
    }
}
