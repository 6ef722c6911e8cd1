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

        /// An input; a `refusal` is the reason it must not be read (a link out of its folder).
        public init(relative: String, path: String, refusal: String? = nil) {
            self.relative = relative
            self.path = path
            self.refusal = refusal
        }

        /// `-`: standard input.
        public static let standardInput = Input(relative: "stdin", path: "-")
        /// True for `-`, standard input.
        public var isStandardInput: Bool { path == "-" }

        /// Bytes on disk (0 for standard input or a file that cannot be read).
        var fileSize: Int {
            var st = stat()
            return !isStandardInput && stat(path, &st) == 0 ? Int(st.st_size) : 0
        }

        /// The bytes of the input (standard input for `-`), refused past `maxBytes`.
        public func read(maxBytes: Int = DecodeOptions.defaultMaxFileBytes) throws -> [UInt8] {
            if let refusal { throw CodecError(.refused, refusal) }
            return try FileIO.readInput(path, maxBytes: maxBytes)
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

    /// The files a list names, one per line (blank lines and # comments skipped), relative to the
    /// list's folder; `-` reads the list from standard input (relative to the working folder).
    /// What an input's output mirrors is its line as written, so a line that climbs out (`../a.jpg`)
    /// or is absolute can feed a pattern output but never a mirrored folder (`FileIO.confined`).
    public static func inputs(fromList list: String) throws -> [Input] {
        let bytes = try FileIO.readInput(list, maxBytes: maximumListBytes)
        if ImageFormat(sniffing: Array(bytes.prefix(16))) != nil {
            throw CodecError(.refused, "an image, not a list of paths")
        }
        let base = list == "-" ? "" : (list as NSString).deletingLastPathComponent
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { line in Input(relative: line, path: FileIO.resolve(line, relativeTo: base)) }
    }

    /// A list longer than this (a million paths or so) is refused before it is read.
    public static let maximumListBytes = 64 << 20

    /// A folder's images (`inputs(inFolder:excluding:skipping:)`) or, for a file, the list it is
    /// (`cache --batch`, whose option names a folder or a list).
    public static func inputs(from source: String, excluding excluded: String? = nil,
                              skipping: (String) -> Bool = { _ in false }) throws -> [Input] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
            throw CodecError(.io, "cannot open: No such file or directory")
        }
        return isFolder.boolValue ? try inputs(inFolder: source, excluding: excluded, skipping: skipping) : try inputs(fromList: source)
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
        inputs.filter { Int(fnv1a(key($0)) % UInt64(n)) == k }
    }

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
        let results = ResultSlots<Outcome>(count: inputs.count)
        let workers = max(1, min(jobs, inputs.count))
        let threadsPerJob = max(1, (threads ?? RowBands.availableThreads) / workers)
        // Largest files first (Graham's LPT rule): one large image started last would run alone
        // while the other workers idle.
        let order = workers == 1 ? Array(inputs.indices) : inputs.indices.map { ($0, inputs[$0].fileSize) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
        RowBands.runEach(inputs.count, threads: workers) { k in
            let i = order[k]
            let outcome = work(inputs[i], threadsPerJob)
            results.set(i, outcome) { done in progress(inputs[i], outcome, done) }
        }
        return results.values
    }
}
