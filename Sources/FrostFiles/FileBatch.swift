import Foundation
import FrostCodecs
@_spi(Kernels) import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// The many-file mechanism every batch command shares (`cache --batch`, the filters, `run`):
/// inputs gathered from files, folders and lists, sharded across machines, processed `jobs` at a
/// time, each input's outcome reported as it finishes; a failed input never stops the others.
public enum FileBatch {
    /// One file of a batch.
    public struct Input: Sendable, Equatable {
        /// Path relative to the folder or list it came from (what outputs mirror and shards hash);
        /// the file's name for a file given by itself.
        public let relative: String
        /// The path to read (`-` for standard input).
        public let path: String
        /// Why the input is refused before anything is read (a link out of its folder), or nil.
        public let refusal: String?
        /// What a bucket's listing said of the object (its size and ETag), nil when it was not
        /// listed: a batch checks its size limit and its cache from it, with no request of its own.
        public let listed: ObjectInfo?

        /// An input; a `refusal` is the reason it must not be read (a link out of its folder).
        public init(relative: String, path: String, refusal: String? = nil, listed: ObjectInfo? = nil) {
            self.relative = relative
            self.path = path
            self.refusal = refusal
            self.listed = listed
        }

        /// `-`: standard input.
        public static let standardInput = Input(relative: "stdin", path: "-")
        /// True for `-`, standard input.
        public var isStandardInput: Bool { path == "-" }

        /// Bytes on disk or in the bucket (0 for standard input or a file that cannot be read).
        var fileSize: Int {
            var st = stat()
            return listed?.size ?? (!isStandardInput && stat(path, &st) == 0 ? Int(st.st_size) : 0)
        }

        /// The bytes of the input (standard input for `-`), refused past `maxBytes`.
        public func read(maxBytes: Int = DecodeOptions.defaultMaxFileBytes) throws -> [UInt8] {
            try fetch(maxBytes: maxBytes).bytes
        }

        /// The bytes and what was read (size and identity; nil for standard input), refused past
        /// `maxBytes` before the download (an object's size from its listing or its HEAD).
        public func fetch(maxBytes: Int = DecodeOptions.defaultMaxFileBytes) throws -> (bytes: [UInt8], info: ObjectInfo?) {
            if let refusal { throw CodecError(.refused, refusal) }
            if isStandardInput { return (try FileIO.readStandardInput(maxBytes: maxBytes), nil) }
            let fetched = try Storage.fetch(path, maxBytes: maxBytes, listed: listed)
            return (fetched.bytes, fetched.info)
        }
    }

