/// Copies of `sources` and a target of `targetBytes` bytes whose address lies `offset` bytes past
/// every source's modulo 4096 (each source page-aligned), so that a test can make a kernel's
/// `StreamOrder` walk forwards (offset 0 or ≥ 2048) or backwards (1…2047).
public func withStreamPlacement<R>(_ sources: [[UInt8]], targetBytes: Int, targetOffset offset: Int,
                                   _ body: ([UnsafePointer<UInt8>], UnsafeMutablePointer<UInt8>) -> R) -> R {
    func pages(_ bytes: Int) -> Int { (bytes + 4095) / 4096 * 4096 }
    let starts = sources.reduce(into: [0]) { $0.append($0.last! + pages($1.count)) }
    let base = UnsafeMutableRawPointer.allocate(byteCount: starts.last! + pages(offset + targetBytes), alignment: 4096)
    defer { base.deallocate() }
    let placed = zip(sources, starts).map { bytes, start in
        let p = (base + start).bindMemory(to: UInt8.self, capacity: bytes.count)
        p.initialize(from: bytes, count: bytes.count)
        return UnsafePointer(p)
    }
    return body(placed, (base + starts.last! + offset).bindMemory(to: UInt8.self, capacity: targetBytes))
}
