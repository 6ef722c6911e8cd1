import Foundation
import FrostCodecs
import FrostCore
import FrostFiles

/// Builds one cache per input image: `OUTDIR/<relative path>.frost/`. Resumable (complete,
/// matching caches are skipped), shardable across workers with no coordination (FileBatch), and
/// a failed input never stops the others.
public struct BatchBuild: Sendable {
    /// One input: its path and the relative path its cache folder mirrors.
    public typealias Input = FileBatch.Input

    /// What became of one input.
    public enum Outcome: Sendable, Equatable {
        /// Its cache was made.
        case built
        /// Its cache was complete and matching already.
        case skipped
        /// It failed, for this reason; the others went on.
        case failed(String)
    }

    /// The images to cache, in order.
    public let inputs: [Input]
    /// The root folder: each input's cache goes to `output/<relative path>.frost/`.
    public let output: String
    /// The same options for every input.
    public let options: CacheOptions
    /// Limits for reading the inputs.
    public var decode = DecodeOptions()
    /// Rebuild caches that are already complete.
    public var force = false
    /// Inputs in flight at once; the cores are divided among them.
    public var jobs = 1

    /// A batch of `inputs` into `output`, one at a time by default.
    public init(inputs: [Input], output: String, options: CacheOptions) {
        self.inputs = inputs
        self.output = output
        self.options = options
    }

    /// `OUTDIR/<relative path>.frost`, refused when that would leave OUTDIR (`FileIO.confined`).
    public func folder(for input: Input) throws -> String { try FileIO.confined(input.relative + ".frost", under: output) }

    /// Builds every input; `progress` is called (serially) after each one with its outcome.
    public func run(progress: @escaping @Sendable (Input, Outcome, _ done: Int) -> Void) -> [Outcome] {
        FileBatch.run(inputs, jobs: jobs, work: { input, threads in build(input, threads: threads) }, progress: progress)
    }

    func build(_ input: Input, threads: Int) -> Outcome {
        do {
            let destination = try folder(for: input)
            let bytes = try input.read(maxBytes: decode.maxFileBytes)
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
