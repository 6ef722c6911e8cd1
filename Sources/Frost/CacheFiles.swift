import Foundation

// Blur caches in memory and as folders named by URL.

extension CrossfadeCache {
    /// Renders `plan`'s levels of `image` in memory (`CachePlan()`: ten levels up to σ 40, the
    /// `frost cache` default; `.twitter()` and `.secret()` are the seed apps' sets).
    public init(rendering image: Image, plan: CachePlan = CachePlan(), threads: Int? = nil) {
        self.init(plan: plan, levels: CacheRenderer(plan: plan, threads: threads).render(image), width: image.width, height: image.height)
    }

    /// Loads a cache folder (`frost cache`'s output, or `build(from:into:options:)`'s) and
    /// verifies every level file against the manifest.
    public init(contentsOf folder: URL, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let path = try Image.filePath(folder)
        do { self.init(try CacheStore.load(path, decode: options)) } catch { throw CodecError(error).about(folder.relativePath) }
    }

    /// Renders the image file `source` into a cache folder: level files, then `manifest.json`
    /// (docs/cache-format.md), each written atomically; a failure leaves no part of a cache.
    @discardableResult
    public static func build(from source: URL, into folder: URL, options: CacheOptions = CacheOptions(),
                             decode: DecodeOptions = DecodeOptions(), threads: Int? = nil) throws(CodecError) -> CacheManifest {
        let sourcePath = try Image.filePath(source), folderPath = try Image.filePath(folder)
        do {
            return try CacheStore.build(sourcePath: sourcePath, into: folderPath, options: options, decode: decode, threads: threads)
        } catch {
            throw CodecError(error).about(source.relativePath)
        }
    }
}
