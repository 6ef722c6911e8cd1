import Synchronization

/// Values kept in memory up to a total size in bytes, the least recently used out first: the hot
/// results above the disk result cache, and decoded sources. A dictionary over a doubly linked
/// list of slots (indices into one array, reused), so a lookup, an insertion and an eviction are
/// O(1) whatever the count.
public final class MemoryLRU<Value: Sendable>: Sendable {
    private struct Slot {
        var key: String
        var value: Value?
        var size: Int
        var newer = -1, older = -1
    }
    private struct State {
        var slots: [Slot] = []
        var free: [Int] = []
        var index: [String: Int] = [:]
        var newest = -1, oldest = -1
        var total = 0
        var hits = 0, misses = 0

        mutating func unlink(_ i: Int) {
            let (newer, older) = (slots[i].newer, slots[i].older)
            if newer >= 0 { slots[newer].older = older } else { newest = older }
            if older >= 0 { slots[older].newer = newer } else { oldest = newer }
            slots[i].newer = -1
            slots[i].older = -1
        }

        mutating func pushNewest(_ i: Int) {
            slots[i].older = newest
            if newest >= 0 { slots[newest].newer = i }
            newest = i
            if oldest < 0 { oldest = i }
        }

        mutating func remove(_ i: Int) {
            unlink(i)
            index[slots[i].key] = nil
            total -= slots[i].size
            slots[i].value = nil
            free.append(i)
        }
    }
    private let state = Mutex(State())

    /// The most bytes kept (0: nothing is kept).
    public let maxBytes: Int

    public init(maxBytes: Int) {
        self.maxBytes = max(0, maxBytes)
    }

    /// The value kept under `key`, now the most recently used; nil when there is none.
    public func get(_ key: String) -> Value? {
        state.withLock { s in
            guard let i = s.index[key] else {
                s.misses += 1
                return nil
            }
            s.hits += 1
            s.unlink(i)
            s.pushNewest(i)
            return s.slots[i].value
        }
    }

    /// Keeps `value` under `key` as `size` bytes (replacing any), then drops the least recently
    /// used until the total fits. A value larger than the whole cap is not kept.
    public func put(_ key: String, _ value: Value, size: Int) {
        state.withLock { s in
            if let old = s.index[key] { s.remove(old) }
            guard size <= maxBytes else { return }
            let slot = Slot(key: key, value: value, size: size)
            let i: Int
            if let reused = s.free.popLast() {
                s.slots[reused] = slot
                i = reused
            } else {
                s.slots.append(slot)
                i = s.slots.count - 1
            }
            s.index[key] = i
            s.pushNewest(i)
            s.total += size
            while s.total > maxBytes, s.oldest >= 0 { s.remove(s.oldest) }
        }
    }

    /// Drops the value kept under `key`, if any.
    public func remove(_ key: String) {
        state.withLock { s in
            if let i = s.index[key] { s.remove(i) }
        }
    }

    /// Hits, misses, bytes and values held, for `/metrics`.
    public var statistics: (hits: Int, misses: Int, bytes: Int, count: Int) {
        state.withLock { ($0.hits, $0.misses, $0.total, $0.index.count) }
    }
}
