import Foundation
import FrostCore

/// The many-file mechanism every batch command shares (`cache --batch`, the filters, `run`):
/// inputs gathered from files, folders and lists, sharded across machines, processed `jobs` at a
/// time, each input's outcome reported as it finishes; a failed input never stops the others.
public enum FileBatch {
    public struct Input: Sendable, Equatable {
        /// Path relative to the folder or list it came from (what outputs mirror and shards hash);
        /// the file's name for a file given by itself.
        public let relative: String
        public let path: String

        public init(relative: String, path: String) {
            self.relative = relative
            self.path = path
        }

        /// `-`: standard input.
        public static let standardInput = Input(relative: "stdin", path: "-")
        public var isStandardInput: Bool { path == "-" }

        /// Bytes on disk (0 for standard input or a file that cannot be read).
        var fileSize: Int {
            var st = stat()
            return !isStandardInput && stat(path, &st) == 0 ? Int(st.st_size) : 0
        }

        /// The bytes of the input (standard input for `-`).
        public func read() throws -> [UInt8] {
            isStandardInput ? try FileIO.readStandardInput() : try FileIO.read(path)
        }
    }

    /// The images under a folder (recursively, .png/.jpg/.jpeg/.webp in any case), or the files a
    /// list names (one per line, relative to the list's folder; blank lines and # comments skipped).
    public static func inputs(from source: String) throws -> [Input] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
            throw CodecError(.io, "cannot open: No such file or directory")
        }
        if isFolder.boolValue {
            return try images(under: source).map { Input(relative: $0, path: source + "/" + $0) }
        }
        let text = String(decoding: try FileIO.read(source), as: UTF8.self)
        let base = (source as NSString).deletingLastPathComponent
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { line in
                let path = line.hasPrefix("/") || base.isEmpty ? line : base + "/" + line
                let relative = line.hasPrefix("/") ? String(line.drop(while: { $0 == "/" })) : line
                return Input(relative: relative, path: path)
            }
    }

    /// The images under a folder, recursively (.png/.jpg/.jpeg/.webp in any case), as paths relative
    /// to it in name order. A subfolder `isEntry` accepts (given its full path) is listed itself and
    /// not entered: `frost info` lists a cache folder that way.
    public static func images(under folder: String, entries isEntry: (String) -> Bool = { _ in false }) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { throw CodecError(.io, "cannot read the folder") }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory, isEntry(folder + "/" + relative) {
                found.append(relative)
                walker.skipDescendants()
            } else if ImageFormat(pathExtension: relative) != nil {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// The inputs a command line names: `-` is standard input; a name ending in an image extension
    /// is an image (a missing or broken one fails as that input); a folder gives its images; any
    /// other existing file is an image if its content says so and a list otherwise.
    public static func inputs(fromArguments arguments: [String]) throws -> [Input] {
        try arguments.flatMap { argument -> [Input] in
            if argument == "-" { return [.standardInput] }
            let single = [Input(relative: (argument as NSString).lastPathComponent, path: argument)]
            if ImageFormat(pathExtension: argument) != nil { return single }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else { return single }
            if !isFolder.boolValue, let head = try? FileIO.readPrefix(argument, count: 12), ImageFormat(sniffing: head) != nil {
                return single
            }
            return try inputs(from: argument)
        }
    }

    /// Shard K of N (K from 0, like a Kubernetes Indexed Job's JOB_COMPLETION_INDEX): the inputs
    /// whose relative path hashes (FNV-1a, 64-bit) to K modulo N. Every input lands in exactly
    /// one shard, the same one on every machine and run.
    public static func shard(_ inputs: [Input], index k: Int, of n: Int) -> [Input] {
        inputs.filter { Int(fnv1a($0.relative) % UInt64(n)) == k }
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
