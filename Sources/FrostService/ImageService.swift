import FrostCache
import FrostClients
import FrostCodecs
import FrostColor
import FrostCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The service's answers to a path, whatever carries them (docs/serve.md): processing URLs and
/// `/info` URLs in imgproxy's grammar, checked (signature, options, source) before any source byte
/// is read, then answered from the result cache or from the source, with an ETag of the source's
/// identity and the options, so a matching `If-None-Match` costs no processing.
public struct ImageService: Sendable {
    /// How the service is set up.
    public struct Settings: Sendable {
        /// The signer of `--key`/`--salt`; nil: no key.
        public var signer: URLSignature?
        /// Without a key, whether unsigned URLs are served (imgproxy serves them when no key is set;
        /// Frost refuses them unless asked).
        public var allowUnsigned = false
        /// Where `local://` sources are read from; nil: none are.
        public var local: LocalSource?
        /// Which `http(s)://` hosts sources may come from (none by default).
        public var remote = RemoteSources()
        /// `pr:NAME` presets (and `default`, applied to every URL first).
        public var presets: [String: [ServicePath.Option]] = [:]
        /// The decoder's limits and the threads a request uses.
        public var processor = ServiceProcessor()
        /// `Cache-Control: max-age` of results, in seconds (imgproxy's default: a year).
        public var maxAge = 31_536_000
        /// Answer WebP (AVIF) to clients that accept it when the URL names no format (`Vary: Accept`).
        public var autoWebP = false, autoAVIF = false
        /// Results kept on disk (nil: none).
        public var resultCache: ResultCache?
        /// Blur caches kept for `fade:` (nil: `fade:` is refused).
        public var blurCaches: ServiceBlurCaches?
        /// Sources decoded a moment ago, for the next variant (nil: none kept).
        public var sourceCache: DecodedSources?

        public init() {}
    }

