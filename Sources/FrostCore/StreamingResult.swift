#if canImport(Glibc)
import Glibc
#endif

/// Whether a kernel should write a result of `bytes` bytes, which it writes once and does not
/// read back, with streaming stores (past the caches): when it is larger than the last-level
/// cache, it leaves the cache before anyone reads it, and ordinary stores first read every line
/// they write. Smaller results are better kept in cache for whatever reads them next. The box
/// blur, r = 40, one thread (AMD EPYC, 32 MiB L3), streaming at 4096²: RGBA 1.02-1.08x, RGB
/// 1.03x (medians over 12-20 alternating sets); at 1024² 0.92x, here and on the Intel Xeon. (The
/// color kernel streams at every size: ordinary stores lost 0.92-0.98x at 1024² as well.)
@_spi(Kernels) public func streamsPastCache(bytes: Int) -> Bool { bytes > lastLevelCacheBytes }

/// The L3 cache this process's first core reaches, as Linux describes it
/// (/sys/devices/system/cpu/cpu0/cache/index*/), or 32 MiB where it does not say. Not glibc's
/// sysconf: on a virtual machine it reported the host's whole 320 MiB where the core reaches 32.
@_spi(Kernels) public let lastLevelCacheBytes: Int = {
    let folder = "/sys/devices/system/cpu/cpu0/cache"
    for index in 0..<8 {
        guard let level = firstLine(of: "\(folder)/index\(index)/level"), level == "3",
              let size = firstLine(of: "\(folder)/index\(index)/size"), let bytes = cacheBytes(size) else { continue }
        return bytes
    }
    return 32 << 20
}()

/// "32768K" → 33 554 432 (sysfs cache sizes: a number and a K or M suffix).
func cacheBytes(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20]
    guard let unit = text.last.flatMap({ units[$0] }), let value = Int(text.dropLast()), value > 0 else { return Int(text) }
    return value * unit
}

private func firstLine(of path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 64)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return line.split(whereSeparator: \.isWhitespace).first.map(String.init)
}
