#if canImport(Glibc)
import Glibc
#endif

/// Which `http(s)://` sources the service fetches (`--allow-source HOST` or `HOST:PORT`,
/// repeatable): only hosts listed, by name or address, on any port or the one listed. A host whose
/// addresses include one inside the network (loopback, private, link-local, reserved: `isInternal`)
/// is refused unless that address is listed too: a listed name that resolves inside the network is
/// not a way in. The address checked is the one the download connects to (`check` returns it): a
/// name that changes its answer after the check (DNS rebinding) is not asked again.
public struct RemoteSources: Sendable {
    /// The entries allowed, lowercase: `host` (any port) or `host:port` (`[v6]:port` for IPv6).
    public private(set) var hosts: Set<String> = []

    public init(hosts: [String] = []) {
        self.hosts = Set(hosts.map { Self.entry($0.lowercased()) })
    }

    /// An entry as `allows` looks it up: `[::1]` and `::1` alike as `::1`, `[::1]:80` kept.
    private static func entry(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }

    /// Whether `host` on `port` is listed (the host alone, or with that port).
    public func allows(_ host: String, port: Int) -> Bool {
        hosts.contains(host) || hosts.contains((host.contains(":") ? "[" + host + "]" : host) + ":\(port)")
    }

    /// A checked remote source: the URL to download (rebuilt from its checked parts), the host as
    /// the URL names it, and the address to connect to.
    public struct Checked: Sendable, Equatable {
        public let url: String
        public let host: String
        public let address: String
    }

    /// Refuses (403) a URL whose host is not allowed; 400 for a URL `RemoteURL` does not read
    /// (a port out of range, credentials, an odd host); 502 for a name that does not resolve.
    /// The address to connect to is the name's first IPv4 address, else its first (servers listen
    /// on IPv4 more often than on both).
    public func check(_ url: String) throws(ServiceError) -> Checked {
        let parsed = try RemoteURL(parsing: url)
        let host = parsed.host
        guard allows(host, port: parsed.port) else { throw ServiceError(403, "the source's host \(host) is not allowed") }
        let addresses = Self.addresses(of: host)
        if let inside = addresses.first(where: { Self.isInternal($0) && !allows($0, port: parsed.port) }) {
            throw ServiceError(403, "the source's host \(host) is at \(inside), inside the network (list that address to allow it)")
        }
        guard let address = addresses.first(where: { !$0.contains(":") }) ?? addresses.first else {
            throw ServiceError(502, "the source's host \(host) does not resolve")
        }
        return Checked(url: parsed.canonical, host: host, address: address)
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

    /// Addresses that lead inside the network or nowhere public (IANA's special-purpose registries,
    /// RFC 6890): loopback, private (RFC 1918), CGNAT (RFC 6598), link-local, unspecified,
    /// multicast and reserved, benchmarking (198.18.0.0/15), IETF and documentation blocks; IPv6's
    /// loopback, unique local (fc00::/7), link-local, multicast, documentation, discard, Teredo and
    /// local NAT64 (64:ff9b:1::/48); an address that embeds an IPv4 one (IPv4-mapped and -compatible,
    /// NAT64's 64:ff9b::/96, 6to4's 2002::/16) as that IPv4 address. Not an address: refused.
    static func isInternal(_ address: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return isInternal(v4: UInt32(bigEndian: v4.s_addr)) }
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return true }
        let b = withUnsafeBytes(of: v6) { Array($0) }
        func embedded(at i: Int) -> UInt32 { UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3]) }
        if b[0..<10].allSatisfy({ $0 == 0 }), (b[10] == 0xFF && b[11] == 0xFF) || (b[10] == 0 && b[11] == 0) {
            return b[0..<15].allSatisfy { $0 == 0 } || isInternal(v4: embedded(at: 12))   // ::, ::1, ::ffff:a.b.c.d, ::a.b.c.d
        }
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isInternal(v4: embedded(at: 12)) }   // 64:ff9b::/96
        if b[0] == 0x20, b[1] == 0x02 { return isInternal(v4: embedded(at: 2)) }                                       // 2002::/16
        return b[0] & 0xFE == 0xFC                                      // fc00::/7 unique local
            || (b[0] == 0xFE && b[1] & 0xC0 == 0x80)                    // fe80::/10 link-local
            || (b[0] == 0xFE && b[1] & 0xC0 == 0xC0)                    // fec0::/10 site-local (deprecated)
            || b[0] == 0xFF                                             // multicast
            || b[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01]         // 64:ff9b:1::/48 local NAT64
            || b[0..<8] == [0x01, 0x00, 0, 0, 0, 0, 0, 0]               // 100::/64 discard
            || b[0..<4] == [0x20, 0x01, 0x0D, 0xB8]                     // 2001:db8::/32 documentation
            || b[0..<4] == [0x20, 0x01, 0x00, 0x00]                     // 2001::/32 Teredo
            || b[0] & 0xE0 != 0x20                                      // outside 2000::/3, global unicast
    }

    /// The IPv4 special-purpose blocks (RFC 6890 and its updates).
    private static func isInternal(v4 a: UInt32) -> Bool {
        let (b0, b1, b2) = (a >> 24, a >> 16 & 255, a >> 8 & 255)
        return b0 == 0 || b0 == 10 || b0 == 127 || b0 >= 224                       // this network, private, loopback, multicast and reserved
            || (b0 == 169 && b1 == 254) || (b0 == 172 && (16...31).contains(b1))   // link-local, private
            || (b0 == 192 && b1 == 168) || (b0 == 100 && (64...127).contains(b1))  // private, CGNAT
            || (b0 == 198 && (18...19).contains(b1))                               // benchmarking
            || (b0 == 192 && b1 == 0 && (b2 == 0 || b2 == 2))                      // IETF protocol assignments, TEST-NET-1
            || (b0 == 198 && b1 == 51 && b2 == 100) || (b0 == 203 && b1 == 0 && b2 == 113)   // TEST-NET-2, -3
    }
}
