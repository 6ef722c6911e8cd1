/// Text a client sent (a path, a message naming a source), made safe to write into a log line:
/// control and invisible characters (C0, DEL, C1, Unicode's format and line/paragraph separators)
/// and the backslash are written as escapes, so a `%0a` in a URL cannot start a forged line and an
/// ESC cannot drive the operator's terminal.
enum LogText {
    static func escaped(_ text: String) -> String {
        // Printable ASCII without a backslash, the usual path: as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse:
                out += scalar.value < 0x100 ? "\\x" + hex(scalar.value, 2) : "\\u{" + hex(scalar.value, 4) + "}"
            default:
                out += scalar == "\\" ? "\\\\" : String(scalar)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
