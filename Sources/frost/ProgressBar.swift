import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr while stderr is a terminal (nothing otherwise).
struct ProgressBar {
    let total: Int
    let isShown = isatty(2) != 0

    func show(_ done: Int, _ label: String) {
        guard isShown else { return }
        let width = 30, filled = total == 0 ? width : width * done / total
        writeError("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total) \(label)\u{1B}[K")
    }

    /// Clears the bar's line (before an error line, and at the end).
    func clear() {
        if isShown { writeError("\r\u{1B}[K") }
    }
}

/// Raw text on stderr (progress bars).
func writeError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// K/N for `--shard` and `--frames`: part K (0…N−1) of N.
func parseSlice(_ text: String, option: String) throws -> (Int, Int) {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else {
        throw ValidationError("\(option) must be K/N, part K (counted from 0) of N equal parts, with 0 <= K < N: e.g. 0/4 … 3/4 for four workers; not '\(text)'")
    }
    return (k, n)
}
