@_spi(Kernels) @testable import FrostCore
import Testing

@Suite struct StreamingResultTests {
    /// The cache size the decision reads, as sysfs writes it, and the decision's bound.
    @Test func cacheSizesParseAndBoundTheDecision() {
        #expect(cacheBytes("32768K") == 32 << 20)
        #expect(cacheBytes("2M") == 2 << 20)
        #expect(cacheBytes("4096") == 4096)
        #expect(cacheBytes("") == nil && cacheBytes("K") == nil && cacheBytes("-1K") == nil)
        #expect(lastLevelCacheBytes > 0)
        #expect(!streamsPastCache(bytes: lastLevelCacheBytes) && streamsPastCache(bytes: lastLevelCacheBytes + 1))
    }
}
