/// Streaming stores (`frost_stream_store`) need 32-byte aligned targets, so a kernel that uses
/// them first writes the elements before `target`'s first 32-byte boundary another way. This is
/// how many `unit`-byte elements that is (at most `count`), or nil when no whole number of them
/// reaches a boundary (a target off the `unit`-byte grid, which then takes ordinary stores).
@_spi(Kernels) public func streamingHead(_ target: UnsafeMutableRawPointer, count: Int, unit: Int) -> Int? {
    let gap = (32 - Int(bitPattern: target) & 31) & 31
    return gap % unit == 0 ? min(count, gap / unit) : nil
}
