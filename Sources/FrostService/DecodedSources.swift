import Dispatch
import FrostCore
import Synchronization

/// Sources decoded a moment ago, kept in memory for the next variant (docs/serve.md, "Source
/// cache"): a page's responsive images ask for each photo at several widths and formats, so most
/// requests that miss the result cache decode a source that was just decoded. A decode is kept by
/// the source's identity (a local file's path, size, time and inode; a downloaded one's SHA-256)
/// and everything that shapes its pixels (the shrink-on-load reduction, the orientation): a
/// variant that needs the same decode takes it from here, so its bytes are those it would make
/// decoding afresh. Bounded in bytes, least recently used out; requests for one decode that
/// arrive together wait for a single decode.
public final class DecodedSources: Sendable {
    private let kept: MemoryLRU<Image>
    /// Decodes under way, by key: later requests for one wait on its lock.
    private let decoding = Mutex<[String: InFlight]>([:])

    /// A decode under way: its group is entered until the decode ends.
    private final class InFlight: Sendable {
        let group = DispatchGroup()
    }

    /// A cache of at most `maxBytes` of decoded pixels (0: nothing is kept).
    public init(maxBytes: Int) {
        kept = MemoryLRU(maxBytes: maxBytes)
    }

    /// The picture under `key`, decoded by `decode` unless kept (and kept after). While one
    /// request decodes a key, others asking for it wait for that decode and take its picture; a
    /// failed decode is not kept, and the next request tries for itself.
    public func image(_ key: String, _ decode: () throws -> Image) rethrows -> Image {
        if let image = kept.get(key) { return image }
        let (flight, leader) = decoding.withLock { flights -> (InFlight, Bool) in
            if let flight = flights[key] { return (flight, false) }
            let flight = InFlight()
            flight.group.enter()
            flights[key] = flight
            return (flight, true)
        }
        guard leader else {
            flight.group.wait()
            return try kept.get(key) ?? decode()
        }
        defer {
            _ = decoding.withLock { $0.removeValue(forKey: key) }
            flight.group.leave()
        }
        let image = try decode()
        kept.put(key, image, size: image.pixels.count)
        return image
    }

    /// Hits, misses, bytes and pictures held, for `/metrics`.
    public var statistics: (hits: Int, misses: Int, bytes: Int, count: Int) { kept.statistics }
}
