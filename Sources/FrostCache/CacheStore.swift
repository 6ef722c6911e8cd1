import Foundation
import FrostCodecs
import FrostColor
@_spi(Kernels) import FrostCore
import FrostFiles

/// A cache folder on disk: one image per level plus `manifest.json`.
public enum CacheStore {
    /// The manifest's file name in a cache folder.
    public static let manifestName = "manifest.json"

    /// A verified cache: manifest, plan and decoded levels (premultiplied, at stored sizes).
    public struct Loaded: Sendable {
        /// The cache's manifest.
        public let manifest: CacheManifest
        /// Every level, or only those `load(_:decode:only:)` was asked for (nil for the others).
        public let levels: [Image?]
        /// Each level file's size in bytes (read and verified whether decoded or not).
        public let fileBytes: [Int]
        /// The levels' plan.
        public var plan: CachePlan { manifest.plan }
        /// The source's width.
        public var width: Int { manifest.source.width }
        /// The source's height.
        public var height: Int { manifest.source.height }
    }

    /// Renders the image file at `sourcePath` with `options` and writes the cache into `folder`:
    /// level files first, each atomically, then the manifest, atomically.
    @discardableResult
    public static func build(sourcePath: String, into folder: String, options: CacheOptions,
                             decode: DecodeOptions = DecodeOptions(), threads: Int? = nil) throws -> CacheManifest {
        try build(source: try FileIO.read(sourcePath), named: (sourcePath as NSString).lastPathComponent, into: folder,
                  options: options, decode: decode, threads: threads)
    }

    /// The same from the source file's bytes, already read, and their SHA-256 when the caller has
    /// it (a batch hashes them for its resume check).
    @discardableResult
    public static func build(source bytes: [UInt8], named name: String, sha256: String? = nil, identity: String? = nil, into folder: String,
                             options: CacheOptions, decode: DecodeOptions = DecodeOptions(), threads: Int? = nil) throws -> CacheManifest {
        try options.blur.validate()
        let image = try converted(try Image(decoding: bytes, options: decode), to: options.color, threads: threads)
        if options.format == .jpeg && (image.hasAlpha || image.containsTransparency) {
            throw CodecError(.encode, "JPEG levels cannot keep this image's alpha (use --format png)")
        }
        let plan = options.plan
        let levels = CacheRenderer(plan: plan, threads: threads).render(image)
        let sourceSHA256 = sha256 ?? SHA256.hex(bytes)
        let copiesSource = try sourceIsLevelFile(bytes, plan: plan, options: options, decode: decode)
        let created = !ObjectAddress.isObject(folder) && !FileManager.default.fileExists(atPath: folder)
        try prepare(folder)
        let manifest: CacheManifest
        do {
            // Each level file is encoded, written and hashed on the next free thread: encoding was
            // most of a `frost cache` (zlib 68% of it, perf), one file after another.
            let written = ResultSlots<Result<CacheManifest.Level, Error>>(count: levels.count)
            RowBands.runEach(levels.count, threads: RowBands.threads(threads)) { i in
                let level = plan.levels[i], picture = levels[i]
                written.set(i, Result {
                    let copy = i == 0 && copiesSource
                    let encoded = copy ? bytes : try picture.encoded(as: options.format, options: options.encodeOptions, threads: 1)
                    let file = String(format: "level-%02d.%@", level.index, options.format.fileExtension)
                    try FileIO.writeAtomically(encoded, to: folder + "/" + file)
                    let margin = level.factor > 1 ? CachePlan.storageMargin : 0
                    return CacheManifest.Level(index: level.index, sigma: level.sigma, radius: level.radius, factor: level.factor,
                                               width: picture.width, height: picture.height, file: file,
                                               sha256: copy ? sourceSHA256 : SHA256.hex(encoded), margin: margin,
                                               placement: .init(factor: level.factor, margin: margin,
                                                                storedWidth: picture.width, storedHeight: picture.height))
                })
            }
            let entries = try written.values.map { try $0.get() }
            manifest = CacheManifest(
                format: CacheManifest.formatName, version: CacheManifest.currentVersion,
                source: .init(file: name, bytes: bytes.count, sha256: sourceSHA256, identity: identity,
                              width: image.width, height: image.height),
                parameters: options, plan: plan, levels: entries)
            try writeManifest(manifest, in: folder)
            // A rebuild with fewer levels or another format leaves no level of the old cache behind.
            let kept = Set(entries.map(\.file))
            removeFiles(in: folder) { isLevelFile($0) && !kept.contains($0) }
        } catch {
            // A failed write (a full disk, a file-size limit) leaves no part of a cache behind.
            removeLevels(folder, removingFolder: created)
            throw error
        }
        return manifest
    }

