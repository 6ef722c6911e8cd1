import Foundation
import FrostCodecs
import FrostCore
import FrostFiles

/// Builds one cache per input image: `OUTDIR/<relative path>.frost/`. Resumable (complete,
/// matching caches are skipped), shardable across workers with no coordination (FileBatch), and
/// a failed input never stops the others.
public struct BatchBuild: Sendable {
    public typealias Input = FileBatch.Input

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
