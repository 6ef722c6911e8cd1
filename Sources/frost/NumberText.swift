import Foundation

/// A number to two decimals, trailing zeros dropped (20, 6.67, 0.5).
func decimal(_ x: Double) -> String {
    var s = String(format: "%.2f", x)
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s == "-0" ? "0" : s
}

/// A byte count in SI units, three significant digits (812 B, 48.3 kB, 4.12 MB).
func byteCount(_ n: Int) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(n), unit = 0
    while value >= 999.5 && unit < units.count - 1 {
        value /= 1000
        unit += 1
    }
    return unit == 0 ? "\(n) B" : String(format: value < 9.995 ? "%.2f %@" : value < 99.95 ? "%.1f %@" : "%.0f %@", value, units[unit])
}
