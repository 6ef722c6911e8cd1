import Foundation
import Frost
import FrostTestSupport
import Synchronization
import Testing

/// What a server relies on: concurrent calls give the serial calls' bytes, one renderer serves
/// many tasks, and the compute budget bounds the threads all calls take together. `make test`
/// runs this suite under ThreadSanitizer too.
@Suite struct ConcurrencyTests {
    /// Sixteen different JPEGs: crops of the sample photos at several sizes.
    static func uploads() throws -> [Data] {
        let photos = try ["rocket.jpg", "UNIS_EV0.jpg", "coffee.png"].map {
            try Image(contentsOf: URL(fileURLWithPath: Corpus.repository + "/SampleImages/" + $0))
        }
        return try (0..<16).map { i in
            let photo = photos[i % photos.count]
            let side = 64 + 24 * i
            let crop = photo.cropped(to: PixelBounds(x: 7 * i, y: 5 * i, width: min(side, photo.width - 7 * i), height: min(side, photo.height - 5 * i)))
            return try crop.encoded(.jpeg(JPEGSettings(quality: 90)))
        }
    }

    static func serialRequest(_ upload: Data, _ i: Int) throws -> Data {
        try Image(data: upload).gaussianBlurred(sigma: Double(2 + i % 5)).encoded(i % 2 == 0 ? .webp(.lossy(quality: 80)) : .png())
    }

    @Test func sixteenConcurrentRequestsGiveTheSerialBytes() async throws {
        let uploads = try Self.uploads()
        let serial = try uploads.enumerated().map { try Self.serialRequest($1, $0) }
        let concurrent = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (i, upload) in uploads.enumerated() {
                group.addTask {
                    let image = try await Image(data: upload)
                    let blurred = await image.gaussianBlurred(sigma: Double(2 + i % 5))
                    return (i, try await blurred.encoded(i % 2 == 0 ? .webp(.lossy(quality: 80)) : .png()))
                }
            }
            var results = [Data](repeating: Data(), count: uploads.count)
            for try await (i, data) in group { results[i] = data }
            return results
        }
        #expect(concurrent == serial)
    }

    /// Frames of the Secret viewer (blurred levels, retained layers) from 8 tasks sharing one
    /// renderer, against a fresh renderer's frames one after another (at a quarter of its scale:
    /// the suite runs under ThreadSanitizer too).
    @Test func oneRendererServesEightTasks() async throws {
        let offsets = (0..<8).map { Double($0) * 40 }
        let serial = try Self.serialFrames(offsets)
        let shared = try Self.viewer()
        let frames = try await withThrowingTaskGroup(of: (Int, Image).self) { group in
            for (i, offset) in offsets.enumerated() {
                group.addTask { (i, try await shared.frame(at: DriverState(scroll: offset))) }
            }
            var frames = [Image?](repeating: nil, count: offsets.count)
            for try await (i, frame) in group { frames[i] = frame }
            return frames
        }
        #expect(frames == serial)
    }

    static func viewer() throws -> MotionRenderer {
        let folder = Corpus.repository + "/SampleImages/motion"
        var motion = try MotionScene(json: Array(Data(contentsOf: URL(fileURLWithPath: folder + "/secret-viewer.json"))), directory: folder)
        motion.scene.scale /= 4
        return try MotionRenderer(motion, assets: SceneAssets(for: motion.scene, relativeTo: folder), directory: folder)
    }

    static func serialFrames(_ offsets: [Double]) throws -> [Image?] {
        let renderer = try viewer()
        return try offsets.map { try renderer.frame(at: DriverState(scroll: $0)) }
    }

    /// Jobs on a budget of two threads: never more than two run at once, all finish, in order of
    /// arrival once the budget is full; raising the limit lets the waiting ones start.
    @Test func budgetBoundsTheJobsRunningAtOnce() async {
        let budget = ComputeBudget(threads: 2)
        let running = Counter(), most = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await budget.run {
                        let now = running.value.add(1, ordering: .sequentiallyConsistent).newValue
                        most.value.max(now, ordering: .sequentiallyConsistent)
                        usleep(5_000)
                        running.value.subtract(1, ordering: .sequentiallyConsistent)
                    }
                }
            }
        }
        let peak = most.value.load(ordering: .sequentiallyConsistent)
        #expect(peak == 2)
        #expect(budget.threadsInUse == 0)
    }

    /// On one thread: request A's first job runs while B's and C's wait; when it ends B starts (A's
    /// next job is not asked for yet), and A's second job, asked for while B runs, goes before C's,
    /// which came later than A's start (first come, first served would run C first).
    @Test func aStartedRequestsJobsGoBeforeLaterOnes() async {
        let budget = ComputeBudget(threads: 1)
        let log = Log(), gate = Counter()
        func until(_ condition: () -> Bool) async { while !condition() { try? await Task.sleep(for: .milliseconds(1)) } }
        let a = Task {
            await budget.request {
                await budget.run { while gate.value.load(ordering: .acquiring) < 1 { usleep(500) }; log.add("A1") }
                await budget.run { log.add("A2") }
            }
        }
        await until { budget.threadsInUse == 1 }
        let b = Task { await budget.request { await budget.run { log.add("B"); while gate.value.load(ordering: .acquiring) < 2 { usleep(500) } } } }
        await until { budget.jobsWaiting == 1 }
        let c = Task { await budget.request { await budget.run { log.add("C") } } }
        await until { budget.jobsWaiting == 2 }
        gate.value.store(1, ordering: .releasing)
        await until { log.entries.contains("B") && budget.jobsWaiting == 2 }
        gate.value.store(2, ordering: .releasing)
        _ = await (a.value, b.value, c.value)
        #expect(log.entries == ["A1", "B", "A2", "C"])
    }

    /// A job runs on a thread of its own, not on the task's: a job that blocks its thread leaves
    /// Swift's cooperative threads free for other tasks.
    @Test func jobsDoNotBlockTheCooperativePool() async {
        let budget = ComputeBudget(threads: 64)
        let released = Counter()
        await withTaskGroup(of: Void.self) { group in
            // More blocked jobs than there are cooperative threads (one per core)...
            for _ in 0..<(ComputeBudget.cores + 2) {
                group.addTask { await budget.run { while released.value.load(ordering: .acquiring) == 0 { usleep(1_000) } } }
            }
            // ...and a plain task still runs, and releases them.
            group.addTask { released.value.store(1, ordering: .releasing) }
        }
        let done = released.value.load(ordering: .acquiring)
        #expect(done == 1)
    }
}

/// What jobs write, in order.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ entry: String) { lock.withLock { list.append(entry) } }
    var entries: [String] { lock.withLock { list } }
}

/// An atomic integer that closures can share.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
