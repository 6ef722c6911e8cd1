@_spi(Kernels) import FrostCore
import FrostTestSupport
import Testing

@Suite struct StreamOrderTests {
    /// Forwards unless the target lies under 2 KiB past the source modulo 4096; with several
    /// sources the order that keeps the nearest one farther.
    @Test func backwardsOnlyWhenTheTargetTrailsASourceClosely() {
        let base = UnsafeMutableRawPointer.allocate(byteCount: 3 * 4096, alignment: 4096)
        defer { base.deallocate() }
        let source = UnsafeRawPointer(base)
        func forwards(_ offset: Int) -> Bool { StreamOrder(reading: source, writing: base + 4096 + offset).forwards }
        #expect(forwards(0))
        #expect(!forwards(16) && !forwards(48) && !forwards(2047))
        #expect(forwards(2048) && forwards(4048))
        #expect(StreamOrder(reading: source, writing: base).forwards)
        // Two sources, the target 48 bytes past the first: with the second 96 bytes past the
        // target, forwards meets a store 48 bytes back and backwards one 96 bytes ahead, so
        // backwards; with the second 16 bytes past it, backwards would meet one 16 bytes ahead.
        let target = base + 4096 + 48
        #expect(!StreamOrder(reading: source, UnsafeRawPointer(target + 96), writing: target).forwards)
        #expect(StreamOrder(reading: source, UnsafeRawPointer(target + 16), writing: target).forwards)
    }

    /// Positions visit every step once in either order.
    @Test func positionsCoverEveryStep() {
        for order in [StreamOrder(forwards: true), StreamOrder(forwards: false)] {
            let positions = (0..<37).map { order.position($0, of: 37) }
            #expect(positions.sorted() == Array(0..<37))
            #expect(positions.first == (order.forwards ? 0 : 36))
            #expect(order.prefetchLead == (order.forwards ? 8192 : -8192))
        }
    }

    /// Premultiplying and un-premultiplying whole images give the scalar references' bytes
    /// walking either way (the target 48 bytes past the source walks backwards, 4048 forwards).
    @Test(arguments: [48, 4048], [true, false])
    func alphaConversionsWalkEitherWay(_ offset: Int, premultiplying: Bool) {
        let pixels = 3001
        var rng = XorShift64(seed: 7)
        let input = (0..<4 * pixels).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var expected = input
        expected.withUnsafeMutableBufferPointer {
            if premultiplying {
                premultiplyScalar($0.baseAddress!, into: $0.baseAddress!, pixels: pixels)
            } else {
                unpremultiplyScalar($0.baseAddress!, into: $0.baseAddress!, pixels: pixels)
            }
        }
        let output = withStreamPlacement([input], targetBytes: 4 * pixels, targetOffset: offset) { sources, target in
            #expect(StreamOrder(reading: sources[0], writing: target).forwards == (offset > 2048))
            if premultiplying {
                premultiply(sources[0], into: target, pixels: pixels)
            } else {
                unpremultiply(sources[0], into: target, pixels: pixels)
            }
            return Array(UnsafeBufferPointer(start: target, count: 4 * pixels))
        }
        #expect(output == expected)
    }
}
