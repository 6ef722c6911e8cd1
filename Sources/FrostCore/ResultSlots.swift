import Foundation

/// The results of items done on several threads (`RowBands.runEach`): a cache's level files, a
/// batch's inputs, an animation's encoded frames. Each slot is filled once, by its item's thread, under one lock.
@_spi(Kernels) public final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]
    private var filled = 0

    /// `count` empty slots.
    public init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Fills slot i, then calls `report` with how many slots are filled, still under the lock:
    /// reports come one at a time.
    public func set(_ i: Int, _ value: Value, then report: (_ filled: Int) -> Void = { _ in }) {
        lock.lock(); defer { lock.unlock() }
        slots[i] = value
        filled += 1
        report(filled)
    }

    /// Every value in slot order, once every slot is filled.
    public var values: [Value] {
        lock.lock(); defer { lock.unlock() }
        return slots.map { $0! }
    }
}
