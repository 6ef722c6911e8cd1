import FrostCodecs

/// A processing or info URL's path in imgproxy's grammar (docs/serve.md, "URLs"):
/// `/SIGNATURE/OPTION/OPTION/plain/SOURCE@EXT` or `/SIGNATURE/OPTION/…/BASE64SOURCE.EXT`, an option
/// being `name:arg:arg`, the base64 source URL-safe and splittable by slashes anywhere.
public struct ServicePath: Sendable, Equatable {
    /// One option as written: its name and its arguments.
    public struct Option: Sendable, Equatable {
        public let name: String
        public let arguments: [String]

        public init(name: String, arguments: [String]) {
            self.name = name
            self.arguments = arguments
        }

        /// Options written as in a URL, `rs:fit:300:0/q:70` (a preset's definition).
        public static func list(parsing text: String) throws(ServiceError) -> [Option] {
            try text.split(separator: "/").map { segment throws(ServiceError) in
                let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard parts.count >= 2, !parts[0].isEmpty else { throw .badRequest("'\(segment)' is not name:argument") }
                return Option(name: parts[0], arguments: Array(parts.dropFirst()))
            }
        }
    }

    /// The signature segment as given.
    public let signature: String
    /// What the signature covers: the path after the signature segment, from its slash.
    public let signed: String
    /// The options in the order written.
    public let options: [Option]
    /// The source URL, decoded (`local:///photo.jpg`, `https://…`).
    public let source: String
    /// The format the extension asks for (nil: none given).
    public let format: ImageFormat?

    /// Parses `path` (the URL's path, still percent-encoded; a query is not part of it), repaired
    /// as `signedPart` repairs it.
    public init(parsing path: String) throws(ServiceError) {
        let (signature, signed) = try Self.signedPart(of: path)
        try self.init(signature: signature, signed: signed)
    }

    /// The signature segment and the path it signs (from the slash after it), before the rest is
    /// parsed: imgproxy checks the signature first, so a forged malformed URL is a 403, not a 400.
    /// What a CDN may have done to the path is undone first, as imgproxy undoes it (and signs the
    /// repaired path): `%3A` in the options back to `:`, and a plain source's `scheme:/host`
    /// (`local:/a.jpg`) back to `scheme://host` (`local:///a.jpg`).
    public static func signedPart(of path: String) throws(ServiceError) -> (signature: String, signed: String) {
        guard path.hasPrefix("/") else { throw .badRequest("a path begins with /") }
        let rest = path.dropFirst()
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex else {
            throw .badRequest("no signature and source in the path")
        }
        return (String(rest[..<slash]), "/" + repaired(String(rest[rest.index(after: slash)...])))
    }

    /// imgproxy's "re-denormalisation" of the path after the signature.
    static func repaired(_ path: String) -> String {
        var options: Substring, plain: Substring?
        if path.hasPrefix("plain/") {
            (options, plain) = ("", path.dropFirst("plain/".count))
        } else if let range = path.range(of: "/plain/") {
            (options, plain) = (path[..<range.lowerBound], path[range.upperBound...])
        } else {
            (options, plain) = (Substring(path), nil)
        }
        let fixed = options.split(separator: "%3A", omittingEmptySubsequences: false).joined(separator: ":")
        guard var source = plain else { return fixed }
        // `scheme:/x` (x not a slash) → `scheme://x`, `local:///x` for a local source.
        if let colon = source.firstIndex(of: ":") {
            let scheme = source[..<colon], after = source[source.index(after: colon)...]
            if !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), after.hasPrefix("/"),
               let next = after.dropFirst().first, next != "/" {
                source = scheme + (scheme == "local" ? ":///" : "://") + after.dropFirst()
            }
        }
        return (fixed.isEmpty ? "" : fixed + "/") + "plain/" + source
    }

    /// Parses the signed part of a path (`signedPart`).
    public init(signature: String, signed: String) throws(ServiceError) {
        self.signature = signature
        self.signed = signed
        let segments = signed.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var options: [Option] = []
        var index = 0
        // Options are the segments with a colon before the source: `plain`, or base64 (no colon).
        while index < segments.count, segments[index] != "plain", segments[index].contains(":") {
            let parts = segments[index].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            options.append(Option(name: parts[0], arguments: Array(parts.dropFirst())))
            index += 1
        }
        self.options = options
        guard index < segments.count else { throw .badRequest("no source in the path") }
        if segments[index] == "plain" {
            var rest = segments[(index + 1)...].joined(separator: "/")
            var format: ImageFormat?
            if let at = rest.lastIndex(of: "@") {
                format = try Self.format(String(rest[rest.index(after: at)...]))
                rest = String(rest[..<at])
            }
            guard let decoded = Self.percentDecoded(rest), !decoded.isEmpty else { throw .badRequest("the plain source is not a URL") }
            source = decoded
            self.format = format
        } else {
            var rest = segments[index...].joined()
            var format: ImageFormat?
            if let dot = rest.lastIndex(of: ".") {
                format = try Self.format(String(rest[rest.index(after: dot)...]))
                rest = String(rest[..<dot])
            }
            guard let bytes = Base64URL.decode(rest), !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else {
                throw .badRequest("the source is neither plain/… nor URL-safe base64")
            }
            source = text
            self.format = format
        }
        guard !source.utf8.contains(0) else { throw .badRequest("the source holds a NUL byte") }
    }

    /// The format an extension or an option names (`jpg`, `jpeg`, `png`, `webp`, `avif`, `heic`,
    /// `gif`); empty: none.
    static func format(_ text: String, option: String = "extension") throws(ServiceError) -> ImageFormat? {
        if text.isEmpty { return nil }
        guard let format = ImageFormat(name: text) else { throw .badRequest("\(option): unknown output format '\(text)' (jpg, png, webp, avif, heic, gif)") }
        return format
    }

    /// `%XX` escapes decoded (RFC 3986 §2.1); nil for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: String) -> String? {
        var out: [UInt8] = []
        var bytes = text.utf8.makeIterator()
        while let c = bytes.next() {
            guard c == UInt8(ascii: "%") else { out.append(c); continue }
            guard let h = bytes.next(), let l = bytes.next(), let value = UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16) else { return nil }
            out.append(value)
        }
        return String(validating: out, as: UTF8.self)
    }
}
