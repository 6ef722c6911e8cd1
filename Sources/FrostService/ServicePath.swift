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

    /// Parses `path` (the URL's path, still percent-encoded; a query is not part of it).
    public init(parsing path: String) throws(ServiceError) {
        guard path.hasPrefix("/") else { throw .badRequest("a path begins with /") }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 2, !segments[0].isEmpty else { throw .badRequest("no signature and source in the path") }
        signature = segments[0]
        signed = "/" + segments.dropFirst().joined(separator: "/")
        var options: [Option] = []
        var index = 1
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

    /// The format an extension names (`jpg`, `jpeg`, `png`, `webp`, `avif`, `heic`, `gif`); empty: none.
    static func format(_ text: String) throws(ServiceError) -> ImageFormat? {
        if text.isEmpty { return nil }
        guard let format = ImageFormat(name: text) else { throw .badRequest("unknown output format '\(text)'") }
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
