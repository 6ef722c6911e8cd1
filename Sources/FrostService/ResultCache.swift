import Foundation
import FrostCache
import FrostCore
import FrostFiles
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Results kept on disk (docs/serve.md, "Result cache"), imgproxy's most requested feature: one
/// file per result, named by the SHA-256 of the source's identity and the result's (options,
/// format), holding its content type, ETag and bytes. Written to a temporary file and renamed, so
/// concurrent requests for one result and a crash mid-write leave whole files only; the index of
/// sizes and last uses is rebuilt from the folder at start (a restart keeps what was cached, its
/// order of use from the files' modification times, set on every use); past `maxBytes` the least recently used go first, down to
/// 90% of it. The hottest results are also held in memory (`memory`, up to `memoryBytes`), so a
/// repeated URL is answered without reading a file.
///
/// In a bucket (`s3://BUCKET/PREFIX`, shared by a service's replicas) a result is an object under
/// the prefix, written in one PUT (it appears whole: S3's writes are atomic) and read with one GET;
/// a result another replica wrote is found by its key. The bucket is not scanned at start, nor
/// trimmed: what a replica sees is only its own part of the traffic, and S3 keeps no time of last
/// use, so the bucket's lifecycle rule removes old results (docs/serve.md, "Result cache").
public final class ResultCache: Sendable {
    /// A kept result.
    public struct Entry: Sendable, Equatable {
        public let contentType: String
        public let etag: String
        public let body: [UInt8]
    }

    public let folder: String
    public let maxBytes: Int
    /// The prefix and client of a cache in a bucket; nil: a local folder.
    private let bucket: (prefix: ObjectAddress, client: S3Client)?
    /// Results held in memory too, least recently used out.
    private let memory: MemoryLRU<Entry>
    private let index = Mutex<(entries: [String: (size: Int, used: UInt64)], total: Int, clock: UInt64)>(([:], 0, 0))

    /// Counters for `/metrics`: hits (from memory or disk), misses, bytes held on disk and files,
    /// and the memory layer's hits, bytes and results.
    public var statistics: (hits: Int, misses: Int, bytes: Int, files: Int, memoryHits: Int, memoryBytes: Int, memoryResults: Int) {
        let counts = self.counts.withLock { $0 }, memory = self.memory.statistics
        return index.withLock { (counts.hits, counts.misses, $0.total, $0.entries.count, memory.hits, memory.bytes, memory.count) }
    }
    private let counts = Mutex<(hits: Int, misses: Int)>((0, 0))

