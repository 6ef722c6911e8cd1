import Foundation
import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostFiles
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The blur caches the service keeps (docs/serve.md, "Blur caches"): one `frost cache` folder per
/// source content and cache options, named by their SHA-256 (so a cache's files can be served by
/// that name, `/cache/KEY/FILE`, to clients that crossfade them), built on the first request that
/// needs it and kept. Two requests for a cache not yet built build it once: the second waits for
/// the first. Past `maxBytes` the least recently used caches go first, down to 90% of it — never
/// one being built or read; the index is rebuilt from the folder at start.
///
/// In a bucket (`s3://BUCKET/PREFIX`, shared by a service's replicas) a cache is complete when its
/// manifest (written last: docs/storage.md, "Consistency") names this source and these options —
/// one GET, no level read, every time (another replica, or the lifecycle rule, may have changed
/// the bucket since); a frame reads the manifest and its one or two levels (each checked against
/// its SHA-256), and only when that fails is the cache checked and built; a cache's file is read
/// with the manifest that names it. Nothing is counted at start, kept in the index after use, or
/// evicted: the bucket's lifecycle rule removes old caches.
public final class ServiceBlurCaches: Sendable {
    public let folder: String
    public let maxBytes: Int
    /// The longer side a cache's levels are made at, at most (`--cache-max-side`): a larger
    /// source is shrunk first (decoded reduced where it can), so a 50-Mpixel source costs what a
    /// 2048-pixel one does; nil: the source's own size.
    public let maxSide: Int?
    /// Whether the caches are kept in a bucket.
    public let isInBucket: Bool

    private struct Entry {
        var size = 0
        var used: UInt64 = 0
        /// Checked complete by this process: not re-checked on every frame (the check reads and
        /// hashes every level, which loading the frame's levels does again).
        var verified = false
        /// Requests building or reading it now: not evicted meanwhile.
        var users = 0
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var total = 0
        var clock: UInt64 = 0
        var builders: [String: NSLock] = [:]
    }
    private let state = Mutex(State())

