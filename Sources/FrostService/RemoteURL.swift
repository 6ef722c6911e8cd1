#if canImport(Glibc)
import Glibc
#endif

/// An `http(s)://` source URL taken apart by Frost's own strict reading, before any library sees
/// it: the download is made from `canonical`, rebuilt from the parts checked here, so no parser
/// downstream (Foundation's, AsyncHTTPClient's, NIO's) can read it differently. A port outside
/// 1–65535 trapped inside NIO (`SocketAddress(ipAddress:port:)`) when a URL reached it unchecked.
///
/// What is refused (400): another scheme; credentials (`user:pass@`); an empty host; a host name
/// with characters outside letters, digits, `-`, `_` and `.`, or a label longer than 63, or a name
/// longer than 253 (RFC 1035 §2.3.4); a host that reads as a number but is not a dotted quad of
/// four decimal parts (`127.1`, `0x7f.0.0.1`, `2130706433`: the WHATWG URL standard's IPv4 forms,
/// which `inet_aton` and browsers take for addresses); a bracketed IPv6 address `inet_pton` does
/// not read (a zone `%eth0` included); a port that is not 1–5 digits from 1 to 65535.
public struct RemoteURL: Sendable, Equatable {
    /// `http` or `https`, lowercase.
    public let scheme: String
    /// The host, lowercase: a name, a dotted quad, or an IPv6 address without brackets.
    public let host: String
    /// The port the URL gives, or the scheme's.
    public let port: Int
    /// The path and query, percent-encoded where they need it, beginning with `/`.
    public let target: String

    /// Whether `host` is an IPv6 address (written in brackets in a URL).
    public var isIPv6: Bool { host.contains(":") }

    /// The URL as downloaded: `scheme://host[:port]/target`, the port written only when not the scheme's.
    public var canonical: String {
        let authority = isIPv6 ? "[" + host + "]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return scheme + "://" + authority + (port == defaultPort ? "" : ":\(port)") + target
    }

    public init(parsing url: String) throws(ServiceError) {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[colon...].starts(with: Array("://".utf8)) else { throw Self.refused("is not an http(s) URL") }
        scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else { throw Self.refused("is not an http(s) URL") }
        let rest = bytes[(colon + 3)...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        let authority = rest[..<end]
        guard !authority.contains(UInt8(ascii: "@")) else { throw Self.refused("holds credentials (user@host)") }
        var hostPart = authority[...], portPart: ArraySlice<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { throw Self.refused("has an unclosed [ in its host") }
            hostPart = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { throw Self.refused("has text after its IPv6 address") }
                portPart = after.dropFirst()
            }
            host = String(decoding: hostPart, as: UTF8.self).lowercased()
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, host, &v6) == 1 else { throw Self.refused("has a host that is not an IPv6 address: [\(host)]") }
        } else {
            if let c = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostPart = authority[..<c]
                portPart = authority[(c + 1)...]
            }
            host = String(decoding: hostPart, as: UTF8.self).lowercased()
            try Self.checkName(host)
        }
        let defaultPort = scheme == "https" ? 443 : 80
        if let portPart, !portPart.isEmpty {
            guard portPart.count <= 5, portPart.allSatisfy({ (48...57).contains($0) }), let value = Int(String(decoding: portPart, as: UTF8.self)),
                  (1...65535).contains(value) else {
                throw Self.refused("has a port that is not 1 to 65535: \(String(decoding: portPart.prefix(24), as: UTF8.self))")
            }
            port = value
        } else {
            port = defaultPort
        }
        // The fragment is the client's, never sent (RFC 9110 §7.1).
        let tail = rest[end...]
        let target = tail.prefix { $0 != UInt8(ascii: "#") }
        self.target = Self.encoded(target.first == UInt8(ascii: "/") ? target : [UInt8(ascii: "/")] + target)
    }

    /// A host name: letters, digits, `-`, `_` and `.`, labels of 1–63, at most 253 in all; a name
    /// that reads as a number only as a dotted quad.
    private static func checkName(_ host: String) throws(ServiceError) {
        guard !host.isEmpty else { throw refused("has no host") }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        guard name.utf8.count <= 253 else { throw refused("has a host name longer than 253 characters") }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count) else { throw refused("has a host name with an empty or over-long part") }
            guard label.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
                throw refused("has a host name with characters other than letters, digits, - and _")
            }
        }
        // WHATWG URL §3.5 "ends in a number": the last label all digits, or 0x followed by hex digits.
        let last = labels.last!.utf8
        let numeric = last.allSatisfy { (48...57).contains($0) }
            || (last.count >= 2 && last.starts(with: "0x".utf8) && last.dropFirst(2).allSatisfy(isHexDigit))
        if numeric {
            let dottedQuad = labels.count == 4 && labels.allSatisfy { part in
                part.utf8.allSatisfy { (48...57).contains($0) } && (part == "0" || !part.hasPrefix("0")) && (Int(part) ?? 256) <= 255
            }
            guard dottedQuad else { throw refused("has a numeric host that is not a dotted quad (a.b.c.d): \(host)") }
        }
    }

    /// Bytes outside RFC 3986's unreserved and reserved sets (and `%` not starting an escape)
    /// percent-encoded, so the request line holds only what the URL grammar allows.
    private static func encoded(_ target: some Collection<UInt8>) -> String {
        let bytes = Array(target)
        var out = ""
        out.reserveCapacity(bytes.count)
        for (i, b) in bytes.enumerated() {
            let allowed = allowedInTarget[Int(b)]
                || (b == UInt8(ascii: "%") && i + 2 < bytes.count && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2]))
            if allowed {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                out += "%" + String(b >> 4, radix: 16, uppercase: true) + String(b & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// RFC 3986's unreserved and reserved characters, less `#` and `[`/`]` (not valid in a path or query).
    private static let allowedInTarget: [Bool] = (0..<256).map { b in
        isAlphanumeric(UInt8(b)) || "-._~!$&'()*+,;=:@/?".utf8.contains(UInt8(b))
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b)
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b)
    }

    private static func refused(_ why: String) -> ServiceError { ServiceError(400, "the source URL " + why) }
}
