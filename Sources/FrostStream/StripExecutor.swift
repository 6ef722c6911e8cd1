import CFrostSystem
import Dispatch
import Foundation
@_spi(Kernels) import FrostCore
import FrostCodecs
import FrostEffects

/// Where a streamed image's rows come from, in order (a JPEG as it is decoded).
package protocol RowReader: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// The next `count` rows into `rows[0]` … (RGBA8).
    func read(_ rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws
}

/// Runs a chain of row operations over an image as it is read, strip by strip of output rows, on
/// `threads` threads, holding only a window of rows in memory (docs/design.md, Streaming): libvips's
/// demand-driven pipeline, with the schedule apart from the kernels (Halide).
///
/// The reader's rows pass through a ring. Every thread takes whichever job is ready: reading the
/// next rows (one thread at a time: decoding is serial) while the ring has room, else making the
/// next strip, whose input rows are all read, through every operation (each strip needs its
/// window of rows from every stage: `RowOperation.inputRows`), then handing it to `produce` (which
/// encodes it, or copies it out). Reading comes first, since the reader is the one job that
/// cannot be shared. A strip's rows leave the ring when the oldest strip still being made no
/// longer needs them. What `produce` returns goes to `emit` in strip order, one at a time.
///
/// A strip's edges are made again by its neighbour (a blur's reach, a resize's taps): that is
/// the price of independent strips. Results are the whole-image operations' bytes, whatever the
/// strip height or thread count.
package final class StripExecutor: @unchecked Sendable {
    let reader: any RowReader
    let operations: [any RowOperation]
    let strips: [Range<Int>]
    let threads: Int
    /// Each strip's rows at every stage: needs[k][0] of the reader, needs[k][i + 1] of operation i.
    private let needs: [[Range<Int>]]
    /// Ring slots (reader rows).
    let ringRows: Int
    /// Rows read at a time.
    static let chunkRows = 16
    /// The ring size from which it is mapped in huge pages (`frost_map_buffer`).
    static let hugeRingBytes = 4 << 20

    /// `strips` cut the last operation's output rows (the reader's, without operations) in order.
    package init(reader: any RowReader, operations: [any RowOperation], strips: [Range<Int>], threads: Int) {
        self.reader = reader
        self.operations = operations
        self.strips = strips
        self.threads = max(1, threads)
        needs = strips.map { strip in
            var chain = [strip]
            for operation in operations.reversed() { chain.insert(operation.inputRows(for: chain[0]), at: 0) }
            return chain
        }
        // The largest window any strip reads, plus a strip's worth of input per further thread,
        // plus a chunk: every thread can hold a strip while the reader stays ahead.
        let span = needs.map { $0[0].count }.max() ?? 1
        let advance = zip(needs.dropFirst(), needs).map { $0[0].upperBound - $1[0].upperBound }.max() ?? 0
        var rows = min(span + (self.threads - 1) * advance + Self.chunkRows, max(reader.height, 1))
        // Without operations the strips are the ring's own rows: whole strips in the ring.
        if operations.isEmpty, let first = strips.first { rows = (rows + first.count - 1) / first.count * first.count }
        ringRows = rows
    }

    /// The peak bytes the ring and the threads' windows take (for the notes and tests).
    package var windowBytes: Int {
        let ring = ringRows * reader.width * 4
        let windows = needs.map { chain in
            zip(operations, chain.dropFirst()).reduce(0) { $0 + $1.0.outputWidth * 4 * $1.1.count }
        }.max() ?? 0
        return ring + threads * windows
    }

    /// Runs every strip: `produce(k, rows)` makes strip k's result from its rows (a window holding
    /// `strips[k]` of the last operation's output, valid during the call), on any thread;
    /// `emit` takes the results in strip order. The first error stops everything and is thrown.
    package func run<Piece>(produce: (Int, PixelRows) throws -> Piece, emit: (Piece) throws -> Void) throws {
        // A large ring in huge pages: the reader, the one job that cannot be shared, touches it
        // first (a small one stays on the heap: a huge page is zeroed whole at its first touch).
        let bytes = max(1, ringRows * reader.width * 4), huge = bytes >= Self.hugeRingBytes
        let mapped = huge ? frost_map_buffer(bytes) : UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        guard let mapped else { throw CodecError(.outOfMemory, "out of memory") }
        let ring = mapped.assumingMemoryBound(to: UInt8.self)
        defer { if huge { frost_unmap_buffer(mapped, bytes) } else { mapped.deallocate() } }
        let state = State<Piece>(count: strips.count)
        withoutActuallyEscaping(produce) { produce in
            withoutActuallyEscaping(emit) { emit in
                let work = Work(executor: self, ring: ring, state: state, produce: produce, emit: emit)
                RowBands.concurrently(threads) { _, _ in work.loop() }
            }
        }
        if let error = state.error { throw error }
    }

    /// What the threads share, under one lock.
    private final class State<Piece>: @unchecked Sendable {
        let condition = NSCondition()
        var rowsRead = 0
        var reading = false
        var nextStrip = 0
        var finished: [Bool]
        var oldestUnfinished = 0
        /// Results waiting for the ones before them.
        var pending: [Int: Piece] = [:]
        var nextEmitted = 0
        var error: Error?

        init(count: Int) { finished = Array(repeating: false, count: count) }
    }

    private struct Work<Piece>: @unchecked Sendable {
        let executor: StripExecutor
        let ring: UnsafeMutablePointer<UInt8>
        let state: State<Piece>
        let produce: (Int, PixelRows) throws -> Piece
        let emit: (Piece) throws -> Void

        var source: PixelRows {
            PixelRows(base: ring, width: executor.reader.width, height: executor.reader.height, slots: executor.ringRows)
        }

        enum Job { case read(Int), strip(Int), wait, stop }

        /// The next job, under the lock.
        func nextJob() -> Job {
            let e = executor, s = state
            if s.error != nil || s.oldestUnfinished == e.strips.count { return .stop }
            // The rows no strip still to finish needs are free.
            let free = s.oldestUnfinished < e.strips.count ? e.needs[s.oldestUnfinished][0].lowerBound + e.ringRows : Int.max
            if !s.reading, s.rowsRead < e.reader.height, s.rowsRead < free {
                return .read(min(StripExecutor.chunkRows, e.reader.height - s.rowsRead, free - s.rowsRead))
            }
            if s.nextStrip < e.strips.count, e.needs[s.nextStrip][0].upperBound <= s.rowsRead { return .strip(s.nextStrip) }
            return .wait
        }

        func loop() {
            let s = state
            let windows = WindowBuffers()
            s.condition.lock()
            while true {
                switch nextJob() {
                case .stop:
                    s.condition.unlock()
                    return
                case .wait:
                    s.condition.wait()
                case .read(let count):
                    s.reading = true
                    let first = s.rowsRead
                    s.condition.unlock()
                    let failure = attempt { try read(first..<(first + count)) }
                    s.condition.lock()
                    s.reading = false
                    if let failure { s.error = s.error ?? failure } else { s.rowsRead += count }
                    s.condition.broadcast()
                case .strip(let k):
                    s.nextStrip += 1
                    s.condition.unlock()
                    var piece: Piece?
                    let failure = attempt { piece = try produce(k, make(k, windows)) }
                    s.condition.lock()
                    if let failure { s.error = s.error ?? failure } else { finish(k, piece!) }
                    s.condition.broadcast()
                }
            }
        }

        /// Strip k done (under the lock): frees its rows, emits what is now in order.
        private func finish(_ k: Int, _ piece: Piece) {
            let s = state
            s.finished[k] = true
            while s.oldestUnfinished < s.finished.count, s.finished[s.oldestUnfinished] { s.oldestUnfinished += 1 }
            s.pending[k] = piece
            while let next = s.pending.removeValue(forKey: s.nextEmitted) {
                if let failure = attempt({ try emit(next) }) { s.error = s.error ?? failure; return }
                s.nextEmitted += 1
            }
        }

        private func read(_ rows: Range<Int>) throws {
            let source = source
            var pointers = rows.map { Optional(source.row($0)) }
            try executor.reader.read(&pointers, count: rows.count)
        }

        /// Strip k through every operation: the last one's window.
        private func make(_ k: Int, _ windows: WindowBuffers) -> PixelRows {
            let chain = executor.needs[k]
            var input = source
            if executor.operations.isEmpty {
                // Whole strips lie in the ring (`ringRows`): the strip's rows as they are.
                let rows = chain[0]
                return PixelRows(base: input.row(rows.lowerBound), width: input.width, height: input.height,
                                 origin: rows.lowerBound, slots: rows.count)
            }
            for (i, operation) in executor.operations.enumerated() {
                let rows = chain[i + 1]
                let output = PixelRows(base: windows.buffer(i, bytes: operation.outputWidth * 4 * rows.count),
                                       width: operation.outputWidth, height: operation.outputHeight, origin: rows.lowerBound, slots: rows.count)
                operation.run(input, rows: rows, into: output)
                input = output
            }
            return input
        }
    }

    /// One thread's windows, one per stage, kept from strip to strip (grown when a strip needs more).
    private final class WindowBuffers {
        private var buffers: [(UnsafeMutablePointer<UInt8>, Int)] = []

        func buffer(_ i: Int, bytes: Int) -> UnsafeMutablePointer<UInt8> {
            while buffers.count <= i { buffers.append((.allocate(capacity: 1), 1)) }
            if buffers[i].1 < bytes {
                buffers[i].0.deallocate()
                buffers[i] = (.allocate(capacity: bytes), bytes)
            }
            return buffers[i].0
        }

        deinit { for (buffer, _) in buffers { buffer.deallocate() } }
    }
}

/// The error `body` throws, or nil.
private func attempt(_ body: () throws -> Void) -> Error? {
    do { try body(); return nil } catch { return error }
}
