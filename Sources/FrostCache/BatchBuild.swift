import Foundation
import FrostCodecs
import FrostCore

/// Builds one cache per input image: `OUTDIR/<relative path>.frost/`. Resumable (complete,
/// matching caches are skipped), shardable across workers with no coordination, and a failed
/// input never stops the others.
public struct BatchBuild: Sendable {
    public struct Input: Sendable, Equatable {
        /// Path relative to the folder or list it came from (what the output mirrors and shards hash).
        public let relative: String
        public let path: String
    }

    public enum Outcome: Sendable, Equatable {
        case built, skipped
        case failed(String)
    }

    public let inputs: [Input]
    public let output: String
    public let options: CacheOptions
    public var decode = DecodeOptions()
    public var force = false
    public var jobs = 1

    public init(inputs: [Input], output: String, options: CacheOptions) {
        self.inputs = inputs
        self.output = output
        self.options = options
    }

    /// The images under a folder (recursively, .png/.jpg/.jpeg in any case), or the files a list
    /// names (one per line, relative to the list's folder; blank lines and # comments skipped).
    public static func inputs(from source: String) throws -> [Input] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
            throw CodecError(.io, "cannot open: No such file or directory")
        }
        if isFolder.boolValue {
            guard let walker = FileManager.default.enumerator(atPath: source) else { throw CodecError(.io, "cannot read the folder") }
            var found: [Input] = []
            while let relative = walker.nextObject() as? String {
                guard ImageFormat(pathExtension: relative) != nil else { continue }
                found.append(Input(relative: relative, path: source + "/" + relative))
            }
            return found.sorted { $0.relative < $1.relative }
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

    /// Shard K of N (K from 0, like a Kubernetes Indexed Job's JOB_COMPLETION_INDEX): the inputs
    /// whose relative path hashes (FNV-1a, 64-bit) to K modulo N. Every input lands in exactly
    /// one shard, the same one on every machine and run.
    public static func shard(_ inputs: [Input], index k: Int, of n: Int) -> [Input] {
        inputs.filter { Int(fnv1a($0.relative) % UInt64(n)) == k }
    }

    static func fnv1a(_ s: String) -> UInt64 {
        s.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    public func folder(for input: Input) -> String { output + "/" + input.relative + ".frost" }

    /// Builds every input; `progress` is called (serially) after each one with its outcome.
    public func run(progress: @escaping @Sendable (Input, Outcome, _ done: Int) -> Void) -> [Outcome] {
        let total = inputs.count
        let results = ResultSlots<Outcome>(count: total)
        let workers = max(1, min(jobs, total))
        let threadsPerJob = max(1, RowBands.availableThreads / workers)
        RowBands.runEach(total, threads: workers) { i in
            let input = inputs[i]
            let outcome = build(input, threads: threadsPerJob)
            results.set(i, outcome) { done in progress(input, outcome, done) }
        }
        return results.values
    }

    func build(_ input: Input, threads: Int) -> Outcome {
        do {
            let destination = folder(for: input)
            let bytes = try FileIO.read(input.path)
            let sha = SHA256.hex(bytes)
            if !force && CacheStore.isComplete(destination, sourceSHA256: sha, options: options) { return .skipped }
            try CacheStore.build(source: bytes, named: (input.path as NSString).lastPathComponent, sha256: sha,
                                 into: destination, options: options, decode: decode, threads: threads)
            return .built
        } catch {
            return .failed((error as? CodecError)?.message ?? "\(error)")
        }
    }
}
