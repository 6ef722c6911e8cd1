/// The few elements Frost reads from S3's and STS's XML answers (a listing's keys, sizes and ETags,
/// an upload's id, an error's code, temporary credentials): found by name, their text with XML's
/// entities decoded. Not a general XML parser: these documents have no CDATA, comments or
/// attributes on the elements read, and Foundation's XMLParser would bring libxml2 into the image.
struct XMLText {
    let text: Substring

    init(_ bytes: [UInt8]) { text = Substring(String(decoding: bytes, as: UTF8.self)) }
    private init(_ text: Substring) { self.text = text }

    /// Every `<name>…</name>` directly or deeply inside, in order.
    func all(_ name: String) -> [XMLText] {
        var found: [XMLText] = []
        var rest = text[...]
        let open = "<\(name)>", close = "</\(name)>"
        while let start = rest.range(of: open) {
            guard let end = rest[start.upperBound...].range(of: close) else { break }
            found.append(XMLText(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The first `<name>` element's decoded text.
    func value(_ name: String) -> String? { all(name).first.map { Self.decoded($0.text) } }

    /// XML's five entities and numeric references.
    static func decoded(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = "", rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                out += number.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