    /// Writes `manifest.json` atomically: the last file of a cache.
    static func writeManifest(_ manifest: CacheManifest, in folder: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileIO.writeAtomically(Array(try encoder.encode(manifest)) + [0x0A], to: folder + "/" + manifestName)
    }

    /// The source in the levels' space (itself when `color` is nil).
    static func converted(_ image: Image, to color: CacheColor?, threads: Int?) throws -> Image {
        guard let color else { return image }
        guard let target = color.target else {
            throw CodecError(.unsupported, "the levels' colour space \(color.name) is named, not given: build with a CacheColor made from its target")
        }
        do {
            return try image.converted(to: target, intent: color.intent, threads: threads)
        } catch {
            throw CodecError(.unsupported, "cannot convert its colours: \(error.description)")
        }
    }

    /// Whether level 0 is the source file itself, copied rather than encoded again: a PNG source
    /// for PNG levels, shown as stored (no EXIF turn), under a plan whose level 0 is untouched.
    /// Loading it then gives the very pixels the levels were rendered from (encoding it was ~10%
    /// of a one-thread `frost cache` of a 4096² photo).
    static func sourceIsLevelFile(_ bytes: [UInt8], plan: CachePlan, options: CacheOptions,
                                  decode: DecodeOptions) throws -> Bool {
        guard plan.levels[0].isSource, options.format == .png, options.color == nil, ImageFormat(sniffing: bytes) == .png else { return false }
        return try !decode.autoOrient || Orientation(exifValue: ImageInfo(bytes: bytes).orientation) == .up
    }

    /// Reads and verifies a cache: the manifest's format and version, every level file inside the
    /// folder, its SHA-256 and its size. `only` picks, from the plan, the levels to decode (a
    /// single frame needs one or two: decoding all eleven was most of a `frost fade`); the others
    /// are verified all the same, their size from the file's header — unless `readingAll` is
    /// false (a cache in a bucket, a request a level: the others are not read, their `fileBytes` 0).
    public static func load(_ folder: String, decode: DecodeOptions = DecodeOptions(),
                            only wanted: ((CachePlan) -> [Int])? = nil, readingAll: Bool = true) throws -> Loaded {
        let manifest = try readManifest(folder)
        let decoded = Set(wanted?(manifest.plan) ?? Array(manifest.levels.indices))
        let options = DecodeOptions(maxPixels: decode.maxPixels, autoOrient: false)
        var images: [Image?] = [], sizes: [Int] = []
        for (i, level) in manifest.levels.enumerated() {
            guard readingAll || decoded.contains(i) else {
                images.append(nil)
                sizes.append(0)
                continue
            }
            let bytes = try levelBytes(folder, level)
            sizes.append(bytes.count)
            let image = decoded.contains(i) ? try Image(decoding: bytes, options: options) : nil
            let (width, height) = try image.map { ($0.width, $0.height) } ?? {
                let info = try ImageInfo(bytes: bytes)
                return (info.width, info.height)
            }()
            if let problem = sizeProblem(level, width, height) { throw CodecError(.corrupt, problem) }
            images.append(image?.premultiplied())
        }
        return Loaded(manifest: manifest, levels: images, fileBytes: sizes)
    }

    /// True when `folder` holds a complete cache made from these source bytes with these options
    /// (every level file present and matching its hash, unless `checkingLevels` is false: the
    /// manifest alone, written last, says so for a cache in a bucket) in the current format: what
    /// a batch resume skips (an older cache is rebuilt).
    public static func isComplete(_ folder: String, sourceSHA256: String, options: CacheOptions, checkingLevels: Bool = true) -> Bool {
        guard let manifest = try? readManifest(folder), manifest.version == CacheManifest.currentVersion,
              manifest.source.sha256 == sourceSHA256,
              manifest.parameters == options, manifest.plan == options.plan else { return false }
        return !checkingLevels || manifest.levels.allSatisfy { (try? levelBytes(folder, $0)) != nil }
    }

