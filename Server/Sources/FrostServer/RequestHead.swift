import NIOCore

/// A request head read strictly from the bytes as they came (RFC 9112 §2–§5), for `HeldResults`:
/// only what leaves no doubt where the request ends is taken — `METHOD SP /target SP HTTP/1.1`,
/// header lines of a token, a colon and visible characters, CRLF everywhere, and neither
/// Content-Length nor Transfer-Encoding (no body: the head's end is the request's). Anything
/// else (a bare LF, a folded line, a control character, a byte past ASCII, HTTP/1.0, a body) is
/// refused, and left to NIO's decoder whole.
struct RequestHead {
    let method: String
    let target: String
    let accept: String?
    let ifNoneMatch: String?
    /// Whether the request asks nothing of the connection (no Connection field but `keep-alive`,
    /// no Expect or Upgrade) nor repeats a field the answer depends on: one the server may answer
    /// as it likes.
    let plain: Bool
    /// The head's bytes, its blank line included.
    let length: Int

    enum Reading {
        case head(RequestHead)
        /// No whole head yet (at most `limit` bytes, each as the grammar allows so far).
        case incomplete
        case refused
    }

    /// The longest head waited for.
    static let limit = 16384

    /// The head at the start of `bytes`.
    static func read(_ bytes: ByteBufferView) -> Reading {
        bytes.withContiguousStorageIfAvailable { read(UnsafeRawBufferPointer($0)) } ?? .refused
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) -> Reading {
        let count = min(bytes.count, limit)
        var lines: [Range<Int>] = []
        var start = 0, i = 0
        while i < count {
            let byte = bytes[i]
            if byte == 13 {   // CR: only before LF
                guard i + 1 < count else { break }
                guard bytes[i + 1] == 10 else { return .refused }
                if start == i { return head(bytes, lines, length: i + 2) }   // the blank line: the head's end
                lines.append(start..<i)
                i += 2
                start = i
                continue
            }
            // No bare LF, no control character but HTAB (DEL included), nothing past ASCII.
            guard byte >= 32 || byte == 9, byte < 127 else { return .refused }
            i += 1
        }
        return bytes.count >= limit ? .refused : .incomplete
    }

    private static func head(_ bytes: UnsafeRawBufferPointer, _ lines: [Range<Int>], length: Int) -> Reading {
        guard let first = lines.first else { return .refused }
        let text = { (range: Range<Int>) in String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        // METHOD SP target SP HTTP/1.1
        guard let space = bytes[first].firstIndex(of: 32), let second = bytes[(space + 1)..<first.upperBound].firstIndex(of: 32),
              isToken(bytes[first.lowerBound..<space]), second > space + 1,
              bytes[space + 1] == UInt8(ascii: "/"), bytes[(space + 1)..<second].allSatisfy(isTargetByte),
              bytes[(second + 1)..<first.upperBound].elementsEqual("HTTP/1.1".utf8) else { return .refused }
        var accept: String?, ifNoneMatch: String?, plain = true
        for line in lines.dropFirst() {
            guard let colon = bytes[line].firstIndex(of: 58), isToken(bytes[line.lowerBound..<colon]) else { return .refused }
            let name = bytes[line.lowerBound..<colon]
            var from = colon + 1, to = line.upperBound
            while from < to, bytes[from] == 32 || bytes[from] == 9 { from += 1 }
            while to > from, bytes[to - 1] == 32 || bytes[to - 1] == 9 { to -= 1 }
            if named(name, "content-length") || named(name, "transfer-encoding") { return .refused }
            // `Connection: keep-alive` (what browsers send) asks what HTTP/1.1 does anyway.
            if named(name, "connection") && !named(bytes[from..<to], "keep-alive") || named(name, "expect") || named(name, "upgrade") { plain = false }
            if named(name, "accept") {
                if accept != nil { plain = false }
                accept = text(from..<to)
            }
            if named(name, "if-none-match") {
                if ifNoneMatch != nil { plain = false }
                ifNoneMatch = text(from..<to)
            }
        }
        return .head(RequestHead(method: text(first.lowerBound..<space), target: text((space + 1)..<second),
                                 accept: accept, ifNoneMatch: ifNoneMatch, plain: plain, length: length))
    }

    /// Whether a field's name is `lowercase`, letters in either case.
    private static func named(_ name: Slice<UnsafeRawBufferPointer>, _ lowercase: StaticString) -> Bool {
        name.count == lowercase.utf8CodeUnitCount && zip(name, UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
            .allSatisfy { (a: UInt8, b: UInt8) in a == b || (a >= 0x41 && a <= 0x5A && a | 0x20 == b) }
    }

    /// Which bytes are letters, digits or one of `others`, as a table by byte.
    private static func table(_ others: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 256)
        for c in Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8) + Array(others.utf8) { table[Int(c)] = true }
        return table
    }

    /// The bytes of an origin-form target (RFC 9112 §3.2.1: an absolute path and query, RFC 3986's
    /// pchar, "/" and "?"): letters, digits, `-._~`, `%`, sub-delims, `:` and `@`.
    private static let targetBytes = table("-._~%!$&'()*+,;=:@/?")
    /// RFC 9110's tchar.
    private static let tokenBytes = table("!#$%&'*+-.^_`|~")

    private static func isTargetByte(_ c: UInt8) -> Bool { targetBytes[Int(c)] }

    /// RFC 9110's token: one or more tchar.
    private static func isToken(_ s: Slice<UnsafeRawBufferPointer>) -> Bool {
        !s.isEmpty && s.allSatisfy { tokenBytes[Int($0)] }
    }
}
