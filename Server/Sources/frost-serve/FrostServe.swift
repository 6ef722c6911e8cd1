import ArgumentParser
import FrostCodecs
import FrostServer
import FrostService
import FrostStorage
import Foundation

/// `frost serve` (the `frost` command hands `serve` to this program): imgproxy's URLs over HTTP.
/// Every flag can come from the environment instead (FROST_ and the flag's name in capitals,
/// dashes as underscores: FROST_KEY, FROST_SALT, FROST_ROOT, FROST_BIND, FROST_WORKERS, …);
/// a flag given wins.
@main
struct FrostServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frost serve",
        abstract: "Serve images by URL, as imgproxy does: /SIGNATURE/OPTIONS/plain/local:///FILE@EXT (docs/serve.md).",
        discussion: """
        GET /health answers 200 once the server listens; /metrics is Prometheus text; /info/SIGNATURE/OPTIONS/SOURCE \
        is JSON (size, format, colour, blurhash:X:Y, thumbhash:1); /cache/SIGNATURE/OPTIONS/SOURCE builds the source's \
        blur cache (with --cache) and redirects to its manifest. Signatures are imgproxy's: HMAC-SHA256 with --key \
        over --salt and the path, URL-safe base64. SIGTERM lets requests in flight finish, then exits 0.
        """)

    @Option(help: "Folder local:/// sources are read from (nothing outside it). Env FROST_ROOT.")
    var root: String?

    @Option(help: "HOST:PORT to listen on (port 0: any free one, printed). Env FROST_BIND.")
    var bind: String?

    @Option(help: "Signing key, hex (imgproxy's IMGPROXY_KEY). Env FROST_KEY.")
    var key: String?

    @Option(help: "Signing salt, hex (imgproxy's IMGPROXY_SALT). Env FROST_SALT.")
    var salt: String?

    @Flag(help: "Without --key and --salt, serve unsigned URLs (any signature segment). Env FROST_ALLOW_UNSIGNED=1.")
    var allowUnsigned = false

    @Option(help: "Images processed at once (default: the cores). Env FROST_WORKERS.")
    var workers: Int?

    @Option(help: "Requests waiting for a worker before 429 Too Many Requests (default 64). Env FROST_QUEUE.")
    var queue: Int?

    @Option(help: "Seconds a request may take, queue included, before 503 (default 10). Env FROST_TIMEOUT.")
    var timeout: Double?

    @Option(help: "Seconds a source's download may take, head and body, before 504 (default 5). Env FROST_DOWNLOAD_TIMEOUT.")
    var downloadTimeout: Double?

    @Option(help: "Seconds a new connection may take to send a whole request before it is closed (default 10). Env FROST_READ_REQUEST_TIMEOUT.")
    var readRequestTimeout: Double?

    @Option(help: "Seconds a kept-alive connection may wait for its next request before it is closed (default 10). Env FROST_KEEP_ALIVE_TIMEOUT.")
    var keepAliveTimeout: Double?

    @Option(help: "Connections open at once; past it new ones wait to be accepted (default 2048). Env FROST_MAX_CLIENTS.")
    var maxClients: Int?

    @Option(help: "After SIGTERM, seconds requests in flight may take to finish (default 20). Env FROST_SHUTDOWN_TIMEOUT.")
    var shutdownTimeout: Double?

    @Option(help: "A host (HOST or HOST:PORT) http(s) sources may come from, or a bucket (s3://BUCKET) s3:// sources may; repeatable. Env FROST_ALLOW_SOURCE (comma-separated).")
    var allowSource: [String] = []

    @Option(help: "Largest source in pixels (default 50000000, as imgproxy). Env FROST_MAX_PIXELS.")
    var maxPixels: Int?

    @Option(help: "Largest source file in bytes (default 104857600, 100 MiB). Env FROST_MAX_FILE_SIZE.")
    var maxFileSize: Int?

    @Option(help: "Most frames an animated source may have (default 256). Env FROST_MAX_FRAMES.")
    var maxFrames: Int?

    @Option(help: "Cache-Control max-age of results, seconds (default 31536000). Env FROST_MAX_AGE.")
    var maxAge: Int?

    @Flag(name: .customLong("auto-webp"), help: "Answer WebP to clients that accept it when the URL names no format (Vary: Accept). Env FROST_AUTO_WEBP=1.")
    var autoWebP = false

    @Flag(name: .customLong("auto-avif"), help: "Answer AVIF to clients that accept it when the URL names no format. Env FROST_AUTO_AVIF=1.")
    var autoAVIF = false

    @Option(help: "Keep results in this folder (content-addressed, least recently used out past --cache-size; kept across restarts), and the blur caches of fade: and /cache URLs in its blur/; or in a bucket, s3://BUCKET/PREFIX, shared by replicas (its lifecycle rule removes old ones). Env FROST_CACHE.")
    var cache: String?

    @Option(help: "The result cache's most bytes (default 1073741824). Env FROST_CACHE_SIZE.")
    var cacheSize: Int?

    @Option(help: "Bytes of the hottest results also held in memory, with --cache (default 134217728). Env FROST_MEMORY_CACHE_SIZE.")
    var memoryCacheSize: Int?

    @Option(help: "Bytes of sources decoded a moment ago kept for their next variant (default 536870912, a quarter of the deploy manifest's memory; 0: none). Env FROST_SOURCE_CACHE_SIZE.")
    var sourceCacheSize: Int?

    @Option(help: "The blur caches' most bytes, together (default 1073741824; least recently used out). Env FROST_BLUR_CACHE_SIZE.")
    var blurCacheSize: Int?

    @Option(help: "The longer side of a blur cache's levels, at most: a larger source is shrunk first (default 2048; 0: the source's size). Env FROST_CACHE_MAX_SIDE.")
    var cacheMaxSide: Int?

    @Option(help: "A preset, NAME=OPTIONS (rs:fit:300:0/q:70), used by pr:NAME; 'default' applies to every URL. Repeatable.")
    var preset: [String] = []

    @Option(help: "A file of presets, NAME=OPTIONS a line (imgproxy's IMGPROXY_PRESETS_PATH). Env FROST_PRESETS.")
    var presets: String?

    @Option(help: "Formats a result without an extension may take, in order (default jpeg,png,gif, as imgproxy). Env FROST_PREFERRED_FORMATS.")
    var preferredFormats: String?

    @Option(help: "Quality of lossy results (default 80). Env FROST_QUALITY.")
    var quality: Int?

    @Option(help: "Quality per format, FORMAT=Q,… (default webp=79,avif=63, as imgproxy). Env FROST_FORMAT_QUALITY.")
    var formatQuality: String?

    @Option(help: "The image wm: draws (imgproxy's IMGPROXY_WATERMARK_PATH). Env FROST_WATERMARK.")
    var watermark: String?

    @Option(help: "The watermark's opacity, 0–1, times wm:'s (default 1). Env FROST_WATERMARK_OPACITY.")
    var watermarkOpacity: Double?

    static func main() async {
        FrostServerApp.runTasksOnEventLoops()
        await main(nil)
    }

    func run() async throws {
        let env = ProcessInfo.processInfo.environment
        func value(_ flag: String?, _ name: String) -> String? { flag ?? env["FROST_" + name] }
        func number<T: LosslessStringConvertible & Sendable>(_ flag: T?, _ name: String, _ range: ClosedRange<Double>) throws -> T? {
            guard let text = flag.map({ String($0) }) ?? env["FROST_" + name] else { return nil }
            guard let v = T(text), let d = Double(String(v)), range.contains(d) else {
                throw ValidationError("--\(name.lowercased().replacingOccurrences(of: "_", with: "-")) takes a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return v
        }
        var settings = ServerSettings()
        let bind = value(self.bind, "BIND") ?? "127.0.0.1:8080"
        guard let colon = bind.lastIndex(of: ":"), let port = Int(bind[bind.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--bind takes HOST:PORT, e.g. 127.0.0.1:8080")
        }
        settings.host = String(bind[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        settings.port = port
        switch (value(key, "KEY"), value(salt, "SALT")) {
        case (let key?, let salt?):
            guard let signer = URLSignature(keyHex: key, saltHex: salt) else { throw ValidationError("--key and --salt are hex, at least one byte each") }
            settings.service.signer = signer
        case (nil, nil):
            settings.service.allowUnsigned = allowUnsigned || env["FROST_ALLOW_UNSIGNED"] == "1"
            guard settings.service.allowUnsigned else {
                throw ValidationError("give --key and --salt (hex), or --allow-unsigned to serve unsigned URLs")
            }
        default:
            throw ValidationError("give --key and --salt together")
        }
        if let root = value(root, "ROOT") {
            guard let local = LocalSource(root: root) else { throw ValidationError("--root \(root): not a folder") }
            settings.service.local = local
        }
        let sources = allowSource + (env["FROST_ALLOW_SOURCE"]?.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } ?? [])
        let buckets = sources.filter { $0.hasPrefix(ObjectAddress.scheme) }.map { String($0.dropFirst(ObjectAddress.scheme.count)) }
        if let bad = buckets.first(where: { !ObjectSources.isBucketName($0) }) {
            throw ValidationError("--allow-source s3://\(bad): a bucket's name (3 to 63 of a-z 0-9 . - _), without a key")
        }
        settings.service.remote = RemoteSources(hosts: sources.filter { !$0.hasPrefix(ObjectAddress.scheme) })
        settings.service.objects = ObjectSources(buckets: buckets)
        settings.workers = try number(workers, "WORKERS", 1...1024) ?? settings.workers
        settings.queue = try number(queue, "QUEUE", 0...1_000_000) ?? settings.queue
        func seconds(_ flag: Double?, _ name: String) throws -> Duration? {
            (try number(flag, name, 0.001...3600) as Double?).map { .milliseconds(Int64($0 * 1000)) }
        }
        settings.timeout = try seconds(timeout, "TIMEOUT") ?? settings.timeout
        settings.downloadTimeout = try seconds(downloadTimeout, "DOWNLOAD_TIMEOUT") ?? settings.downloadTimeout
        settings.readRequestTimeout = try seconds(readRequestTimeout, "READ_REQUEST_TIMEOUT") ?? settings.readRequestTimeout
        settings.keepAliveTimeout = try seconds(keepAliveTimeout, "KEEP_ALIVE_TIMEOUT") ?? settings.keepAliveTimeout
        settings.shutdownTimeout = try seconds(shutdownTimeout, "SHUTDOWN_TIMEOUT") ?? settings.shutdownTimeout
        settings.maxClients = try number(maxClients, "MAX_CLIENTS", 1...1_000_000) ?? settings.maxClients
        var limits = DecodeOptions(maxPixels: try number(maxPixels, "MAX_PIXELS", 1...1e12) ?? 50_000_000,
                                   maxFileBytes: try number(maxFileSize, "MAX_FILE_SIZE", 1...1e12) ?? 100 << 20)
        limits.maxFrames = try number(maxFrames, "MAX_FRAMES", 1...1_000_000) ?? 256
        settings.service.processor.limits = limits
        settings.service.maxAge = try number(maxAge, "MAX_AGE", 0...1e10) ?? settings.service.maxAge
        settings.service.autoWebP = autoWebP || env["FROST_AUTO_WEBP"] == "1"
        settings.service.autoAVIF = autoAVIF || env["FROST_AUTO_AVIF"] == "1"
        if let folder = value(cache, "CACHE") {
            let size: Int = try number(cacheSize, "CACHE_SIZE", 1024...1e15) ?? 1 << 30
            let blurSize: Int = try number(blurCacheSize, "BLUR_CACHE_SIZE", 1024...1e15) ?? 1 << 30
            let memorySize: Int = try number(memoryCacheSize, "MEMORY_CACHE_SIZE", 0...1e15) ?? 128 << 20
            let maxSide: Int = try number(cacheMaxSide, "CACHE_MAX_SIDE", 0...1_000_000) ?? ServiceBlurCaches.defaultMaxSide
            if ObjectAddress(folder).map({ !ObjectSources.isBucketName($0.bucket) }) ?? false {
                throw ValidationError("--cache \(folder): s3://BUCKET/PREFIX with a bucket's name")
            }
            do {
                settings.service.resultCache = try ResultCache(folder: folder, maxBytes: size, memoryBytes: memorySize)
                settings.service.blurCaches = try ServiceBlurCaches(folder: (folder.hasSuffix("/") ? folder : folder + "/") + "blur", maxBytes: blurSize,
                                                                     maxSide: maxSide > 0 ? maxSide : nil)
            } catch {
                throw ValidationError("--cache \(folder): \(error)")
            }
        }
        let sourceCache: Int = try number(sourceCacheSize, "SOURCE_CACHE_SIZE", 0...1e15) ?? 512 << 20
        if sourceCache > 0 { settings.service.sourceCache = DecodedSources(maxBytes: sourceCache) }
        for definition in preset {
            guard let equals = definition.firstIndex(of: "="), equals != definition.startIndex else {
                throw ValidationError("--preset takes NAME=OPTIONS, e.g. thumb=rs:fill:64:64/q:70")
            }
            do {
                settings.service.presets[String(definition[..<equals])] = try ServicePath.Option.list(parsing: String(definition[definition.index(after: equals)...]))
            } catch {
                throw ValidationError("--preset \(definition): \(error.message)")
            }
        }
        try imgproxyDefaults(&settings.service, env: env)
        try await FrostServerApp.run(settings) { [settings] port in
            // A line a supervisor or a test waits for, written whole.
            FileHandle.standardOutput.write(Data("frost serve: listening on \(settings.url(port: port))\n".utf8))
        }
    }

    /// The flags of imgproxy's settings of the same names: presets file, formats, qualities, watermark.
    private func imgproxyDefaults(_ service: inout ImageService.Settings, env: [String: String]) throws {
        var defaults = service.processor.defaults
        if let path = presets ?? env["FROST_PRESETS"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw ValidationError("--presets \(path): cannot read it") }
            do { service.presets = try Presets.parse(text, into: service.presets) } catch { throw ValidationError("--presets \(path): \(error.message)") }
        }
        func formats(_ text: String, _ flag: String) throws -> [ImageFormat] {
            try text.split(separator: ",").map { name in
                guard let format = ImageFormat(name: name.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("--\(flag): '\(name)' is not jpeg, png, webp, avif, heic or gif")
                }
                return format
            }
        }
        if let text = preferredFormats ?? env["FROST_PREFERRED_FORMATS"] {
            defaults.preferredFormats = try formats(text, "preferred-formats")
            guard !defaults.preferredFormats.isEmpty else { throw ValidationError("--preferred-formats names no format") }
        }
        if let q = quality ?? env["FROST_QUALITY"].flatMap(Int.init) {
            guard (1...100).contains(q) else { throw ValidationError("--quality takes 1 to 100") }
            defaults.quality = q
        }
        if let text = formatQuality ?? env["FROST_FORMAT_QUALITY"] {
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=")
                guard parts.count == 2, let format = try formats(String(parts[0]), "format-quality").first,
                      let q = Int(parts[1]), (1...100).contains(q) else { throw ValidationError("--format-quality takes FORMAT=Q,… with Q from 1 to 100") }
                defaults.formatQuality[format] = q
            }
        }
        if let path = watermark ?? env["FROST_WATERMARK"] {
            do { defaults.watermark = try ServiceProcessor.Defaults.watermark(path: path, limits: service.processor.limits) } catch {
                throw ValidationError("--watermark \(path): \(error)")
            }
        }
        if let opacity = watermarkOpacity ?? env["FROST_WATERMARK_OPACITY"].flatMap(Double.init) {
            guard opacity > 0, opacity <= 1 else { throw ValidationError("--watermark-opacity takes a number above 0, at most 1") }
            defaults.watermarkOpacity = opacity
        }
        service.processor.defaults = defaults
    }
}