    /// Caches kept under `folder` (made if missing), those already there counted; what an
    /// interrupted eviction left is removed. In a bucket (`s3://BUCKET/PREFIX`, read with the
    /// process's S3 client) the bucket is checked (a missing bucket or refused credentials fail
    /// here, at start) and nothing is counted. `maxSide`: the levels' longer side, at most.
    public init(folder: String, maxBytes: Int = .max, maxSide: Int? = ServiceBlurCaches.defaultMaxSide) throws {
        self.folder = folder
        self.maxBytes = maxBytes
        self.maxSide = maxSide
        if let prefix = ObjectAddress(folder) {
            try S3Client.shared.checkAccess(prefix)
            isInBucket = true
            return
        }
        isInBucket = false
        try FileIO.makeFolder(folder)
        var found = State()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            if name.hasPrefix(".") { try? FileManager.default.removeItem(atPath: path); continue }
            guard ResultCache.isKey(name) else { continue }
            var st = stat()
            guard stat(path, &st) == 0 else { continue }
            let size = Self.folderBytes(path)
            found.entries[name] = Entry(size: size, used: UInt64(st.st_mtim.tv_sec) * 1_000_000_000 + UInt64(st.st_mtim.tv_nsec))
            found.total += size
        }
        found.clock = found.entries.values.map(\.used).max() ?? 0
        state.withLock { $0 = found }
        evict()
    }

    /// Bytes held and caches kept, for `/metrics` (none counted in a bucket).
    public var statistics: (bytes: Int, caches: Int) {
        isInBucket ? (0, 0) : state.withLock { ($0.total, $0.entries.count) }
    }

    /// The default `maxSide`: what a client shows, a 2× screen's width.
    public static let defaultMaxSide = 2048

    /// A cache's name: the SHA-256 of the source's and the options' (those a URL sets: levels, σ,
    /// level format and quality), the levels' largest side, and whether the source was turned by
    /// its EXIF orientation. PNG caches of the source's own size, turned, keep the name the first
    /// service release gave them.
    public static func key(sourceSHA256 sha: String, options: CacheOptions, maxSide: Int? = nil, autoOrient: Bool = true) -> String {
        var text = "\(sha)|\(options.blur.levels)|\(options.blur.maxSigma ?? BlurCacheSpec.defaultMaxSigma)"
        if options.format != .png { text += "|\(options.format.fileExtension)|\(options.quality)|\(options.webpQuality.map(String.init) ?? "lossless")" }
        if let maxSide { text += "|side:\(maxSide)" }
        if !autoOrient { text += "|as-stored" }
        return SHA256.hex(Array(text.utf8))
    }

    /// The cache of the picture `bytes` hold with `options`, built if it is not kept yet: its key.
    @discardableResult
    public func prepare(_ bytes: [UInt8], options: CacheOptions, limits: DecodeOptions, threads: Int?) throws -> String {
        try withCache(bytes, options, limits, threads, readFirst: false) { key in key }
    }

    /// The frame `fade` asks for of the picture `bytes` hold, at the cache's size (the source's,
    /// shrunk to `maxSide`), premultiplied.
    public func frame(_ bytes: [UInt8], _ fade: ProcessingOptions.Fade, limits: DecodeOptions, threads: Int?) throws -> Image {
        try withCache(bytes, CacheOptions(levels: fade.levels, maxSigma: fade.maxSigma), limits, threads, readFirst: isInBucket) { key in
            // From a bucket, only the levels the frame blends are read (each checked by its hash).
            let loaded = try CacheStore.load(folder + "/" + key, decode: limits, only: { $0.levelsNeeded(at: fade.fraction, mode: fade.mode) },
                                             readingAll: !isInBucket)
            return CrossfadeCache(loaded).frame(at: fade.fraction, mode: fade.mode, threads: threads)
        }
    }

    /// `body` with the key of the cache of `bytes` with `options`, built first unless kept, and
    /// held (not evicted) while it runs. `readFirst` (a frame from a bucket): `body` is tried
    /// first, which reads what it needs (the manifest, its levels); only when it fails (no cache
    /// yet, one the lifecycle rule removed, a level missing or damaged) is the cache checked,
    /// its levels hashed too, built if that fails, and `body` run again.
    private func withCache<T>(_ bytes: [UInt8], _ options: CacheOptions, _ limits: DecodeOptions, _ threads: Int?, readFirst: Bool,
                              _ body: (String) throws -> T) throws -> T {
        let sha = SHA256.hex(bytes)
        let key = Self.key(sourceSHA256: sha, options: options, maxSide: maxSide, autoOrient: limits.autoOrient)
        return try use(key) {
            if readFirst {
                do { return try body(key) } catch let error as CodecError where error.kind == .stopped { throw error } catch {}
            }
            try ensure(key, bytes: bytes, sha: sha, options: options, limits: limits, threads: threads, checkingLevels: !isInBucket || readFirst)
            return try body(key)
        }
    }

    /// A kept cache's file, `manifest.json` or a level the manifest names, with its SHA-256 (a
    /// level's from the manifest); nil when there is no such cache or file.
    public func file(_ key: String, _ name: String) -> (bytes: [UInt8], sha256: String)? {
        // A bucket's caches are not indexed (another replica may have built it): the manifest says.
        guard ResultCache.isKey(key), isInBucket || state.withLock({ $0.entries[key] != nil }) else { return nil }
        let cache = folder + "/" + key
        guard let manifest = try? CacheStore.readManifest(cache) else { return nil }
        let sha: String
        if name == CacheStore.manifestName {
            sha = key
        } else if let level = manifest.levels.first(where: { $0.file == name }) {
            sha = level.sha256
        } else {
            return nil
        }
        guard let bytes = try? FileIO.read(cache + "/" + name) else { return nil }
        touch(key)
        return (bytes, sha)
    }

    /// Runs `body` with `key` marked in use (not evicted), then marks it used now.
    private func use<T>(_ key: String, _ body: () throws -> T) throws -> T {
        state.withLock { state in
            state.entries[key, default: Entry()].users += 1
        }
        defer {
            state.withLock { state in
                state.entries[key]?.users -= 1
            }
            touch(key)
            evict(keeping: key)
        }
        return try body()
    }

    /// Builds the cache `key` unless it is kept complete (its levels hashed too when
    /// `checkingLevels`); one build at a time per key. In a bucket its manifest is read every time
    /// (nothing is remembered as verified). A request told to stop builds nothing; a build once
    /// begun runs to its end under a flag of its own, which nobody raises: other requests may be
    /// waiting for it, and under the request's flag the kernels would skip rows into levels that
    /// are then kept.
    private func ensure(_ key: String, bytes: [UInt8], sha: String, options: CacheOptions, limits: DecodeOptions, threads: Int?,
                        checkingLevels: Bool) throws {
        if state.withLock({ $0.entries[key]?.verified == true }) { return }
        let lock = state.withLock { state in
            if let lock = state.builders[key] { return lock }
            let lock = NSLock()
            state.builders[key] = lock
            return lock
        }
        try lock.withLock {
            if state.withLock({ $0.entries[key]?.verified == true }) { return }
            let cache = folder + "/" + key
            if !CacheStore.isComplete(cache, sourceSHA256: sha, options: options, checkingLevels: checkingLevels) {
                if StopFlag.current { throw CodecError(.stopped, "the request was abandoned") }
                var decode = limits
                decode.frame = 0
                decode.requiresEveryFrame = false
                _ = try StopFlag().during {
                    try CacheStore.build(source: bytes, named: "source", sha256: sha, into: cache, options: options, decode: decode, threads: threads,
                                         maxSide: maxSide)
                }
            }
            if isInBucket { return }   // not counted, not remembered: the entry goes with its last user
            let size = Self.folderBytes(cache)
            state.withLock { state in
                state.total += size - (state.entries[key]?.size ?? 0)
                state.entries[key, default: Entry()].size = size
                state.entries[key]?.verified = true
            }
        }
    }

    /// Marks `key` just used: in the index, and in its folder's time for the order after a restart.
    private func touch(_ key: String) {
        if !isInBucket { utimes(folder + "/" + key, nil) }
        state.withLock { state in
            state.clock += 1
            state.entries[key]?.used = state.clock
        }
    }

    /// Removes the least recently used caches no request holds until the total is at most 90% of
    /// the cap, but never `keeping` (the cache a request just built or read: its client is about
    /// to ask for its files, even when it alone passes the cap). A cache is renamed away first,
    /// so a file request meanwhile finds nothing rather than half a cache, and removed after.
    private func evict(keeping: String? = nil) {
        let victims: [String] = state.withLock { state in
            // Renamed while the index is locked: a request for the key after this builds afresh.
            // An entry a failed build left (no size, no users) is dropped from the index.
            for (key, entry) in state.entries where entry.users == 0 && !entry.verified && entry.size == 0 {
                state.entries[key] = nil
                state.builders[key] = nil
            }
            guard state.total > maxBytes else { return [] }
            var out: [String] = []
            for (key, entry) in state.entries.sorted(by: { $0.value.used < $1.value.used }) where entry.users == 0 && key != keeping {
                guard state.total > maxBytes / 10 * 9 else { break }
                state.total -= entry.size
                state.entries[key] = nil
                state.builders[key] = nil
                let gone = folder + "/.evicted-" + key
                if rename(folder + "/" + key, gone) == 0 { out.append(gone) }
            }
            return out
        }
        for gone in victims { try? FileManager.default.removeItem(atPath: gone) }
    }

    private static func folderBytes(_ path: String) -> Int {
        var total = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            var st = stat()
            if stat(path + "/" + name, &st) == 0 { total += Int(st.st_size) }
        }
        return total
    }
}
