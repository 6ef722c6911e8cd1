@_spi(Kernels) import FrostCore
import Testing

/// The thread schedules: bands cover every row once; `runEach` runs every item once.
@Suite struct RowBandsTests {
    /// How often each index was visited, from any thread.
    final class Tally: Sendable {
        let counts: Locked<[Int]>
        init(_ count: Int) { counts = Locked(Array(repeating: 0, count: count)) }
        func visit(_ i: Int) { counts.withLock { $0[i] += 1 } }
        var eachOnce: Bool { counts.withLock { $0.allSatisfy { $0 == 1 } } }
    }

    @Test(arguments: [1, 2, 3, 8])
    func bandsCoverEveryIndexOnce(threads: Int) {
        for count in [0, 1, 7, 100] {
            let tally = Tally(count)
            RowBands.run(count, threads: threads, minimumBand: 3) { band in band.forEach(tally.visit) }
            #expect(tally.eachOnce, "count \(count)")
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func runEachRunsEveryItemOnce(threads: Int) {
        for count in [0, 1, 2, 11, 200] {
            let tally = Tally(count)
            RowBands.runEach(count, threads: threads, tally.visit)
            #expect(tally.eachOnce, "count \(count)")
        }
    }
}