    /// The cache in `folder` (made if missing), its files already there counted, the hottest
    /// `memoryBytes` of results held in memory as well. In a bucket (`s3://BUCKET/PREFIX`, read
    /// with `client`, the process's by default) the bucket is checked (a listing of nothing: a
    /// missing bucket or refused credentials fail here, at start) and nothing is counted.
    public init(folder: String, maxBytes: Int, memoryBytes: Int = 0, client: S3Client? = nil) throws {
        self.folder = folder
        self.maxBytes = maxBytes
        memory = MemoryLRU(maxBytes: memoryBytes)
        if let prefix = ObjectAddress(folder) {
            let client = client ?? .shared
            try client.checkAccess(prefix)
            bucket = (prefix, client)
            return
        }
        bucket = nil
        try FileIO.makeFolder(folder)
        var entries: [String: (size: Int, used: UInt64)] = [:], total = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            if name.hasPrefix(".") { try? FileManager.default.removeItem(atPath: path); continue }   // an interrupted write
            guard Self.isKey(name) else { continue }
            var st = stat()
            guard stat(path, &st) == 0 else { continue }
            entries[name] = (Int(st.st_size), UInt64(st.st_mtim.tv_sec) * 1_000_000_000 + UInt64(st.st_mtim.tv_nsec))
            total += Int(st.st_size)
        }
        let clock = entries.values.map(\.used).max() ?? 0
        index.withLock { $0 = (entries, total, clock) }
        evict()
    }

    /// Whether the results are kept in a bucket (each lookup past the memory layer a request).
    public var isInBucket: Bool { bucket != nil }

    /// The object of a result in the bucket: its key under the prefix.
    private func object(_ key: String, in prefix: ObjectAddress) -> ObjectAddress {
        ObjectAddress(bucket: prefix.bucket, key: prefix.key.isEmpty || prefix.key.hasSuffix("/") ? prefix.key + key : prefix.key + "/" + key)
    }

    /// The key of a result: SHA-256 of the source's identity and the result's.
    public static func key(source: String, result: String) -> String {
        SHA256.hex(Array((source + "\n" + result).utf8))
    }

    /// The kept result of `key`, marked as just used; nil when there is none. From memory when it
    /// is held there (its file's time, the order after a restart, is then not refreshed). In a
    /// bucket, one GET; a bucket that fails to answer is a miss (the request is made afresh).
    /// `inMemoryOnly`: nil past the memory layer, and not counted as a miss (the lookup goes on
    /// where it may wait).
    public func get(_ key: String, inMemoryOnly: Bool = false) -> Entry? {
        if let entry = memory.get(key) {
            counts.withLock { $0.hits += 1 }
            return entry
        }
        if inMemoryOnly { return nil }
        let bytes: [UInt8]? = if let bucket {
            Self.isKey(key) ? (try? bucket.client.getIfPresent(object(key, in: bucket.prefix)))?.bytes : nil
        } else {
            Self.isKey(key) ? try? FileIO.read(folder + "/" + key) : nil
        }
        guard let bytes, let entry = Self.decode(bytes) else {
            counts.withLock { $0.misses += 1 }
            return nil
        }
        counts.withLock { $0.hits += 1 }
        memory.put(key, entry, size: entry.body.count)
        if bucket != nil { return entry }
        utimes(folder + "/" + key, nil)   // its time is its last use, for the order after a restart
        index.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.entries[key] = (old.size, state.clock) }
        }
        return entry
    }

    /// Keeps `entry` under `key` (replacing any), then evicts past the cap. A failure to write
    /// (a full disk, a bucket out of reach) keeps nothing and is not an error of the request. In a
    /// bucket, one PUT, and no eviction (its lifecycle rule's).
    public func put(_ key: String, _ entry: Entry) {
        guard Self.isKey(key) else { return }
        let bytes = Self.encode(entry)
        guard bytes.count <= maxBytes / 10 else { return }
        if let bucket {
            guard (try? bytes.withUnsafeBytes({ try bucket.client.put(object(key, in: bucket.prefix), $0) })) != nil else { return }
            memory.put(key, entry, size: entry.body.count)
            return
        }
        guard (try? FileIO.writeAtomically(bytes, to: folder + "/" + key)) != nil else { return }
        memory.put(key, entry, size: entry.body.count)
        index.withLock { state in
            state.clock += 1
            state.total += bytes.count - (state.entries[key]?.size ?? 0)
            state.entries[key] = (bytes.count, state.clock)
        }
        evict()
    }

    /// Removes the least recently used files until the total is at most 90% of the cap.
    private func evict() {
        let victims: [String] = index.withLock { state in
            guard state.total > maxBytes else { return [] }
            var out: [String] = []
            for (key, entry) in state.entries.sorted(by: { $0.value.used < $1.value.used }) {
                guard state.total > maxBytes / 10 * 9 else { break }
                state.total -= entry.size
                state.entries[key] = nil
                out.append(key)
            }
            return out
        }
        for key in victims {
            memory.remove(key)
            unlink(folder + "/" + key)
        }
    }

    /// A SHA-256 in lowercase hex: the name of a kept result or blur cache.
    static func isKey(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// "frost-result 1\n", the content type and the ETag on a line each, then the body.
    static func encode(_ entry: Entry) -> [UInt8] {
        Array("frost-result 1\n\(entry.contentType)\n\(entry.etag)\n".utf8) + entry.body
    }

    static func decode(_ bytes: [UInt8]) -> Entry? {
        var lines: [String] = [], start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            lines.append(String(decoding: bytes[start..<i], as: UTF8.self))
            start = i + 1
            if lines.count == 3 { break }
        }
        guard lines.count == 3, lines[0] == "frost-result 1" else { return nil }
        return Entry(contentType: lines[1], etag: lines[2], body: Array(bytes[start...]))
    }
}
