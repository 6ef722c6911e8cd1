/// "did you mean …?" for a mistyped verb, step or key: the valid name closest to `name` in edit
/// distance (Levenshtein 1966, with Damerau's transposition of neighbours as one edit), when it is
/// close enough to be the intended one (at most a third of the letters changed, or `name` a
/// prefix of it).
func nearestName(to name: String, in names: [String]) -> String? {
    let typed = Array(name.lowercased())
    let scored = names.map { candidate -> (String, Int) in
        let target = Array(candidate)
        // d[i][j]: the distance between the first i typed and the first j target characters.
        var d = [[Int]](repeating: [Int](repeating: 0, count: target.count + 1), count: typed.count + 1)
        for i in 0...typed.count { d[i][0] = i }
        for j in 0...target.count { d[0][j] = j }
        for i in typed.indices {
            for j in target.indices {
                d[i + 1][j + 1] = min(d[i][j + 1] + 1, d[i + 1][j] + 1, d[i][j] + (typed[i] == target[j] ? 0 : 1))
                if i > 0, j > 0, typed[i] == target[j - 1], typed[i - 1] == target[j] {
                    d[i + 1][j + 1] = min(d[i + 1][j + 1], d[i - 1][j - 1] + 1)
                }
            }
        }
        return (candidate, d[typed.count][target.count])
    }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    if best.1 <= max(1, typed.count / 3) { return best.0 }
    return names.first { !typed.isEmpty && $0.hasPrefix(String(typed)) }
}

/// " (did you mean X?)", or nothing.
func suggestion(for name: String, in names: [String]) -> String {
    nearestName(to: name, in: names).map { " (did you mean \($0)?)" } ?? ""
}

/// The option names a help text lists in its option rows (`  -o, --output <output>`,
/// `  --label/--no-label`): long and short, so that what is accepted is checked against what the
/// help prints.
func optionNames(in help: String) -> [String] {
    var names: [String] = []
    for line in help.split(separator: "\n") where line.hasPrefix("  -") && !line.hasPrefix("   ") {
        let head = line.dropFirst(2).components(separatedBy: "  ")[0]
        for part in head.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" }) where part.hasPrefix("-") {
            names.append(String(part))
        }
    }
    return names + ["--help", "-h"]
}
