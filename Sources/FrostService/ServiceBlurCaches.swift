import Foundation
import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostFiles
import Synchronization

/// The blur caches `fade:` frames come from (docs/serve.md, "Blur caches"): one `frost cache`
/// folder per source content and cache options, built on the first request that needs it and kept
/// (a later request reads only the one or two levels its frame needs). Two requests for a cache not
/// yet built build it once: the second waits for the first.
public final class ServiceBlurCaches: Sendable {
    public let folder: String
    private let locks = Mutex<[String: NSLock]>([:])
    /// Caches this process built or found complete: checked once, not on every frame (the check
    /// reads and hashes every level file, which loading the frame's levels does again).
    private let complete = Mutex<Set<String>>([])

    /// Caches kept under `folder` (made if missing).
    public init(folder: String) throws {
        try FileIO.makeFolder(folder)
        self.folder = folder
    }

    /// The frame `fade` asks for of the picture `bytes` hold, at full size, premultiplied.
    public func frame(_ bytes: [UInt8], _ fade: ProcessingOptions.Fade, limits: DecodeOptions, threads: Int?) throws -> Image {
        let options = CacheOptions(levels: fade.levels, maxSigma: fade.maxSigma)
        let sha = SHA256.hex(bytes)
        let key = SHA256.hex(Array("\(sha)|\(fade.levels)|\(fade.maxSigma)".utf8))
        let cache = folder + "/" + key
        let lock = locks.withLock { locks in
            if let lock = locks[key] { return lock }
            let lock = NSLock()
            locks[key] = lock
            return lock
        }
        if !complete.withLock({ $0.contains(key) }) {
            try lock.withLock {
                if !CacheStore.isComplete(cache, sourceSHA256: sha, options: options) {
                    var decode = limits
                    decode.frame = 0
                    decode.requiresEveryFrame = false
                    try CacheStore.build(source: bytes, named: "source", sha256: sha, into: cache, options: options, decode: decode, threads: threads)
                }
            }
            complete.withLock { _ = $0.insert(key) }
        }
        let loaded = try CacheStore.load(cache, decode: limits, only: { $0.levelsNeeded(at: fade.fraction, mode: fade.mode) })
        return CrossfadeCache(loaded).frame(at: fade.fraction, mode: fade.mode, threads: threads)
    }
}
