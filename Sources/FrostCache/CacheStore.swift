import Foundation
import FrostCodecs
import FrostColor
@_spi(Kernels) import FrostCore
import FrostFiles
import FrostStream

/// A cache folder (a local folder, or a prefix in a bucket: `Storage`): one image per level plus
/// `manifest.json`.
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

    /// Sources of at least this many pixels are built streamed where they can be
    /// (`StreamedLevels`): rows in, level files out, in bounded memory. Below it the whole-image
    /// path keeps its speed (a 4096² photo, 16.8 Mpixels, in 1.5–1.7 s) and its exact chained
    /// levels; at about 36 bytes per pixel it stays under 1 GiB up to here (docs/effects.md,
    /// "Operating a large catalog").
    public static let streamedPixels = 24_000_000

    /// Renders the image file (or object) at `sourcePath` with `options` and writes the cache into
    /// `folder` (built whole in a staging folder and put in place: `CacheFolder`): level files
    /// first, then the manifest.
    @discardableResult
    public static func build(sourcePath: String, into folder: String, options: CacheOptions,
                             decode: DecodeOptions = DecodeOptions(), threads: Int? = nil) throws -> CacheManifest {
        try options.blur.validate()
        let source = try Storage.localCopy(sourcePath, maxBytes: decode.maxFileBytes)
        return try build(file: source.path, named: Storage.lastComponent(sourcePath), identity: source.info.identity, into: folder,
                         options: options, decode: decode, threads: threads)
    }

    /// The same from a local file (an object's download: `Storage.localCopy`), its identity
    /// recorded (`identity`, else the file's own, taken before it is read, so that a change while
    /// it is read shows at the next run) and, from `streamedPixels` pixels up, streamed where the
    /// source and options allow (`StreamedLevels`), else read and decoded whole. A source that is
    /// not streamed and has more than `wholePixels` pixels is refused before it is decoded (a
    /// batch's memory bound: `frost cache --max-whole-pixels`).
    @discardableResult
    public static func build(file path: String, named name: String? = nil, identity: String? = nil, into folder: String, options: CacheOptions,
                             decode: DecodeOptions = DecodeOptions(), threads: Int? = nil, streamedPixels: Int = CacheStore.streamedPixels,
                             wholePixels: Int = .max, existing: [String]? = nil) throws -> CacheManifest {
        try options.blur.validate()
        let identity = try identity ?? Storage.localCopy(path).info.identity
        let name = name ?? Storage.lastComponent(path)
        if let streamed = try StreamedLevels(file: path, options: options, decode: decode, threads: threads, minimumPixels: streamedPixels) {
            return try CacheFolder.staged(folder, existing: existing) { staging in try streamed.write(into: staging, name: name, identity: identity) }
        }
        let bytes = try FileIO.read(path, maxBytes: decode.maxFileBytes)
        if wholePixels < .max, let info = try? ImageInfo(bytes: bytes), info.width * info.height > wholePixels {
            throw CodecError(.tooLarge, "\(info.width)x\(info.height) would be decoded whole (a \(info.format.rawValue) that cannot be read by rows): "
                             + "more than --max-whole-pixels \(wholePixels)")
        }
        return try build(source: bytes, named: name, identity: identity, into: folder, options: options, decode: decode, threads: threads,
                         existing: existing)
    }

    /// The same from the source file's bytes, already read, and their SHA-256 when the caller has
    /// it (the service hashes them for its check). With `maxSide`, the levels are those of the
    /// source shrunk to fit it (the service's caches: a client shows no more), decoded reduced
    /// where the format can: memory follows the levels' size, not the source's.
    @discardableResult
    public static func build(source bytes: [UInt8], named name: String, sha256: String? = nil, identity: String? = nil, into folder: String,
                             options: CacheOptions, decode: DecodeOptions = DecodeOptions(), threads: Int? = nil,
                             maxSide: Int? = nil, existing: [String]? = nil) throws -> CacheManifest {
        try options.blur.validate()
        let decoded = try maxSide.map { try fitted(bytes, within: $0, decode: decode, threads: threads) }
            ?? (image: Image(decoding: bytes, options: decode), shrunk: false)
        var image = try converted(decoded.image, to: options.color, threads: threads)
        // Blurring is linear and the background uniform, so the levels of the flattened source are
        // the transparent levels drawn over it (up to rounding): what an app shows them on.
        let flattened = options.flattening.flatMap { image.hasAlpha && image.containsTransparency ? $0 : nil }
        if let flattened { image = image.flattened(onto: flattened) }
        let plan = options.plan
        let levels = CacheRenderer(plan: plan, threads: threads).render(image)
        let sourceSHA256 = sha256 ?? SHA256.hex(bytes)
        let copiesSource = try flattened == nil && !decoded.shrunk && sourceIsLevelFile(bytes, plan: plan, options: options, decode: decode)
        return try CacheFolder.staged(folder, existing: existing) { staging in
            // Each level file is encoded, written and hashed on the next free thread: encoding was
            // most of a `frost cache` (zlib 68% of it, perf), one file after another.
            let written = ResultSlots<Result<CacheManifest.Level?, Error>>(count: levels.count)
            RowBands.runEach(levels.count, threads: RowBands.threads(threads)) { i in
                written.set(i, Result {
                    guard i > 0 || options.sourceLevel else { return nil }
                    let picture = levels[i]
                    let copy = i == 0 && copiesSource
                    let encoded = copy ? bytes : try picture.encoded(as: options.format, options: options.encodeOptions, threads: 1)
                    let sha = copy ? sourceSHA256 : SHA256.hex(encoded)
                    let file = levelName(plan.levels[i].index, sha256: sha, options: options)
                    try FileIO.writeAtomically(encoded, to: staging + "/" + file)
                    return levelEntry(plan.levels[i], width: picture.width, height: picture.height, file: file, sha256: sha, bytes: encoded.count)
                })
            }
            let manifest = CacheManifest(
                format: CacheManifest.formatName, version: options.sourceLevel ? CacheManifest.currentVersion : CacheManifest.sourcelessVersion,
                source: .init(file: name, bytes: bytes.count, sha256: sourceSHA256, width: image.width, height: image.height,
                              identity: identity),
                parameters: options, plan: plan, levels: try written.values.compactMap { try $0.get() }, flattenedOnto: flattened)
            try write(manifest, in: staging)
            return manifest
        }
    }

    /// The source decoded and shrunk to fit `side` × `side` (aspect kept), as `frost resize --fit
    /// contain` shrinks it: a JPEG or WebP decoded reduced first where `ShrinkOnLoad` plans it, so
    /// the whole source is never held; as it is when it fits.
    static func fitted(_ bytes: [UInt8], within side: Int, decode: DecodeOptions, threads: Int?) throws -> (image: Image, shrunk: Bool) {
        let info = try ImageInfo(bytes: bytes)
        let turned = decode.autoOrient && info.orientation >= 5
        let (width, height) = turned ? (info.height, info.width) : (info.width, info.height)
        guard max(width, height) > side else { return (try Image(decoding: bytes, options: decode), false) }
        let plan = ShrinkOnLoad(steps: [.resize(width: side, height: side, fit: .contain, noEnlarge: true, padding: .clear)],
                                width: width, height: height)
        var reduced = decode
        reduced.reduction = plan.reduction
        return (try plan.steps[0].apply(to: try Image(decoding: bytes, options: reduced), limits: decode, threads: threads), true)
    }

    /// A level file's name: `level-NN.png`, or named by content `level-NN-<8 hex digits>.png`.
    static func levelName(_ index: Int, sha256: String, options: CacheOptions) -> String {
        String(format: "level-%02d", index) + (options.contentNames ? "-" + sha256.prefix(8) : "") + "." + options.format.fileExtension
    }

    /// The manifest's entry for a written level of the plan.
    static func levelEntry(_ level: CachePlan.Level, width: Int, height: Int, file: String, sha256: String, bytes: Int) -> CacheManifest.Level {
        let margin = level.factor > 1 ? CachePlan.storageMargin : 0
        return CacheManifest.Level(index: level.index, sigma: level.sigma, radius: level.radius, factor: level.factor,
                                   width: width, height: height, file: file, sha256: sha256, margin: margin,
                                   placement: .init(factor: level.factor, margin: margin, storedWidth: width, storedHeight: height),
                                   bytes: bytes)
    }

    /// `manifest.json`, atomically: the last file of a cache.
    static func write(_ manifest: CacheManifest, in folder: String) throws {
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
    /// `Loaded.levels` follows the plan: a cache without its source level has nil there, and
    /// refuses to decode it.
    public static func load(_ folder: String, decode: DecodeOptions = DecodeOptions(),
                            only wanted: ((CachePlan) -> [Int])? = nil, readingAll: Bool = true) throws -> Loaded {
        let manifest = try readManifest(folder)
        let decoded = Set(wanted?(manifest.plan) ?? Array(manifest.plan.levels.indices))
        let options = DecodeOptions(maxPixels: decode.maxPixels, autoOrient: false)
        var images: [Image?] = [], sizes: [Int] = []
        for i in manifest.plan.levels.indices {
            guard let level = manifest.level(i) else {
                if decoded.contains(i) {
                    throw CodecError(.unsupported, "the cache has no level \(i), the source (built with --no-source-level): show the source itself there")
                }
                images.append(nil)
                sizes.append(0)
                continue
            }
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
    /// manifest alone, written last, says so for a cache in a bucket) in the format this build writes.
    /// A manifest that cannot be read counts as none here (the cache is built again over it).
    public static func isComplete(_ folder: String, sourceSHA256: String, options: CacheOptions, checkingLevels: Bool = true) -> Bool {
        guard let manifest = (try? manifest(folder, madeWith: options)) ?? nil, manifest.source.sha256 == sourceSHA256 else { return false }
        return !checkingLevels || levelsVerify(folder, manifest)
    }

    /// The manifest of a cache in `folder` made with these options in the format this build
    /// writes, whose level files are all there at their recorded sizes: told from the manifest and
    /// each level's size (`sizeOf`, given a level's path: by default `Storage.info`, a `stat` of a
    /// file; a batch over a bucket gives the sizes its listing of the output found), without
    /// reading any level. Nil otherwise (no cache, another format or version, other options, a
    /// level missing or of another size): the cache is to be built. A lookup or read that fails
    /// (EIO, a 503) is thrown: it does not say the cache is incomplete.
    public static func completeManifest(_ folder: String, options: CacheOptions,
                                        sizeOf: (String) throws -> Int? = { try Storage.info($0)?.size }) throws -> CacheManifest? {
        guard let manifest = try manifest(folder, madeWith: options) else { return nil }
        for level in manifest.levels {
            guard let path = try? levelPath(folder, level), let size = try sizeOf(path), level.bytes.map({ $0 == size }) ?? true else { return nil }
        }
        return manifest
    }

    /// The manifest of a cache in `folder` made with these options in the format this build
    /// writes (an older cache is rebuilt), nil otherwise; a manifest that cannot be read (not one
    /// that is not a cache's) is thrown.
    private static func manifest(_ folder: String, madeWith options: CacheOptions) throws -> CacheManifest? {
        let manifest: CacheManifest
        do {
            manifest = try readManifest(folder)
        } catch let error as CodecError where error.kind == .corrupt || error.kind == .unsupported {
            return nil
        }
        guard manifest.version == (options.sourceLevel ? CacheManifest.currentVersion : CacheManifest.sourcelessVersion),
              manifest.parameters == options, manifest.plan == options.plan else { return nil }
        return manifest
    }

    /// Whether every level file matches its SHA-256 (`--verify`: each is read).
    public static func levelsVerify(_ folder: String, _ manifest: CacheManifest) -> Bool {
        manifest.levels.allSatisfy { (try? levelBytes(folder, $0)) != nil }
    }

    /// Records the source's new identity (its bytes hashed equal: a copy, a restore, a touch, an
    /// object put again): the manifest rewritten atomically, the levels untouched.
    public static func restamp(_ folder: String, _ manifest: CacheManifest, identity: String) throws {
        var manifest = manifest
        manifest.source.identity = identity
        try write(manifest, in: folder)
    }

    /// The manifest, checked for format, version and levels (every level of the plan, but level
    /// 0 in a cache without its source level).
    public static func readManifest(_ folder: String) throws -> CacheManifest {
        guard let bytes = try Storage.readIfPresent(folder + "/" + manifestName) else {
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
            throw CodecError(.unsupported, "cache version \(manifest.version) is not supported (this frost reads 1 to \(CacheManifest.supportedVersions.upperBound))")
        }
        let sourceless = manifest.version >= CacheManifest.sourcelessVersion && !manifest.parameters.sourceLevel
        let expected = manifest.plan.levels.map(\.index).filter { $0 > 0 || !sourceless }
        guard !manifest.levels.isEmpty, manifest.levels.map(\.index) == expected else {
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
}
