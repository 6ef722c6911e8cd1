import CFrostSystem

/// The order in which a kernel that reads images and writes another in lockstep (the same offset
/// into each) walks its steps: forwards, or backwards where forwards would make its loads wait
/// on its own stores.
///
/// A load is first checked against the stores still in flight by the low 12 bits of the address
/// only; one that matches such a store ("4K aliasing") waits for it as if it read its data. Heap
/// buffers lie at any offset δ = (target − source) mod 4096 from each other. Forwards, the load
/// at byte i meets the store of byte i − δ: with δ under a few hundred bytes that store was made
/// a few steps before and is still in flight (streaming stores stay there longest), so every load
/// waits. Backwards it meets the store of byte i + 4096 − δ, made long before. Measured on the
/// color kernel, 4096² RGBA, one thread (AMD EPYC Zen 4): 3.0-3.2 Gpixel/s forwards at δ = 0 or
/// 2048, 1.7 at δ = 48 (where `frost bench` found its source and result), 1.3 at δ = 80, and 3.2
/// backwards at δ = 48. So the order keeps the distance between a load and the store it meets
/// (δ forwards, 4096 − δ backwards, 4096 for δ = 0) the larger for the nearest source.
@_spi(Kernels) public struct StreamOrder: Sendable, Equatable {
    public let forwards: Bool

    /// The order: forwards or backwards through memory.
    public init(forwards: Bool) { self.forwards = forwards }

    /// The order for a kernel that reads `source` (and `second`) and writes `target`.
    public init(reading source: UnsafeRawPointer, _ second: UnsafeRawPointer? = nil, writing target: UnsafeRawPointer) {
        func offset(_ p: UnsafeRawPointer) -> Int { (Int(bitPattern: target) &- Int(bitPattern: p)) & 4095 }
        let offsets = (offset(source), second.map(offset) ?? offset(source))
        let ahead = min(offsets.0 == 0 ? 4096 : offsets.0, offsets.1 == 0 ? 4096 : offsets.1)
        forwards = ahead >= 4096 - max(offsets.0, offsets.1)
    }

    /// The position of step `i` of `count`.
    @inline(__always)
    public func position(_ i: Int, of count: Int) -> Int { forwards ? i : count &- 1 &- i }

    /// Where a step asks for its data ahead of time (`frost_prefetch_at`): `FROST_PREFETCH_LEAD`
    /// further along the walk.
    public var prefetchLead: Int { forwards ? Int(FROST_PREFETCH_LEAD) : -Int(FROST_PREFETCH_LEAD) }
}
