import ArgumentParser
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on stderr while stderr is a terminal (nothing otherwise), with what
/// is left to do estimated from the pace so far.
struct ProgressBar {
    let total: Int
    /// What the bar counts (`shard 3/8`), before it.
    let label: String
    let isShown: Bool
    let started = DispatchTime.now().uptimeNanoseconds

    init(total: Int, label: String = "", shown: Bool = true) {
        self.total = total
        self.label = label
        isShown = shown && isatty(2) != 0
    }

    func show(_ done: Int, _ item: String) {
        guard isShown else { return }
        let width = 30, filled = total == 0 ? width : width * done / total
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let eta = done > 0 && done < total ? " ETA " + Self.duration(elapsed / Double(done) * Double(total - done)) : ""
        writeError("\r" + (label.isEmpty ? "" : label + " ") + "[" + String(repeating: "#", count: filled)
            + String(repeating: " ", count: width - filled) + "] \(done)/\(total)\(eta) \(item)\u{1B}[K")
    }

    /// 42s, 3m07s, 2h05m.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s)s" }
        if s < 3600 { return String(format: "%dm%02ds", s / 60, s % 60) }
        return String(format: "%dh%02dm", s / 3600, s % 3600 / 60)
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
