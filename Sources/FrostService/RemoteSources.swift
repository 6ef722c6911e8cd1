import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which `http(s)://` sources the service fetches (`--allow-source HOST`, repeatable): only hosts
/// listed, by name or address. A host whose addresses include a loopback, private (RFC 1918, RFC
/// 4193), link-local, unspecified or multicast one is refused unless that address is listed too:
/// a listed name that resolves inside the network is not a way in. The address checked is the one
/// the download connects to (`check` returns it): a name that changes its answer after the check
/// (DNS rebinding) is not asked again.
public struct RemoteSources: Sendable {
    /// The hosts allowed, lowercase.
    public private(set) var hosts: Set<String> = []

    public init(hosts: [String] = []) {
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// Refuses (403) a URL whose host is not allowed; 400 for a URL without a host; 502 for a
    /// name that does not resolve. Returns the host as the URL names it and the address to connect
    /// to: its first IPv4 address, else its first (servers listen on IPv4 more often than on both).
    public func check(_ url: String) throws(ServiceError) -> (host: String, address: String) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let named = parsed.host, !named.isEmpty else {
            throw ServiceError(400, "the source is not an http(s) URL with a host")
        }
        var host = named.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard hosts.contains(host) else { throw ServiceError(403, "the source's host \(host) is not allowed") }
        let addresses = Self.addresses(of: host)
        if let inside = addresses.first(where: { Self.isInternal($0) && !hosts.contains($0) }) {
            throw ServiceError(403, "the source's host \(host) is at \(inside), inside the network (list that address to allow it)")
        }
        guard let address = addresses.first(where: { !$0.contains(":") }) ?? addresses.first else {
            throw ServiceError(502, "the source's host \(host) does not resolve")
        }
        return (named, address)
    }

    /// The numeric addresses `host` resolves to (itself when it is one).
    static func addresses(of host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var out: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                out.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            node = entry.pointee.ai_next
        }
        return out
    }

    /// Loopback, private, link-local, unspecified, multicast, CGNAT (RFC 6598) and their IPv6
    /// counterparts (an IPv4-mapped address as its IPv4 one).
    static func isInternal(_ address: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let a = UInt32(bigEndian: v4.s_addr)
            let (b0, b1) = (a >> 24, a >> 16 & 255)
            return b0 == 0 || b0 == 10 || b0 == 127 || (b0 == 169 && b1 == 254) || (b0 == 172 && (16...31).contains(b1))
                || (b0 == 192 && b1 == 168) || (b0 == 100 && (64...127).contains(b1)) || b0 >= 224
        }
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return true }   // not an address: refuse
        let b = withUnsafeBytes(of: v6) { Array($0) }
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF {
            return isInternal("\(b[12]).\(b[13]).\(b[14]).\(b[15])")
        }
        return b[0..<15].allSatisfy { $0 == 0 }                 // :: and ::1
            || b[0] & 0xFE == 0xFC                              // fc00::/7 unique local
            || (b[0] == 0xFE && b[1] & 0xC0 == 0x80)            // fe80::/10 link-local
            || b[0] == 0xFF                                     // multicast
    }
}
