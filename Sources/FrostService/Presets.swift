/// imgproxy's presets file (`IMGPROXY_PRESETS_PATH`, Frost's `--presets FILE`): a preset a line,
/// `NAME=OPTIONS` with the options written as in a URL (`thumb=rs:fill:64:64/q:70`), blank lines
/// and lines starting with `#` skipped, spaces around the name and the options trimmed. A preset
/// named `default` applies to every URL first. Every preset is tried once when read, so that a
/// wrong one stops the server at start, as imgproxy's does.
public enum Presets {
    /// The presets of `text`, added to `presets` (a later definition of a name replaces it).
    public static func parse(_ text: String, into presets: [String: [ServicePath.Option]] = [:]) throws(ServiceError) -> [String: [ServicePath.Option]] {
        var presets = presets
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = trimmed(raw)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw .badRequest("line \(number + 1): '\(line)' is not NAME=OPTIONS") }
            let name = trimmed(parts[0]), value = trimmed(parts[1])
            guard !name.isEmpty, !value.isEmpty else { throw .badRequest("line \(number + 1): '\(line)' has an empty name or no options") }
            do {
                presets[name] = try ServicePath.Option.list(parsing: value)
            } catch {
                throw .badRequest("line \(number + 1): preset \(name): \(error.message)")
            }
        }
        for name in presets.keys {
            do {
                _ = try ProcessingOptions([ServicePath.Option(name: "pr", arguments: [name])], presets: presets)
            } catch {
                throw .badRequest("preset \(name): \(error.message)")
            }
        }
        return presets
    }
}

/// `text` without the spaces, tabs and carriage returns around it.
private func trimmed(_ text: Substring) -> String {
    var t = text
    while let c = t.first, c == " " || c == "\t" || c == "\r" { t.removeFirst() }
    while let c = t.last, c == " " || c == "\t" || c == "\r" { t.removeLast() }
    return String(t)
}
