import FrostCache
import FrostClients
import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The service's answers to a path, whatever carries them (docs/serve.md): processing URLs and
/// `/info` URLs in imgproxy's grammar, checked (signature, options, source) before any source byte
/// is read, then answered from the result cache or from the source, with an ETag of the source's
/// identity, the options and the server's settings, so a matching `If-None-Match` costs no processing.
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
        /// Which buckets `s3://` sources may come from (none by default).
        public var objects = ObjectSources()
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
        /// What its result depends on besides the source and the format: `options.identity` and
        /// the server's settings (`resultFingerprint`), made once.
        let identity: String
        /// Where its source is, checked once (a remote host's check resolves its name).
        public let location: SourceLocation
    }

    public let settings: Settings
    /// `settings.resultFingerprint()`, made once: part of every result's identity; with the blur
    /// caches' side for a `fade:` result.
    private let fingerprint: String, fadeFingerprint: String
    /// Processing paths parsed and checked before, by path: a repeated URL (a hot image, a CDN
    /// revalidating) skips its parse, its HMAC and its options' identity (most of a result-cache
    /// hit's own time, perf). Only what the path alone decides is kept (a signature verifies or not
    /// for good); the source's location is checked anew every time.
    private let parsedPaths = MemoryLRU<(path: ServicePath, options: ProcessingOptions, identity: String)>(maxBytes: 4 << 20)
    /// Repeated paths whose results were found in memory (`heldAnswer`): a repeat checks its
    /// source with one stat and takes the result by its key, without the source's realpath, the
    /// key's hash or the headers made again (most of such a hit's own time, perf).
    private let heldPaths = MemoryLRU<Held>(maxBytes: 4 << 20)

    public init(_ settings: Settings) {
        self.settings = settings
        fingerprint = settings.resultFingerprint()
        fadeFingerprint = settings.fadeFingerprint(fingerprint)
    }

    /// Parses `path` and checks its signature, options and source: every refusal a URL earns
    /// without reading its source (403 for signatures and hosts, checked first; 400 for grammar
    /// and options; 404 for an expired URL).
    public func request(_ path: String) throws(ServiceError) -> Request {
        if let known = parsedPaths.get(path) { return try request(known) }
        let parsed = try signedPath(path)
        let options = try ProcessingOptions(parsed.options, presets: settings.presets)
        if options.fade != nil, settings.blurCaches == nil { throw .badRequest("fade: this server keeps no blur caches (start it with --cache)") }
        let request = Request(path: parsed, options: options, identity: options.identity + "|" + (options.fade == nil ? fingerprint : fadeFingerprint), location: try location(of: parsed.source))
        parsedPaths.put(path, (parsed, options, request.identity), size: 2 * path.utf8.count + request.identity.utf8.count + 1024)
        return request
    }

    /// A path parsed and checked before, checked again for what does not depend on the path alone.
    private func request(_ known: (path: ServicePath, options: ProcessingOptions, identity: String)) throws(ServiceError) -> Request {
        // Expiry is the one check that depends on the time, not on the path: made again.
        if let stamp = known.options.expires, stamp > 0, stamp < ProcessingOptions.currentTime {
            throw ServiceError(404, "exp: the URL expired at \(stamp)")
        }
        return Request(path: known.path, options: known.options, identity: known.identity, location: try location(of: known.path.source))
    }

    /// The answer to a processing path when it is found without waiting on anything: the path
    /// parsed before, its source a local file or an object of a version id (no lookup leaves the
    /// machine), its result held in the result cache's memory layer. nil otherwise, and for
    /// anything the path would be refused for: such a request takes the usual way. What an event
    /// loop may answer itself (a hot image asked again).
    public func heldAnswer(_ path: String, accept: String?, ifNoneMatch: String?) -> Response? {
        guard let cache = settings.resultCache else { return nil }
        let memo = settings.autoWebP || settings.autoAVIF ? path + "\n" + (accept ?? "") : path
        if let held = heldPaths.get(memo) {
            if held.source.map({ FileStamp(of: $0.path) == $0.stamp }) ?? true {
                return cache.get(held.key, inMemoryOnly: true).map { held.answer($0, ifNoneMatch: ifNoneMatch) }
            }
            heldPaths.remove(memo)   // the path leads to another file now: found afresh
        }
        guard let known = parsedPaths.get(path), !known.path.source.hasPrefix("http"), let request = try? request(known),
              !needsHead(request.location), let origin = try? origin(request.location) else { return nil }
        let key = key(origin, request, format(request, accept: accept))
        guard let entry = cache.get(key, inMemoryOnly: true), let format = ImageFormat.writable.first(where: { $0.contentType == entry.contentType })
        else { return nil }
        // What the memo checks the source by: for a local file, the file the path as asked leads
        // to, while it is the one the key was made from; an object of a version id, nothing (its
        // content never changes).
        var source: (path: String, stamp: FileStamp)?, kept = false
        switch request.location {
        case .local(let url):
            if let local = settings.local, let unresolved = try? local.unresolvedPath(for: url).path, let stamp = FileStamp(of: unresolved),
               stamp == origin.stamp { (source, kept) = ((unresolved, stamp), true) }
        case .object:
            kept = true
        case .remote:
            break
        }
        let held = Held(source: source, key: key, headers: headers(request, nil), disposition: Self.disposition(request, format))
        // A URL with `exp` has a Cache-Control of its own at every second: not kept.
        if kept, (request.options.expires ?? 0) <= 0 { heldPaths.put(memo, held, size: memo.utf8.count + held.size) }
        return held.answer(entry, ifNoneMatch: ifNoneMatch)
    }

    /// What `heldAnswer` found for a path: the file its source path led to (nil: an object's
    /// version), the result's key in the cache and the answer's headers.
    private struct Held: Sendable {
        let source: (path: String, stamp: FileStamp)?
        let key: String
        let headers: [(String, String)]
        let disposition: (String, String)

        /// The answer with `entry`, the result kept under `key`: 304 when `ifNoneMatch` names its ETag.
        func answer(_ entry: ResultCache.Entry, ifNoneMatch: String?) -> Response {
            if let ifNoneMatch, ImageService.matches(ifNoneMatch, entry.etag) { return ImageService.notModified(entry.etag, headers) }
            return Response(status: 200, contentType: entry.contentType, body: entry.body, etag: entry.etag, headers: headers + [disposition])
        }

        var size: Int { (source?.path.utf8.count ?? 0) + key.utf8.count + headers.reduce(disposition.1.utf8.count) { $0 + $1.1.utf8.count } + 128 }
    }

    /// A file as `heldAnswer` knows it: which file it is and its size and time.
    private struct FileStamp: Equatable {
        let device, inode: UInt64
        let size: Int
        let seconds, nanoseconds: Int

        /// The file `path` leads to (links followed); nil when there is none.
        init?(of path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            (device, inode, size) = (UInt64(st.st_dev), UInt64(st.st_ino), Int(st.st_size))
            (seconds, nanoseconds) = (st.st_mtim.tv_sec, st.st_mtim.tv_nsec)
        }
    }

    /// The answer to a processing URL's request from the result cache, when it holds it (304 when
    /// `ifNoneMatch` names its ETag), before any source byte is read or downloaded. A local source
    /// is known by its file (path, size, modification time, inode: a changed file is a new source),
    /// an object by its version id or, without one, its ETag (a HEAD: no body is read; a matching
    /// `ifNoneMatch` is a 304 even without a result cache), a remote one by its URL. `inMemoryOnly`:
    /// only what needs no storage call (the results held in memory, a source known without a HEAD).
    public func cached(_ request: Request, accept: String? = nil, ifNoneMatch: String? = nil, inMemoryOnly: Bool = false) -> Response? {
        let object = request.location.isObject
        guard settings.resultCache != nil || (object && ifNoneMatch != nil), !(inMemoryOnly && needsHead(request.location)),
              let origin = try? origin(request.location) else { return nil }
        let key = key(origin, request, format(request, accept: accept)), headers = headers(request, nil)
        // An object's ETag is known from its identity: a 304 needs no result either.
        if object, let ifNoneMatch, Self.matches(ifNoneMatch, Self.knownETag(key), made: false) { return Self.notModified(Self.knownETag(key), headers) }
        if let cache = settings.resultCache,
           let hit = answer(from: cache, key, request, ifNoneMatch: ifNoneMatch, headers: headers, inMemoryOnly: inMemoryOnly) { return hit }
        return nil
    }

    /// Whether `cached` waits on storage (an object's HEAD, a result cache in a bucket): a caller
    /// on an event loop then calls it on a thread that may wait, after `inMemoryOnly` there.
    public func cachedWaits(_ request: Request, ifNoneMatch: String? = nil) -> Bool {
        if settings.resultCache?.isInBucket == true { return true }
        return needsHead(request.location) && (settings.resultCache != nil || ifNoneMatch != nil)
    }

    /// Whether the source's identity takes a HEAD: an object without a version id.
    private func needsHead(_ location: SourceLocation) -> Bool {
        if case .object(let object) = location { object.version == nil } else { false }
    }

    /// The answer to a processing URL's request: the image, or 304 when `ifNoneMatch` names its ETag.
    /// `source`: the source's bytes when the caller fetched them (a remote source, an object), with
    /// `object`, what an object's GET said of it; nil reads a `local://` file or an object here.
    /// The result cache answers first unless `lookedUp` (the caller asked it already); a result made
    /// is kept in it. `cancellation` stops the work between its steps.
    public func respond(to request: Request, source: [UInt8]? = nil, object: ObjectInfo? = nil, accept: String? = nil,
                        ifNoneMatch: String? = nil, lookedUp: Bool = false, cancellation: Cancellation? = nil) throws(ServiceError) -> Response {
        let negotiated = format(request, accept: accept)
        let headers = headers(request, nil)
        // Before the read: a file changed meanwhile is not kept under its old identity. An object
        // read here is known by its GET's answer (no HEAD) unless a result cache is asked first.
        let readsObject = source == nil && request.location.isObject && (lookedUp || settings.resultCache == nil) && ifNoneMatch == nil
        let early = readsObject ? nil : try origin(request.location, object: object)
        if !lookedUp, let early, let cache = settings.resultCache,
           let hit = answer(from: cache, key(early, request, negotiated), request, ifNoneMatch: ifNoneMatch, headers: headers) { return hit }
        // A local file's identity (path, size, time, inode) and an object's (version, ETag) name
        // its content: its ETag needs no read (hashing the bytes was 5% of a request, perf). A
        // remote source's URL does not.
        if let early, early.namesContent, let ifNoneMatch, case let known = Self.knownETag(key(early, request, negotiated)),
           Self.matches(ifNoneMatch, known, made: false) { return Self.notModified(known, headers) }
        let bytes: [UInt8], origin: Origin
        switch (early, source, request.location) {
        case (let early?, let source?, _):
            (bytes, origin) = (source, early)
        case (let early?, nil, .local(let url)):
            guard let path = early.path, let local = settings.local else { throw ServiceError(403, "local:// sources are off (no root)") }
            (bytes, origin) = (try local.read(resolved: path, named: url, maxBytes: settings.processor.limits.maxFileBytes), early)
        case (_, nil, .object(let located)):
            let read = try (cancellation?.flag ?? StopFlag()).during { () throws(ServiceError) in
                try settings.objects.get(located, maxBytes: settings.processor.limits.maxFileBytes)
            }
            (bytes, origin) = (read.bytes, try self.origin(request.location, object: read.info))   // the bytes' own identity
        default:
            throw ServiceError(403, "a remote source is fetched by the server, not read here")
        }
        let key = key(origin, request, negotiated)
        let etag = origin.namesContent ? Self.knownETag(key) : Self.etag(source: bytes, identity: Self.resultIdentity(request, negotiated))
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag, made: false) { return Self.notModified(etag, headers) }
        let made = if let unprocessed = try unprocessed(request, bytes, etag) { unprocessed }
            else { try process(request, bytes, origin, negotiated, key, etag, cancellation) }
        // `If-None-Match: *` holds once there is a result (an error stays an error).
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return Self.notModified(etag, headers) }
        return made
    }

    /// The result of a request made from its source's bytes, kept in the result cache under `key`.
    private func process(_ request: Request, _ bytes: [UInt8], _ origin: Origin, _ negotiated: OutputFormat, _ key: String, _ etag: String,
                         _ cancellation: Cancellation?) throws(ServiceError) -> Response {
        let processor = settings.processor
        let frame: ((Bool) throws -> Image)? = if let fade = request.options.fade, let caches = settings.blurCaches {
            { autoOrient in
                var limits = processor.limits
                limits.autoOrient = autoOrient   // the request's `ar:`: a cache of its own when it differs
                return try caches.frame(bytes, fade, limits: limits, threads: processor.threads)
            }
        } else { nil }
        try cancellation?.check()
        // The decoded-source cache knows a local file and an object by their identities, a downloaded one by its bytes' hash.
        let source = settings.sourceCache.map { (cache: $0, identity: origin.namesContent ? origin.identity : SHA256.hex(bytes)) }
        let result = try processor.process(bytes, options: request.options, format: negotiated, frame: frame, source: source,
                                           cancellation: cancellation)
        settings.resultCache?.put(key, ResultCache.Entry(contentType: result.contentType, etag: etag, body: result.bytes))
        return Response(status: 200, contentType: result.contentType, body: result.bytes, etag: etag, headers: self.headers(request, result.format))
    }

    /// A kept result (304 when `ifNoneMatch` names its ETag), or nil.
    private func answer(from cache: ResultCache, _ key: String, _ request: Request, ifNoneMatch: String?, headers: [(String, String)],
                        inMemoryOnly: Bool = false) -> Response? {
        guard let entry = cache.get(key, inMemoryOnly: inMemoryOnly) else { return nil }
        if let ifNoneMatch, Self.matches(ifNoneMatch, entry.etag) { return Self.notModified(entry.etag, headers) }
        let format = ImageFormat.writable.first { $0.contentType == entry.contentType }
        return Response(status: 200, contentType: entry.contentType, body: entry.body, etag: entry.etag,
                        headers: headers + (format.map { [Self.disposition(request, $0)] } ?? []))
    }

    static func notModified(_ etag: String, _ headers: [(String, String)]) -> Response {
        Response(status: 304, contentType: "", body: [], etag: etag, headers: headers)
    }

    /// The ETag of a result whose source's identity names its content (a local file, an object):
    /// its cache key's first 32 hex digits, quoted.
    static func knownETag(_ key: String) -> String { "\"" + key.prefix(32) + "\"" }

    /// How the result's format is chosen: the extension's (which imgproxy applies after the
    /// options), the options', or among those the client accepts (`OutputFormat`).
    private func format(_ request: Request, accept: String?) -> OutputFormat {
        let accepts = { (type: String) in accept?.contains(type) ?? false }
        return OutputFormat(explicit: request.path.format ?? request.options.format, preferAVIF: settings.autoAVIF && accepts("image/avif"),
                            preferWebP: settings.autoWebP && accepts("image/webp"))
    }

    /// An answer's headers: Cache-Control (up to `exp` when given), Vary when the format follows
    /// Accept, and with the result's format its Content-Disposition.
    private func headers(_ request: Request, _ format: ImageFormat?) -> [(String, String)] {
        var maxAge = settings.maxAge
        if let expires = request.options.expires, expires > 0 { maxAge = max(0, min(maxAge, expires - ProcessingOptions.currentTime)) }
        var headers = [("Cache-Control", "max-age=\(maxAge), public")]
        if settings.autoWebP || settings.autoAVIF, request.path.format == nil, request.options.format == nil { headers.append(("Vary", "Accept")) }
        if let format { headers.append(Self.disposition(request, format)) }
        return headers
    }

    /// imgproxy's Content-Disposition: `inline` (`attachment` with `att:1`), the file name `fn`
    /// gives or the source's, with the result's extension.
    static func disposition(_ request: Request, _ format: ImageFormat) -> (String, String) {
        let last = request.path.source.split(separator: "/").last.map(String.init) ?? ""
        var stem = request.options.filename ?? String(last.prefix { $0 != "?" && $0 != "#" })
        if request.options.filename == nil, let dot = stem.lastIndex(of: ".") { stem = String(stem[..<dot]) }
        if stem.isEmpty { stem = "image" }
        // A quote or a control character would end or break the header: written as %XX.
        let unsafe = { (c: Unicode.Scalar) in c == "\"" || c.value < 0x20 || c.value == 0x7F }
        let safe = !stem.unicodeScalars.contains(where: unsafe) ? stem
            : stem.unicodeScalars.map { unsafe($0) ? "%" + String(format: "%02X", $0.value) : String($0) }.joined()
        return ("Content-Disposition", "\(request.options.returnAttachment ? "attachment" : "inline"); filename=\"\(safe).\(format.fileExtension)\"")
    }

    /// `raw:1`, or `skp` naming the source's format (the output format unset or the same): the
    /// source's bytes as they are (a `skp` source's size still checked against the limit, as
    /// imgproxy checks it); nil for a request to process.
    private func unprocessed(_ request: Request, _ bytes: [UInt8], _ etag: String) throws(ServiceError) -> Response? {
        let o = request.options, kind = ImageFormat(sniffing: bytes), asked = request.path.format ?? o.format
        if !o.raw {
            guard let kind, o.skipProcessing.contains(kind), asked == nil || asked == kind else { return nil }
            do {
                let info = try ImageInfo(bytes: bytes)
                try settings.processor.limits.checkPixels(width: info.width, height: info.height, of: "the source is")
            } catch let error as CodecError {
                throw ServiceProcessor.serviceError(error)
            } catch {
                throw ServiceError(422, "the source: \(error)")
            }
        }
        return Response(status: 200, contentType: kind?.contentType ?? "application/octet-stream", body: bytes, etag: etag,
                        headers: headers(request, nil) + (kind.map { [Self.disposition(request, $0)] } ?? []))
    }

    /// A source as the result cache and the ETag know it: a local file resolved under the root with
    /// its identity (path, size, modification time, inode), an object by its URL and version id or
    /// ETag, or a remote URL.
    private struct Origin {
        let identity: String
        /// The local file, links resolved, and what it was when its identity was taken (nil: an object or remote).
        var path: String? = nil
        var stamp: FileStamp? = nil
        /// Whether the identity names the content (a local file's, an object's), so that the ETag
        /// needs no read; a remote URL does not.
        var namesContent = true
    }

    /// The origin of a checked location: a local file missing or outside the root is refused as
    /// reading it would be (404, 403). An object of a version id is that version (versions never
    /// change); without one it is its ETag, as `object` (a GET's answer) gives it or a HEAD finds.
    private func origin(_ location: SourceLocation, object: ObjectInfo? = nil) throws(ServiceError) -> Origin {
        switch location {
        case .local(let url):
            guard let local = settings.local else { throw ServiceError(403, "local:// sources are off (no root)") }
            let path = try local.path(for: url)
            guard let stamp = FileStamp(of: path) else { throw ServiceError(404, "no such file: \(url.dropFirst("local://".count))") }
            return Origin(identity: "\(path)|\(stamp.size)|\(stamp.seconds).\(stamp.nanoseconds)|\(stamp.inode)", path: path, stamp: stamp)
        case .object(let located):
            if located.version != nil { return Origin(identity: located.url) }
            let info = if let object { object } else { try settings.objects.head(located) }
            return Origin(identity: located.url + "|" + info.identity)
        case .remote(let url, _, _):
            return Origin(identity: url, namesContent: false)
        }
    }

    /// The result cache's key of a request, also a local source's ETag.
    private func key(_ origin: Origin, _ request: Request, _ format: OutputFormat) -> String {
        ResultCache.key(source: origin.identity, result: Self.resultIdentity(request, format))
    }

    /// Every option's value, the server's settings and the output format: what makes two results of one source differ.
    private static func resultIdentity(_ request: Request, _ format: OutputFormat) -> String {
        request.identity + "|" + format.identity
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
        let parsed = try signedPath(path)
        var blurhash: (Int, Int)?, thumbhash = false
        for option in parsed.options {
            let a = option.arguments
            switch option.name {
            case "blurhash", "bh":
                let c = a.compactMap { Int($0) }
                guard c.count == 2, (1...9).contains(c[0]), (1...9).contains(c[1]) else { throw .badRequest("blurhash: X:Y components, 1 to 9 each") }
                blurhash = (c[0], c[1])
            case "thumbhash", "th":
                guard a.count == 1 else { throw .badRequest("thumbhash: 1 or 0") }
                thumbhash = ProcessingOptions.boolean(a[0])
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
        let bytes = if let source { source } else { try storedBytes(request.location) }
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
                        etag: Self.etag(source: bytes, identity: "info|" + fingerprint + "|" + parsed.signed), headers: [("Cache-Control", "max-age=\(settings.maxAge), public")])
    }

    /// `path` parsed once its signature is checked: as imgproxy, the signature comes first, so a
    /// forged or unsigned URL is a 403 whatever else is wrong with it.
    func signedPath(_ path: String) throws(ServiceError) -> ServicePath {
        let (signature, signed) = try ServicePath.signedPart(of: path)
        if let signer = settings.signer {
            guard signer.verifies(signature, for: signed) else { throw ServiceError(403, "invalid signature") }
        } else if !settings.allowUnsigned {
            throw ServiceError(403, "unsigned URLs are refused (set a key and salt, or allow unsigned URLs)")
        } else if signature.contains(":") {
            // imgproxy without a key: the first segment is the signature's place, not an option's.
            throw ServiceError(403, "'\(signature)' is an option where the signature belongs: an unsigned URL still has a signature segment (_)")
        }
        return try ServicePath(signature: signature, signed: signed)
    }

    /// Where a source is: a file under the root, an object in an allowed bucket, or a URL the
    /// caller fetches (its host allowed, the URL rebuilt from its checked parts), connecting to
    /// `address` for `host` (the address `RemoteSources.check` checked).
    public enum SourceLocation: Sendable, Equatable {
        case local(String)
        case object(ObjectSources.Object)
        case remote(String, host: String, address: String)

        var isObject: Bool { if case .object = self { true } else { false } }
    }

    /// Where `source` is, refused (403) when it is a URL whose host or bucket is not allowed, or a
    /// kind of source the service does not read (400).
    public func location(of source: String) throws(ServiceError) -> SourceLocation {
        if source.hasPrefix("local://") {
            guard settings.local != nil else { throw ServiceError(403, "local:// sources are off (no root)") }
            return .local(source)
        }
        if source.hasPrefix(ObjectAddress.scheme) { return .object(try settings.objects.check(source)) }
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            let checked = try settings.remote.check(source)
            return .remote(checked.url, host: checked.host, address: checked.address)
        }
        throw ServiceError(400, "a source is local:///PATH, s3://BUCKET/KEY, http:// or https://")
    }

    /// The bytes of a source the service reads itself: a file under the root, an object.
    func storedBytes(_ location: SourceLocation) throws(ServiceError) -> [UInt8] {
        switch location {
        case .local(let url):
            guard let local = settings.local else { throw ServiceError(403, "local:// sources are off (no root)") }
            return try local.read(url, maxBytes: settings.processor.limits.maxFileBytes)
        case .object(let located):
            return try settings.objects.get(located, maxBytes: settings.processor.limits.maxFileBytes).bytes
        case .remote:
            throw ServiceError(403, "a remote source is fetched by the server, not read here")
        }
    }

    /// A strong ETag: SHA-256 of the source's bytes and the result's identity, 32 hex digits, quoted.
    static func etag(source: [UInt8], identity: String) -> String {
        var hash = SHA256()
        hash.update(source)
        hash.update(Array(("\n" + identity).utf8))
        return "\"" + hash.finalize().prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\""
    }

    /// Whether an If-None-Match header (a list, `*`, weak tags) names `etag` (RFC 9110 §13.1.2).
    /// `*` matches only a representation that exists: `made` is false for an ETag known before
    /// the result is made (from the source's identity), whose request may still fail.
    static func matches(_ header: String, _ etag: String, made: Bool = true) -> Bool {
        header.split(separator: ",").contains { part in
            let tag = part.trimmingCharacters(in: .whitespaces)
            return (tag == "*" && made) || tag == etag || tag == "W/" + etag
        }
    }
}
