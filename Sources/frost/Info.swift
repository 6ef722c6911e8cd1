import ArgumentParser
import FrostCache
import FrostCodecs
import FrostCore
import FrostColor
import FrostFiles
import Foundation

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print format, size, channels, bit depth, alpha, ICC, EXIF orientation and frames of image files, or a cache folder's levels.",
        discussion: """
        A cache folder (made by frost cache) prints one line for the cache and one per level: σ,
        stored size, factor, margin, bytes, format, and whether the file is sound (inside the folder,
        its SHA-256 as the manifest says, its header the manifest's size in the cache's format, its
        σ and factor the plan's). A broken level is also reported on stderr and the exit status is 1.
        Any other folder is searched: every cache and every image (.png, .jpg, .jpeg, .webp, .avif, .heic, .heif, .gif) under
        it, in name order, so `frost info out/caches` checks a whole batch.
        With --sources (the folder, prefix or list's folder `cache --batch` took the sources from), each
        cache <relative path>.frost (relative to the folder given) is also said to be an orphan when nothing
        is at that relative path there: the cache `cache --batch --prune` removes. A cache named alone is
        looked up by its name, and found or not known, never an orphan (its place under them is not known).
        """)

    @Flag(help: "One JSON object per file.")
    var json = false

    @Argument(help: "Image files (- for standard input), cache folders, or folders of them.")
    var files: [String] = []

    @OptionGroup var lists: InputLists

    @Option(name: .customLong("sources"), help: ArgumentHelp(
        "Where the caches' sources are (what cache --batch was given: a folder, prefix or list's folder): tell the caches whose source is gone. Repeatable.",
        valueName: "ROOT"))
    var sources: [String] = []
    var inputsFrom: [String] { lists.inputsFrom }

    func validate() throws {
        guard !files.isEmpty || !inputsFrom.isEmpty else { throw ValidationError("give an image, a cache folder or --inputs-from") }
    }

    func run() throws {
        var failed = false
        var names = files
        for list in inputsFrom {
            do {
                names += try FileBatch.inputs(fromList: list).map(\.path)
            } catch {
                report(list == "-" ? "<stdin>" : list, error)
                failed = true
            }
        }
        // A folder that cannot be searched, or holds nothing, fails alone; the other names still run.
        let entries = names.flatMap { name in expand(name) ?? { failed = true; return [] }() }
        for (file, relative) in entries {
            do {
                if try isExistingFolder(file) || isObjectFolder(file) {
                    failed = try !showCache(file, relative: relative) || failed
                    continue
                }
                let info = try imageInfo(file)
                print(json ? jsonLine(file, info) : textLine(file, info))
            } catch {
                report(file, error)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    /// Prints a cache folder's report; false when a level is broken or its source's lookup
    /// failed (each reported on stderr). `relative`: its path under the folder named ("": named alone).
    private func showCache(_ folder: String, relative: String) throws -> Bool {
        // A cache prefix named with its slash (`s3://b/c/x.jpg.frost/`): its keys are under it, not under `…//`.
        let folder = ObjectAddress.isObject(folder) && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let check = try CacheCheck(folder: folder)
        let source = sources.isEmpty ? nil
            : CacheInfo.Source(relative.isEmpty ? Storage.lastComponent(folder) : relative, check.manifest, under: sources, namedAlone: relative.isEmpty)
        print(json ? CacheInfo.json(folder, check, source) : CacheInfo.text(folder, check, source))
        for level in check.levels {
            if let problem = level.problem { report(folder, problem) }
        }
        if case .lookedUp(.failed(_, let reason)) = source { report(folder, "its source's lookup failed: \(reason)") }
        return check.isSound && !(source?.failed ?? false)
    }

    /// A file's header, an object's by a ranged GET of its first 256 KiB, which hold every header
    /// chunk of a still PNG and of a JPEG (its segments come before the scan); the whole object
    /// when that does not say all (an animation's frames and durations, AVIF, HEIC, WebP, GIF).
    private func imageInfo(_ file: String) throws -> ImageInfo {
        guard ObjectAddress.isObject(file) else { return try ImageInfo(bytes: try FileIO.readInput(file)) }
        let count = 256 << 10
        let head = try FileIO.readPrefix(file, count: count)
        if head.count < count { return try ImageInfo(bytes: head) }
        if let info = try? ImageInfo(bytes: head), info.format == .jpeg || (info.format == .png && info.frames == 1) { return info }
        return try ImageInfo(bytes: try FileIO.read(file))
    }

    /// Whether `path` names a prefix in a bucket (`s3://b/caches/`) or a cache there.
    private func isObjectFolder(_ path: String) throws -> Bool {
        guard let address = ObjectAddress(path) else { return false }
        // An image's name is an object, never a cache (`x.jpg.frost`): no request to ask.
        return try address.isFolder || (ImageFormat(pathExtension: address.key) == nil && isObjectCache(path))
    }

    /// A file or a cache as given (with its name); a folder (or a bucket's prefix) without a
    /// manifest as the caches and images under it, with their paths under it (a cache's own level
    /// files are its report, not entries of their own).
    private func expand(_ path: String) -> [(path: String, relative: String)]? {
        if let address = ObjectAddress(path) {
            do {
                guard try isObjectFolder(path), try !isObjectCache(path) else { return [(path, "")] }
                let folder = address.isFolder ? address : ObjectAddress(bucket: address.bucket, key: address.key + "/")
                let keys = try Storage.objects(under: folder).map(\.relative)
                let caches = Set(keys.filter { $0.hasSuffix("/" + CacheStore.manifestName) }.map { String($0.dropLast(CacheStore.manifestName.count + 1)) })
                let inCache = { (key: String) in caches.contains { key.hasPrefix($0 + "/") } }
                let found = (Array(caches) + keys.filter { ImageFormat(pathExtension: $0) != nil && !inCache($0) }).sorted()
                guard !found.isEmpty else {
                    report(path, "no caches or images under this prefix")
                    return nil
                }
                return found.map { (folder.description + $0, $0) }
            } catch {
                report(path, error)
                return nil
            }
        }
        guard isExistingFolder(path), !isCache(path) else { return [(path, "")] }
        do {
            let found = try FileBatch.images(under: path, entries: isCache)
            guard !found.isEmpty else {
                report(path, "no caches or images in this folder")
                return nil
            }
            return found.map { (FileIO.joined(path, $0), $0) }
        } catch {
            report(path, error)
            return nil
        }
    }

    private func isCache(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: FileIO.joined(folder, CacheStore.manifestName))
    }

    /// Whether a prefix in a bucket holds a manifest; a HEAD that fails (a 503, a 403) is thrown,
    /// not taken for "no cache" (the path would then be read as an image and fail for another reason).
    private func isObjectCache(_ path: String) throws -> Bool {
        try Storage.info(FileIO.joined(path, CacheStore.manifestName)) != nil
    }

    /// ` ("Adobe RGB (1998)", RGB)` after icc=yes: what the profile says it is; ` (ignored: why)`
    /// for one that cannot describe the pixels.
    private func profileText(_ i: ImageInfo) -> String {
        let cicp = i.cicp.map { " cicp=\($0.primaries)/\($0.transfer)/\($0.matrix)" } ?? ""
        let ignored = i.ignoredProfile.map { " (ignored: \($0))" } ?? ""
        guard let profile = i.iccProfile.flatMap({ try? ColorProfile($0) }) else { return ignored + cicp }
        // A profile the file implies without embedding one (PNG's gAMA and cHRM) is said so.
        let implied = i.hasICCProfile && i.ignoredProfile == nil ? "" : " implied"
        return ignored + "\(implied) (\(jsonString(profile.description)), \(profile.colorSpace))" + cicp
    }

    private func textLine(_ file: String, _ i: ImageInfo) -> String {
        "\(file): \(i.format.rawValue) \(i.width)x\(i.height) \(i.colorModel) channels=\(i.channels) "
            + "depth=\(i.bitDepth) alpha=\(i.hasAlpha ? "yes" : "no") icc=\(i.hasICCProfile ? "yes" : "no")\(profileText(i)) "
            + "orientation=\(i.orientation)\(i.displaySize.width != i.width ? " displayed=\(i.displaySize.width)x\(i.displaySize.height)" : "")\(i.interlaced ? (i.format == .jpeg ? " progressive" : " interlaced") : "")"
            + (i.frames > 1 ? " frames=\(i.frames) duration=\(decimal(i.duration))s loops=\(i.loops == 0 ? "forever" : "\(i.loops)")" : "")
    }

    private func jsonLine(_ file: String, _ i: ImageInfo) -> String {
        let profile = i.iccProfile.flatMap { try? ColorProfile($0) }
        let fields: [(String, String)] = [
            ("file", jsonString(file)), ("format", jsonString(i.format.rawValue)),
            ("width", "\(i.width)"), ("height", "\(i.height)"),
            ("stored_width", "\(i.width)"), ("stored_height", "\(i.height)"),
            ("display_width", "\(i.displaySize.width)"), ("display_height", "\(i.displaySize.height)"), ("channels", "\(i.channels)"),
            ("bit_depth", "\(i.bitDepth)"), ("alpha", "\(i.hasAlpha)"), ("icc", "\(i.hasICCProfile)"),
            ("orientation", "\(i.orientation)"), ("color_model", jsonString(i.colorModel)),
            ("icc_description", profile.map { jsonString($0.description) } ?? "null"),
            ("icc_color_space", profile.map { jsonString($0.colorSpace) } ?? "null"),
            ("icc_ignored", i.ignoredProfile.map(jsonString) ?? "null"),
            ("cicp", i.cicp.map { "[\($0.primaries), \($0.transfer), \($0.matrix)]" } ?? "null"),
            ("interlaced", "\(i.interlaced)"), ("frames", "\(i.frames)"), ("duration", decimal(i.duration)), ("loops", "\(i.loops)"),
        ]
        return jsonObject(fields)
    }
}
