@_spi(Kernels) import FrostCore
import Testing

@Suite struct StreamingHeadTests {
    /// Elements before the first 32-byte boundary, capped by the count; nil off the unit's grid.
    @Test func elementsBeforeTheFirstBoundary() {
        let base = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 32)
        defer { base.deallocate() }
        #expect(streamingHead(base, count: 100, unit: 4) == 0)
        #expect(streamingHead(base + 4, count: 100, unit: 4) == 7)
        #expect(streamingHead(base + 28, count: 100, unit: 4) == 1)
        #expect(streamingHead(base + 8, count: 3, unit: 4) == 3)
        #expect(streamingHead(base + 2, count: 100, unit: 4) == nil)
        #expect(streamingHead(base + 2, count: 100, unit: 1) == 30)
        for offset in 0..<32 {
            let head = streamingHead(base + offset, count: 100, unit: 1)!
            #expect((offset + head) % 32 == 0)
        }
    }
}