    /// True when `folder` holds a cache made, in the current format with these options, from the
    /// source `source` describes (its size and identity as the manifest recorded them): read from
    /// the manifest alone (one request for a cache in a bucket), neither the source nor a level.
    public static func isComplete(_ folder: String, source: ObjectInfo, options: CacheOptions) -> Bool {
        guard let manifest = try? readManifest(folder), manifest.version == CacheManifest.currentVersion,
              manifest.source.bytes == source.size, manifest.source.identity == source.identity,
              manifest.parameters == options, manifest.plan == options.plan else { return false }
        return true
    }

    /// The manifest, checked for format, version and level count.
    public static func readManifest(_ folder: String) throws -> CacheManifest {
        let path = folder + "/" + manifestName
        guard let bytes = try Storage.readIfPresent(path) else {
            throw CodecError(.corrupt, "not a cache (no \(manifestName))")
        }
        let manifest: CacheManifest
        do {
            manifest = try JSONDecoder().decode(CacheManifest.self, from: Data(bytes))
        } catch let error as CodecError {
            throw error
        } catch {
            throw CodecError(.corrupt, "not a cache (\(manifestName) is not a valid manifest)")
        }
        guard manifest.format == CacheManifest.formatName else {
            throw CodecError(.corrupt, "not a cache (format '\(manifest.format)')")
        }
        guard CacheManifest.supportedVersions.contains(manifest.version) else {
            throw CodecError(.unsupported, "cache version \(manifest.version) is not supported (this frost reads 1 and 2)")
        }
        guard !manifest.levels.isEmpty, manifest.levels.count == manifest.plan.levels.count else {
            throw CodecError(.corrupt, "not a cache (levels do not match the plan)")
        }
        return manifest
    }

    /// A level file's bytes, refusing names that leave the folder and contents that fail the hash.
    static func levelBytes(_ folder: String, _ level: CacheManifest.Level) throws -> [UInt8] {
        let bytes = try FileIO.read(try levelPath(folder, level))
        try verifyHash(bytes, level)
        return bytes
    }

    /// Where a level file is, refusing names that leave the folder.
    static func levelPath(_ folder: String, _ level: CacheManifest.Level) throws -> String {
        let name = level.file
        guard !name.isEmpty, !name.contains("/"), !name.contains("\0"), name != ".", name != ".." else {
            throw CodecError(.corrupt, "level file '\(name)' is outside the cache folder")
        }
        return folder + "/" + name
    }

    static func sizeProblem(_ level: CacheManifest.Level, _ width: Int, _ height: Int) -> String? {
        width == level.width && height == level.height ? nil
            : "\(level.file) is \(width)x\(height), the manifest says \(level.width)x\(level.height)"
    }

    static func verifyHash(_ bytes: [UInt8], _ level: CacheManifest.Level) throws {
        guard SHA256.hex(bytes) == level.sha256 else {
            throw CodecError(.corrupt, "\(level.file) does not match its SHA-256 in the manifest")
        }
    }

    /// Removes the level files, the manifest and the temporary files of a cache that could not be
    /// finished, and the folder itself if this build made it.
    static func removeLevels(_ folder: String, removingFolder: Bool) {
        removeFiles(in: folder) { isLevelFile($0) || $0 == manifestName || isTemporary($0) }
        if removingFolder { rmdir(folder) }
    }

    /// Creates the folder; removes a previous manifest (so a half-rebuilt folder is never taken
    /// for a cache) and temporary files an interrupted run left behind.
    static func prepare(_ folder: String) throws {
        do {
            try Storage.makeFolder(folder)
        } catch {
            throw CodecError(.io, "cannot create the cache folder \(folder)")
        }
        removeFiles(in: folder) { $0 == manifestName || isTemporary($0) }
    }

    /// `level-NN.png` (or .jpg, .webp): a name this store writes.
    private static func isLevelFile(_ name: String) -> Bool {
        let parts = name.split(separator: ".")
        return parts.count == 2 && parts[0].hasPrefix("level-") && parts[0].count > 6
            && parts[0].dropFirst(6).allSatisfy(\.isASCII) && Int(parts[0].dropFirst(6)) != nil
            && ImageFormat(pathExtension: name) != nil
    }

    /// A file `FileIO`'s atomic writes name while they write (`.NAME.frost-XXXXXX`).
    private static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.contains(".frost-") }

    private static func removeFiles(in folder: String, where matches: (String) -> Bool) {
        for name in (try? Storage.names(in: folder)) ?? [] where matches(name) {
            try? Storage.remove(folder + "/" + name)
        }
    }
}
