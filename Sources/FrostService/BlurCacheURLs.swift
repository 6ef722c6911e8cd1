import FrostCache
import FrostCodecs
import FrostCore

/// Blur caches by URL, for clients that crossfade them as the scroll moves (docs/serve.md, "Blur
/// caches by URL"): a signed `/cache/SIG/OPTIONS/plain/SOURCE` builds the source's cache (once,
/// kept) and redirects to its manifest, `/cache/KEY/manifest.json`, whose level files resolve
/// beside it, `/cache/KEY/level-NN.EXT`. KEY is the SHA-256 of the source's content and the
/// options: only a signed request makes one, and it names what it holds, so its files are served
/// unsigned and never change.
extension ImageService {
    /// A `/cache` URL (the path after `/cache`), checked: its signature, its source and the options
    /// of the cache it asks for.
    public struct CacheRequest: Sendable {
        public let path: ServicePath
        /// Where its source is, checked once.
        public let location: SourceLocation
        /// `levels:N`, `max_sigma:S` (`ms`), `format:png|jpg|webp` (`f`, or `@EXT`), `quality:Q` (`q`).
        public let options: CacheOptions
    }

    /// Parses a signed `/cache` path (after `/cache`) and checks its signature, options and source.
    public func cacheRequest(_ path: String) throws(ServiceError) -> CacheRequest {
        guard settings.blurCaches != nil else { throw ServiceError(404, "this server keeps no blur caches (start it with --cache)") }
        let parsed = try signedPath(path)
        var levels = BlurCacheSpec.defaultLevels, maxSigma = BlurCacheSpec.defaultMaxSigma
        var format = parsed.format ?? .png, quality: Int?
        for option in parsed.options {
            let a = option.arguments
            func number(_ range: ClosedRange<Double>) throws(ServiceError) -> Double {
                guard a.count == 1, let value = Double(a[0]), range.contains(value) else {
                    throw .badRequest("\(option.name): a number from \(range.lowerBound) to \(range.upperBound)")
                }
                return value
            }
            switch option.name {
            case "levels", "l":
                let range = BlurCacheSpec.levelsRange
                levels = Int(try number(Double(range.lowerBound)...Double(range.upperBound)))
            case "max_sigma", "ms": maxSigma = try number(BlurCacheSpec.maxSigmaRange)
            case "format", "f":
                guard a.count == 1, let f = ImageFormat(name: a[0]) else { throw .badRequest("format: levels are png, jpg or webp") }
                format = f
            case "quality", "q": quality = Int(try number(1...100))
            default: throw .badRequest("unknown cache option '\(option.name)'")
            }
        }
        // (The option's or the extension's.)
        guard [.png, .jpeg, .webp].contains(format) else { throw .badRequest("format: levels are png, jpg or webp") }
        if quality != nil, format == .png { throw .badRequest("quality: not for png levels") }
        // `frost cache`'s defaults: JPEG at 90, WebP lossless unless a quality is given.
        let options = CacheOptions(levels: levels, maxSigma: maxSigma, format: format, quality: quality ?? 90,
                                   webpQuality: format == .webp ? quality : nil)
        return CacheRequest(path: parsed, location: try location(of: parsed.source), options: options)
    }

    /// Builds the cache a `/cache` request asks for (kept: built once) and answers 307 to its
    /// manifest, not to be kept (`no-cache`). `source` as for `respond`; `cancellation` is checked before the build (which then
    /// runs to its end: other requests may be waiting for it).
    public func cache(_ request: CacheRequest, source: [UInt8]? = nil, cancellation: Cancellation? = nil) throws(ServiceError) -> Response {
        guard let caches = settings.blurCaches else { throw ServiceError(404, "this server keeps no blur caches") }
        let bytes = if let source { source } else { try storedBytes(request.location) }
        try cancellation?.check()
        let key: String
        do {
            key = try caches.prepare(bytes, options: request.options, limits: settings.processor.limits, threads: settings.processor.threads)
        } catch let error as CodecError where error.kind == .encode {
            throw ServiceError(422, "the source: \(error.message)")
        } catch let error as CodecError {
            throw ServiceProcessor.serviceError(error)
        } catch {
            throw ServiceError(500, "\(error)")
        }
        // The cache it points to may be evicted after the next build (`--blur-cache-size`) or by a
        // bucket's lifecycle rule, and a changed source is another KEY: a redirect kept by a CDN
        // would outlive it, so it is asked again each time (for a kept cache: a read of the source
        // and its hash, no build).
        return Response(status: 307, contentType: "", body: [], etag: nil,
                        headers: [("Location", "/cache/\(key)/\(CacheStore.manifestName)"), ("Cache-Control", "no-cache")])
    }

    /// A kept cache's file: `path` (after `/cache`) is `/KEY/manifest.json` or `/KEY/level-NN.EXT`;
    /// nil when it has another shape (a signed `/cache` URL), 404 when there is no such file.
    public func cacheFile(_ path: String, ifNoneMatch: String? = nil) throws(ServiceError) -> Response? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].isEmpty, ResultCache.isKey(String(parts[1])) else { return nil }
        let name = String(parts[2])
        guard let caches = settings.blurCaches, let file = caches.file(String(parts[1]), name) else {
            throw ServiceError(404, "no such cache file (a signed /cache URL builds it)")
        }
        let etag = "\"" + file.sha256.prefix(32) + "\""
        let headers = [("Cache-Control", "max-age=\(settings.maxAge), public, immutable")]
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return Self.notModified(etag, headers) }
        let type = name == CacheStore.manifestName ? "application/json"
            : ImageFormat(pathExtension: name)?.contentType ?? "application/octet-stream"
        return Response(status: 200, contentType: type, body: file.bytes, etag: etag, headers: headers)
    }
}
