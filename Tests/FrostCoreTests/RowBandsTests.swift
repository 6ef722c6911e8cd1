@_spi(Kernels) import FrostCore
import CFrostSystem
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

    /// Under a stop flag not raised, long bands are cut into pieces that still cover every row
    /// once; the flag reaches every helper thread; once raised, the pieces left are skipped.
    @Test(arguments: [1, 2, 3])
    func aStopFlagReachesEveryBandAndEndsTheRest(threads: Int) {
        let flag = StopFlag()
        for count in [1, 100, 5000, 20000] {
            let tally = Tally(count)
            let seen = Locked(true)
            flag.during {
                RowBands.run(count, threads: threads) { band in
                    band.forEach(tally.visit)
                    if !StopFlag.current, frost_stop_flag_get() == nil { seen.withLock { $0 = false } }
                }
            }
            #expect(tally.eachOnce && seen.withLock { $0 }, "count \(count)")
        }
        #expect(!StopFlag.current, "the flag is the thread's only inside during")
        // Raised in the first piece: no piece after it runs (a band of 20000 rows is 8 or more pieces).
        let pieces = Locked(0)
        flag.during {
            RowBands.run(20000, threads: 1) { _ in
                pieces.withLock { $0 += 1 }
                flag.raise()
            }
        }
        #expect(pieces.withLock { $0 } == 1 && flag.isRaised)
    }
}
