import Foundation
import FrostCodecs
import FrostCore
import FrostFiles

/// Builds one cache per input image: `OUTDIR/<relative path>.frost/` (a folder, or a prefix in a
/// bucket). Resumable: a complete cache whose manifest records the source's size and identity as
/// they are now (`etag:…` of an object, `inode:…/mtime:…` of a file) and these options is skipped
/// with nothing read but its manifest. Shardable across workers with no coordination (FileBatch),
/// and a failed input never stops the others.
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
    /// Inputs checked and downloaded ahead of those being built, on threads of their own (for a
    /// bucket, so that transfers overlap the work); 0 reads each when its build starts.
    public var readAhead = 0

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
        FileBatch.run(inputs, jobs: jobs, readAhead: readAhead, prepare: prepare,
                      work: { input, prepared, threads in build(input, prepared, threads: threads) }, progress: progress)
    }

    /// An input made ready to build: its cache found complete, its bytes read, or why it failed.
    enum Prepared: Sendable {
        case complete
        case source(bytes: [UInt8], info: ObjectInfo?)
        case failed(String)
    }

    /// The cache's manifest checked against the source's size and identity (from the bucket's
    /// listing, or the file's status), and only when it does not match, the source read.
    func prepare(_ input: Input) -> Prepared {
        do {
            let destination = try folder(for: input)
            if !force, input.refusal == nil, let known = try input.listed ?? Storage.info(input.path),
               CacheStore.isComplete(destination, source: known, options: options) {
                return .complete
            }
            let (bytes, info) = try input.fetch(maxBytes: decode.maxFileBytes)
            return .source(bytes: bytes, info: info)
        } catch {
            return .failed((error as? CodecError)?.message ?? "\(error)")
        }
    }

    func build(_ input: Input, _ prepared: Prepared, threads: Int) -> Outcome {
        switch prepared {
        case .complete: return .skipped
        case .failed(let reason): return .failed(reason)
        case .source(let bytes, let info):
            do {
                let destination = try folder(for: input)
                let sha = SHA256.hex(bytes)
                // A cache of these very bytes made before manifests kept the source's identity:
                // kept, and its manifest given the identity, so the next rerun reads only that.
                if !force && CacheStore.isComplete(destination, sourceSHA256: sha, options: options) {
                    if let info, var manifest = try? CacheStore.readManifest(destination), manifest.source.identity != info.identity {
                        manifest.source.identity = info.identity
                        try CacheStore.writeManifest(manifest, in: destination)
                    }
                    return .skipped
                }
                try CacheStore.build(source: bytes, named: Storage.lastComponent(input.path), sha256: sha, identity: info?.identity,
                                     into: destination, options: options, decode: decode, threads: threads)
                return .built
            } catch {
                return .failed((error as? CodecError)?.message ?? "\(error)")
            }
        }
    }
}