    /// An answer: 200 with an image or JSON, or 304.
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// The strong ETag, quoted.
        public var etag: String?
        /// Other headers (Cache-Control, Vary).
        public var headers: [(String, String)]
    }

    /// A processing URL, checked and parsed: what a worker needs to answer it.
    public struct Request: Sendable {
        public let path: ServicePath
        public let options: ProcessingOptions
        /// Where its source is, checked once (a remote host's check resolves its name).
        public let location: SourceLocation
    }

    public let settings: Settings

    public init(_ settings: Settings) {
        self.settings = settings
    }

    /// Parses `path` and checks its signature, options and source: every refusal a URL earns
    /// without reading its source (400 for grammar and options, 403 for signatures and hosts).
    public func request(_ path: String) throws(ServiceError) -> Request {
        let parsed = try ServicePath(parsing: path)
        try checkSignature(parsed)
        let options = try ProcessingOptions(parsed.options, presets: settings.presets)
        if options.fade != nil, settings.blurCaches == nil { throw .badRequest("fade: this server keeps no blur caches (start it with --cache)") }
        return Request(path: parsed, options: options, location: try location(of: parsed.source))
    }

    /// The answer to a processing URL's request from the result cache, when it holds it (304 when
    /// `ifNoneMatch` names its ETag), before any source byte is read or downloaded. A local source
    /// is known by its file (path, size, modification time, inode: a changed file is a new source),
    /// a remote one by its URL.
    public func cached(_ request: Request, accept: String? = nil, ifNoneMatch: String? = nil) -> Response? {
        guard let cache = settings.resultCache, let origin = try? origin(request.location) else { return nil }
        return answer(from: cache, key(origin, request, format(request, accept: accept)), ifNoneMatch: ifNoneMatch, headers: headers(request))
    }

    /// The answer to a processing URL's request: the image, or 304 when `ifNoneMatch` names its ETag.
    /// `source`: the source's bytes when the caller fetched them (a remote source); nil reads a
    /// `local://` one. The result cache answers first unless `lookedUp` (the caller asked it
    /// already); a result made is kept in it. `cancellation` stops the work between its steps.
    public func respond(to request: Request, source: [UInt8]? = nil, accept: String? = nil,
                        ifNoneMatch: String? = nil, lookedUp: Bool = false, cancellation: Cancellation? = nil) throws(ServiceError) -> Response {
        let negotiated = format(request, accept: accept)
        let headers = headers(request)
        let origin = try origin(request.location)   // before the read: a file changed meanwhile is not kept under its old identity
        let key = key(origin, request, negotiated)
        if !lookedUp, let cache = settings.resultCache, let hit = answer(from: cache, key, ifNoneMatch: ifNoneMatch, headers: headers) { return hit }
        // A local file's identity (path, size, time, inode) names its content: its ETag needs no
        // read (hashing the bytes was 5% of a request, perf). A remote source's URL does not.
        let known: String? = origin.path == nil ? nil : "\"" + key.prefix(32) + "\""
        if let known, let ifNoneMatch, Self.matches(ifNoneMatch, known) { return Self.notModified(known, headers) }
        let bytes: [UInt8]
        if let source {
            bytes = source
        } else if let path = origin.path, case .local(let url) = request.location, let local = settings.local {
            bytes = try local.read(resolved: path, named: url, maxBytes: settings.processor.limits.maxFileBytes)
        } else {
            throw ServiceError(403, "a remote source is fetched by the server, not read here")
        }
        let etag = known ?? Self.etag(source: bytes, identity: Self.resultIdentity(request, negotiated))
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return Self.notModified(etag, headers) }
        let processor = settings.processor
        let frame: (() throws -> Image)? = if let fade = request.options.fade, let caches = settings.blurCaches {
            { try caches.frame(bytes, fade, limits: processor.limits, threads: processor.threads) }
        } else { nil }
        try cancellation?.check()
        // The decoded-source cache knows a local file by its identity, a downloaded one by its bytes' hash.
        let source = settings.sourceCache.map { (cache: $0, identity: origin.path == nil ? SHA256.hex(bytes) : origin.identity) }
        let result = try processor.process(bytes, options: request.options, format: negotiated, frame: frame, source: source,
                                           cancellation: cancellation)
        settings.resultCache?.put(key, ResultCache.Entry(contentType: result.contentType, etag: etag, body: result.bytes))
        return Response(status: 200, contentType: result.contentType, body: result.bytes, etag: etag, headers: headers)
    }

    /// A kept result (304 when `ifNoneMatch` names its ETag), or nil.
    private func answer(from cache: ResultCache, _ key: String, ifNoneMatch: String?, headers: [(String, String)]) -> Response? {
        guard let entry = cache.get(key) else { return nil }
        if let ifNoneMatch, Self.matches(ifNoneMatch, entry.etag) { return Self.notModified(entry.etag, headers) }
        return Response(status: 200, contentType: entry.contentType, body: entry.body, etag: entry.etag, headers: headers)
    }

    static func notModified(_ etag: String, _ headers: [(String, String)]) -> Response {
        Response(status: 304, contentType: "", body: [], etag: etag, headers: headers)
    }

    /// The format asked for: the options', the extension's, or one the client accepts.
    private func format(_ request: Request, accept: String?) -> ImageFormat? {
        request.options.format ?? request.path.format ?? negotiate(accept)
    }

    private func headers(_ request: Request) -> [(String, String)] {
        var headers = [("Cache-Control", "max-age=\(settings.maxAge), public")]
        if settings.autoWebP || settings.autoAVIF, request.options.format == nil, request.path.format == nil { headers.append(("Vary", "Accept")) }
        return headers
    }

    /// A source as the result cache and the ETag know it: a local file resolved under the root with
    /// its identity (path, size, modification time, inode), or a remote URL.
    private struct Origin {
        let identity: String
        /// The local file, links resolved (nil: remote).
        let path: String?
    }

    /// The origin of a checked location: a local file missing or outside the root is refused as
    /// reading it would be (404, 403).
    private func origin(_ location: SourceLocation) throws(ServiceError) -> Origin {
        switch location {
        case .local(let url):
            guard let local = settings.local else { throw ServiceError(403, "local:// sources are off (no root)") }
            let path = try local.path(for: url)
            var st = stat()
            guard stat(path, &st) == 0 else { throw ServiceError(404, "no such file: \(url.dropFirst("local://".count))") }
            return Origin(identity: "\(path)|\(st.st_size)|\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)|\(st.st_ino)", path: path)
        case .remote(let url, _, _):
            return Origin(identity: url, path: nil)
        }
    }

    /// The result cache's key of a request, also a local source's ETag.
    private func key(_ origin: Origin, _ request: Request, _ format: ImageFormat?) -> String {
        ResultCache.key(source: origin.identity, result: Self.resultIdentity(request, format))
    }

    /// Every option's value and the output format: what makes two results of one source differ.
    private static func resultIdentity(_ request: Request, _ format: ImageFormat?) -> String {
        request.options.identity + "|" + (format?.fileExtension ?? "source")
    }

    /// An `/info` URL (the path after `/info`), checked: its signature and its options.
    public struct InfoRequest: Sendable {
        public let path: ServicePath
        /// Where its source is, checked once.
        public let location: SourceLocation
        let blurhash: (Int, Int)?
        let thumbhash: Bool
    }

    /// Parses an `/info` path (after `/info`) and checks its signature and options.
    public func infoRequest(_ path: String) throws(ServiceError) -> InfoRequest {
        let parsed = try ServicePath(parsing: path)
        try checkSignature(parsed)
        var blurhash: (Int, Int)?, thumbhash = false
        for option in parsed.options {
            let a = option.arguments
            switch option.name {
            case "blurhash", "bh":
                let c = a.compactMap { Int($0) }
                guard c.count == 2, (1...9).contains(c[0]), (1...9).contains(c[1]) else { throw .badRequest("blurhash: X:Y components, 1 to 9 each") }
                blurhash = (c[0], c[1])
            case "thumbhash", "th":
                guard a.count == 1, let value = ProcessingOptions.boolean(a[0]) else { throw .badRequest("thumbhash: 1 or 0") }
                thumbhash = value
            default:
                throw .badRequest("unknown info option '\(option.name)'")
            }
        }
        return InfoRequest(path: parsed, location: try location(of: parsed.source), blurhash: blurhash, thumbhash: thumbhash)
    }

    /// The answer to an `/info` URL (the path after `/info`), its source read from the root.
    public func info(_ path: String) throws(ServiceError) -> Response {
        try info(try infoRequest(path))
    }

    /// The answer to an `/info` request: the source's size, format, orientation, colour and, when
    /// asked (`blurhash:X:Y`, `thumbhash:1`), its placeholders. `source` as for `respond`.
    public func info(_ request: InfoRequest, source: [UInt8]? = nil) throws(ServiceError) -> Response {
        let (parsed, blurhash, thumbhash) = (request.path, request.blurhash, request.thumbhash)
        let bytes = if let source { source } else { try localBytes(request.location) }
        var fields: [(String, String)]
        do {
            let info = try ImageInfo(bytes: bytes)
            try settings.processor.limits.checkPixels(width: info.width, height: info.height, of: "the source is")
            let profile = info.iccProfile.flatMap { try? ColorProfile($0) }
            let display = info.displaySize
            fields = [("width", "\(display.width)"), ("height", "\(display.height)"), ("format", jsonString(info.format.fileExtension)),
                      ("size", "\(bytes.count)"), ("orientation", "\(info.orientation)"), ("frames", "\(info.frames)"),
                      ("icc_description", profile.map { jsonString($0.description) } ?? "null"),
                      ("icc_color_space", profile.map { jsonString($0.colorSpace) } ?? "null"),
                      ("cicp", info.cicp.map { "[\($0.primaries), \($0.transfer), \($0.matrix)]" } ?? "null")]
            if blurhash != nil || thumbhash {
                let (image, _) = try PlaceholderDecode.image(bytes, options: settings.processor.limits)
                if let (x, y) = blurhash { fields.append(("blurhash", jsonString(try image.blurHash(componentsX: x, componentsY: y)))) }
                if thumbhash { fields.append(("thumbhash", jsonString(try image.thumbHash().base64EncodedString()))) }
            }
        } catch let error as CodecError {
            throw ServiceProcessor.serviceError(error)
        } catch {
            throw ServiceError(422, "the source: \(error)")
        }
        let body = jsonObject(fields) + "\n"
        return Response(status: 200, contentType: "application/json", body: Array(body.utf8),
                        etag: Self.etag(source: bytes, identity: "info|" + parsed.signed), headers: [("Cache-Control", "max-age=\(settings.maxAge), public")])
    }

    func checkSignature(_ path: ServicePath) throws(ServiceError) {
        if let signer = settings.signer {
            guard signer.verifies(path.signature, for: path.signed) else { throw ServiceError(403, "invalid signature") }
        } else if !settings.allowUnsigned {
            throw ServiceError(403, "unsigned URLs are refused (set a key and salt, or allow unsigned URLs)")
        }
    }

    /// Where a source is: a file under the root, or a URL the caller fetches (its host allowed,
    /// the URL rebuilt from its checked parts), connecting to `address` for `host` (the address
    /// `RemoteSources.check` checked).
    public enum SourceLocation: Sendable, Equatable {
        case local(String)
        case remote(String, host: String, address: String)
    }

    /// Where `source` is, refused (403) when it is a URL whose host is not allowed, or a kind
    /// of source the service does not read (400).
    public func location(of source: String) throws(ServiceError) -> SourceLocation {
        if source.hasPrefix("local://") {
            guard settings.local != nil else { throw ServiceError(403, "local:// sources are off (no root)") }
            return .local(source)
        }
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            let checked = try settings.remote.check(source)
            return .remote(checked.url, host: checked.host, address: checked.address)
        }
        throw ServiceError(400, "a source is local:///PATH, http:// or https://")
    }

    func localBytes(_ location: SourceLocation) throws(ServiceError) -> [UInt8] {
        guard case .local(let url) = location, let local = settings.local else {
            throw ServiceError(403, "a remote source is fetched by the server, not read here")
        }
        return try local.read(url, maxBytes: settings.processor.limits.maxFileBytes)
    }

    /// AVIF, then WebP, when allowed and the client's Accept names them.
    private func negotiate(_ accept: String?) -> ImageFormat? {
        guard let accept else { return nil }
        if settings.autoAVIF, accept.contains("image/avif") { return .avif }
        if settings.autoWebP, accept.contains("image/webp") { return .webp }
        return nil
    }

    /// A strong ETag: SHA-256 of the source's bytes and the result's identity, 32 hex digits, quoted.
    static func etag(source: [UInt8], identity: String) -> String {
        var hash = SHA256()
        hash.update(source)
        hash.update(Array(("\n" + identity).utf8))
        return "\"" + hash.finalize().prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
    }

    /// Whether an If-None-Match header (a list, `*`, weak tags) names `etag` (RFC 9110 §13.1.2).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { part in
            let tag = part.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