    /// The inputs a command line names. `-` is standard input; a folder gives the images under it;
    /// anything else is one image, whatever its name or content (a file that is not an image fails
    /// as that input when it is decoded). A file's bytes never name other files: lists of paths are
    /// read only through `inputs(fromList:)` (`--inputs-from`). A folder walk does not enter
    /// `excluded` (the output folder, so that a second run does not take the first one's outputs
    /// for inputs).
    public static func inputs(fromArguments arguments: [String], excluding excluded: String? = nil) throws -> [Input] {
        try arguments.flatMap { argument -> [Input] in
            if argument == "-" { return [.standardInput] }
            if let address = ObjectAddress(argument) { return try inputs(at: address, excluding: excluded) }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
                return try inputs(inFolder: argument, excluding: excluded)
            }
            return [Input(relative: (argument as NSString).lastPathComponent, path: argument)]
        }
    }

    /// The images under a folder, recursively (.png/.jpg/.jpeg/.webp/.avif/.heic/.heif/.gif in any case). Symbolic links
    /// are not followed out of it: a link whose target lies outside the folder is an input refused
    /// with that reason; a link to a file inside it is read; a link to a folder inside it is not
    /// entered (its images are listed where they really are). Nor is `excluded`, if it lies inside,
    /// nor a folder `skipping` accepts (given its path: a blur cache, whose levels are not inputs).
    public static func inputs(inFolder folder: String, excluding excluded: String? = nil,
                              skipping: (String) -> Bool = { _ in false }) throws -> [Input] {
        let root = FileIO.realPath(folder) ?? folder
        let skipped = excluded.flatMap(FileIO.realPath)
        var found: [Input] = []
        for entry in try walk(folder, skipping: { path in skipping(path) || skipped != nil && FileIO.realPath(path) == skipped }) {
            let path = FileIO.joined(folder, entry.relative)
            guard entry.isLink else {
                found.append(Input(relative: entry.relative, path: path))
                continue
            }
            guard let target = FileIO.realPath(path) else {
                found.append(Input(relative: entry.relative, path: path, refusal: "a symbolic link to nothing"))
                continue
            }
            guard FileIO.isInside(target, root) else {
                found.append(Input(relative: entry.relative, path: path, refusal: "a symbolic link out of \(folder) (not followed)"))
                continue
            }
            var targetIsFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target, isDirectory: &targetIsFolder), !targetIsFolder.boolValue,
               ImageFormat(pathExtension: entry.relative) != nil {
                found.append(Input(relative: entry.relative, path: path))
            }
        }
        return found
    }

    /// An object (`s3://b/photos/a.jpg`) or the images under a prefix (`s3://b/photos/`, or
    /// `s3://b/photos` when no object has that key), listed with ListObjectsV2: as a folder walk,
    /// objects without an image's extension are skipped, and so are keys under `excluded` and
    /// under a "folder" `skipping` accepts (given its `s3://` path: a blur cache's prefix).
    static func inputs(at address: ObjectAddress, excluding excluded: String? = nil,
                       skipping: (String) -> Bool = { _ in false }) throws -> [Input] {
        if !address.isFolder, let info = try Storage.info(address.description) {
            return [Input(relative: Storage.lastComponent(address.description), path: address.description, listed: info)]
        }
        let folder = address.isFolder ? address : ObjectAddress(bucket: address.bucket, key: address.key + "/")
        let skipped = excluded.flatMap(ObjectAddress.init).flatMap { $0.bucket == folder.bucket ? ($0.isFolder ? $0.key : $0.key + "/") : nil }
        var skippedFolders: [Substring: Bool] = [:]
        let found = try Storage.objects(under: folder).filter { entry in
            guard ImageFormat(pathExtension: entry.relative) != nil, !(skipped.map { (folder.key + entry.relative).hasPrefix($0) } ?? false) else { return false }
            // Each folder on the way, as a folder walk would meet it.
            var end = entry.relative.startIndex
            while let slash = entry.relative[end...].firstIndex(of: "/") {
                let part = entry.relative[..<slash]
                let skip = skippedFolders[part] ?? skipping(folder.description + part)
                skippedFolders[part] = skip
                if skip { return false }
                end = entry.relative.index(after: slash)
            }
            return true
        }
        if found.isEmpty, !address.isFolder { throw CodecError(.io, "no such object, nor images under \(folder) (404)") }
        return found.map { Input(relative: $0.relative, path: folder.description + $0.relative, listed: $0.info) }
    }

    /// The files a list names, one per line (blank lines and # comments skipped), relative to the
    /// list's folder; `-` reads the list from standard input (relative to the working folder).
    /// What an input's output mirrors is its line as written, so a line that climbs out (`../a.jpg`)
    /// or is absolute can feed a pattern output but never a mirrored folder (`FileIO.confined`).
    public static func inputs(fromList list: String) throws -> [Input] {
        let bytes = try FileIO.readInput(list, maxBytes: maximumListBytes)
        if ImageFormat(sniffing: Array(bytes.prefix(16))) != nil {
            throw CodecError(.refused, "an image, not a list of paths")
        }
        let base = list == "-" ? "" : Storage.parent(of: list)
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { line in Input(relative: line, path: FileIO.resolve(line, relativeTo: base)) }
    }

    /// A list longer than this (a million paths or so) is refused before it is read.
    public static let maximumListBytes = 64 << 20

    /// A folder's (or a bucket prefix's) images (`inputs(inFolder:excluding:skipping:)`) or, for a
    /// file (an object), the list it is (`cache --batch`, whose option names a folder or a list).
    public static func inputs(from source: String, excluding excluded: String? = nil,
                              skipping: (String) -> Bool = { _ in false }) throws -> [Input] {
        try gather(from: source, excluding: excluded, skipping: skipping).inputs
    }

    /// The same, and the folder the inputs' relative paths are relative to: the folder or prefix
    /// itself, or the list's folder (where a batch looks for the source of a cache it has no input for).
    public static func gather(from source: String, excluding excluded: String? = nil,
                              skipping: (String) -> Bool = { _ in false }) throws -> (inputs: [Input], root: String) {
        if let address = ObjectAddress(source) {
            // A list object is read as a list; anything else names a prefix.
            if !address.isFolder, try Storage.info(source) != nil { return (try inputs(fromList: source), Storage.parent(of: source)) }
            return (try inputs(at: address, excluding: excluded, skipping: skipping), source)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
            throw CodecError(.io, "cannot open: No such file or directory")
        }
        return isFolder.boolValue ? (try inputs(inFolder: source, excluding: excluded, skipping: skipping), source)
            : (try inputs(fromList: source), Storage.parent(of: source))
    }

    /// The images under a folder, recursively (.png/.jpg/.jpeg/.webp/.avif/.heic/.heif/.gif in any case), as paths relative
    /// to it in name order (links with an image's name included, as `ls` shows them). A subfolder
    /// `isEntry` accepts (given its full path) is listed itself and not entered: `frost info` lists
    /// a cache folder that way.
    public static func images(under folder: String, entries isEntry: (String) -> Bool = { _ in false }) throws -> [String] {
        try walk(folder, entries: isEntry).filter { !$0.isLink || ImageFormat(pathExtension: $0.relative) != nil }.map(\.relative)
    }

    private struct Entry {
        let relative: String
        let isLink: Bool
    }

    /// Entries with an image's extension, folders `isEntry` accepts, and every symbolic link, in
    /// name order; folders `skipping` accepts are not entered. Foundation's walk does not follow
    /// links (fts with FTS_PHYSICAL).
    private static func walk(_ folder: String, entries isEntry: (String) -> Bool = { _ in false },
                             skipping: (String) -> Bool = { _ in false }) throws -> [Entry] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { throw CodecError(.io, "cannot read the folder") }
        var found: [Entry] = []
        while let relative = walker.nextObject() as? String {
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            if type == .typeSymbolicLink {
                found.append(Entry(relative: relative, isLink: true))
            } else if type == .typeDirectory, isEntry(folder + "/" + relative) {
                found.append(Entry(relative: relative, isLink: false))
                walker.skipDescendants()
            } else if type == .typeDirectory, skipping(folder + "/" + relative) {
                walker.skipDescendants()
            } else if ImageFormat(pathExtension: relative) != nil {
                found.append(Entry(relative: relative, isLink: false))
            }
        }
        return found.sorted { $0.relative < $1.relative }
    }

    /// Shard K of N (K from 0, like a Kubernetes Indexed Job's JOB_COMPLETION_INDEX): the inputs
    /// whose `key` (by default the relative path) hashes (FNV-1a, 64-bit) to K modulo N. Every
    /// input lands in exactly one shard, the same one on every machine and run; inputs with one
    /// key (two that would write one output) land in the same shard.
    public static func shard(_ inputs: [Input], index k: Int, of n: Int, key: (Input) -> String = \.relative) -> [Input] {
        inputs.filter { shard(of: key($0), count: n) == k }
    }

    /// The shard (of `n`) an input with this key falls in.
    public static func shard(of key: String, count n: Int) -> Int { Int(fnv1a(key) % UInt64(n)) }

    static func fnv1a(_ s: String) -> UInt64 {
        s.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    /// Runs `work` on every input, `jobs` at a time, each with its share of the cores;
    /// `progress` is called serially after each input with its outcome and the count done.
    public static func run<Outcome: Sendable>(
        _ inputs: [Input], jobs: Int, threads: Int? = nil,
        work: @Sendable (Input, _ threads: Int) -> Outcome,
        progress: @escaping @Sendable (Input, Outcome, _ done: Int) -> Void
    ) -> [Outcome] {
        run(inputs, jobs: jobs, threads: threads, readAhead: 0, prepare: { _ in () }, work: { input, _, threads in work(input, threads) },
            progress: progress)
    }

    /// The same, each input first `prepare`d (downloaded, its cache checked): with `readAhead` > 0
    /// on that many threads of their own, up to `readAhead` inputs beyond those being worked on,
    /// so that transfers overlap the work; with 0, by the worker itself. `prepare` takes no
    /// thread of the compute budget: it waits on the network, not the cores.
    public static func run<Prepared: Sendable, Outcome: Sendable>(
        _ inputs: [Input], jobs: Int, threads: Int? = nil, readAhead: Int,
        prepare: @escaping @Sendable (Input) -> Prepared,
        work: @Sendable (Input, Prepared, _ threads: Int) -> Outcome,
        progress: @escaping @Sendable (Input, Outcome, _ done: Int) -> Void
    ) -> [Outcome] {
        let results = ResultSlots<Outcome>(count: inputs.count)
        let workers = max(1, min(jobs, inputs.count))
        let threadsPerJob = max(1, (threads ?? RowBands.availableThreads) / workers)
        // Largest files first (Graham's LPT rule): one large image started last would run alone
        // while the other workers idle.
        let order = workers == 1 ? Array(inputs.indices) : inputs.indices.map { ($0, inputs[$0].fileSize) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
        let ahead = readAhead > 0 && inputs.count > 0
            ? ReadAhead(count: inputs.count, window: workers + readAhead, threads: min(readAhead, inputs.count)) { prepare(inputs[order[$0]]) }
            : nil
        RowBands.runEach(inputs.count, threads: workers) { k in
            let i = order[k]
            let prepared = ahead?.take(k) ?? prepare(inputs[i])
            let outcome = work(inputs[i], prepared, threadsPerJob)
            results.set(i, outcome) { done in progress(inputs[i], outcome, done) }
        }
        return results.values
    }
}

/// Items made ahead of their use, in order, by threads of their own: item k is made once every
/// item before k - window has been taken, so at most `window` wait made (a batch's downloads in
/// memory). `take(k)` waits for item k.
private final class ReadAhead<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var made: [Item?]
    private var next = 0, taken = 0

    init(count: Int, window: Int, threads: Int, make: @escaping @Sendable (Int) -> Item) {
        made = Array(repeating: nil, count: count)
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in
                while let k = claim(window: window) {
                    let item = make(k)
                    condition.lock()
                    made[k] = item
                    condition.broadcast()
                    condition.unlock()
                }
            }
        }
    }

    /// The next item to make, once it is within the window; nil when all are claimed.
    private func claim(window: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while next < made.count && next >= taken + window { condition.wait() }
        guard next < made.count else { return nil }
        next += 1
        return next - 1
    }

    func take(_ k: Int) -> Item {
        condition.lock()
        defer { condition.unlock() }
        while made[k] == nil { condition.wait() }
        let item = made[k]!
        made[k] = nil
        taken += 1
        condition.broadcast()
        return item
    }
}
