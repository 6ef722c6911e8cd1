// JSON written by hand where a few fields in a fixed order are all there is (`frost info --json`,
// the service's `/info`): no encoder, the order kept.

/// A JSON object from keys and their values already written as JSON, in order.
package func jsonObject(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(jsonString($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
}

/// A JSON string literal (RFC 8259 §7 escapes).
package func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
