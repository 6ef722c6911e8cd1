import Foundation
import FrostCodecs
@_spi(Kernels) import FrostCore
import FrostFiles

/// Builds one cache per input image: `OUTDIR/<relative path>.frost/`. Resumable and cheap to
/// rerun (a complete cache whose manifest records the source's size and identity is skipped
/// without reading the source or a level: `SourceStamp`), shardable across workers with no
/// coordination (FileBatch), and a failed input never stops the others, up to `maxFailures`.
public struct BatchBuild: Sendable {
    /// One input: its path and the relative path its cache folder mirrors.
    public typealias Input = FileBatch.Input

    /// What became of one input.
    public enum Status: String, Sendable, Equatable {
        /// Its cache was made.
        case built
        /// Its cache was complete and matching already.
        case skipped
        /// It failed; the others went on.
        case failed
        /// It was not tried: more than `maxFailures` inputs had failed.
        case notTried = "not-tried"
    }

    /// One input's outcome: what the report records of it.
    public struct Outcome: Sendable, Equatable {
        public var status: Status
        /// Why it failed.
        public var error: String?
        /// What else happened (its transparency flattened, its source found renamed).
        public var note: String?
        /// Its cache folder, nil when the input's path cannot have one.
        public var output: String?
        /// The source's size in bytes (0 when it could not be read).
        public var bytes = 0
        /// Seconds spent on it.
        public var seconds = 0.0
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
    /// Check a complete cache by hashing its source and every level (a rerun otherwise trusts the
    /// manifest, the source's stamp and the levels' sizes).
    public var verify = false
    /// Inputs in flight at once; the cores are divided among them.
    public var jobs = 1
    /// Once more inputs than this have failed, the rest are not tried (a batch whose every input
    /// fails, such as one writing to a full disk, stops early).
    public var maxFailures = Int.max
    /// Sources from this many pixels are built streamed where they can be (`CacheStore.streamedPixels`).
    public var streamedPixels = CacheStore.streamedPixels
    /// A source that is decoded whole with more pixels than this fails (memory bound).
    public var wholePixels = Int.max

    /// A batch of `inputs` into `output`, one at a time by default.
    public init(inputs: [Input], output: String, options: CacheOptions) {
        self.inputs = inputs
        self.output = output
        self.options = options
    }

    /// `OUTDIR/<relative path>.frost`, refused when that would leave OUTDIR (`FileIO.confined`).
    public func folder(for input: Input) throws -> String {
        try FileIO.confined(input.relative + CacheSweep.suffix, under: output)
    }

    /// Builds every input; `progress` is called (serially) after each one with its outcome.
    public func run(progress: @escaping @Sendable (Input, Outcome, _ done: Int) -> Void) -> [Outcome] {
        let failures = Locked(0)
        return FileBatch.run(inputs, jobs: jobs, work: { input, threads in
            guard failures.withLock({ $0 }) <= maxFailures else { return Outcome(status: .notTried, output: try? folder(for: input)) }
            let outcome = build(input, threads: threads)
            if outcome.status == .failed { failures.withLock { $0 += 1 } }
            return outcome
        }, progress: progress)
    }

    func build(_ input: Input, threads: Int) -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome = attempt(input, threads: threads)
        outcome.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return outcome
    }

    private func attempt(_ input: Input, threads: Int) -> Outcome {
        var outcome = Outcome(status: .built, output: try? folder(for: input))
        do {
            let destination = try folder(for: input)
            if let refusal = input.refusal { throw CodecError(.refused, refusal) }
            let stamp = try SourceStamp(file: input.path)
            outcome.bytes = stamp.bytes
            if !force, let manifest = CacheStore.completeManifest(destination, options: options),
               case .keep(let note) = try reuse(manifest, of: input, at: destination, stamp: stamp) {
                outcome.status = .skipped
                outcome.note = note
                return outcome
            }
            let manifest = try CacheStore.build(file: input.path, into: destination, options: options, decode: decode, threads: threads,
                                                streamedPixels: streamedPixels, wholePixels: wholePixels)
            outcome.note = manifest.flattenedOnto.map { "transparency flattened onto \(Self.hex($0)) (--background chooses)" }
            return outcome
        } catch {
            outcome.status = .failed
            outcome.error = (error as? CodecError)?.message ?? "\(error)"
            return outcome
        }
    }

    private enum Reuse {
        case rebuild
        /// Skipped, with what the report notes.
        case keep(String?)
    }

    /// Whether a complete cache with these options is this source's: by its stamp (nothing read),
    /// or with `verify` by the source's and every level's SHA-256. A source whose stamp changed but
    /// not its size (copied, restored, touched) is hashed: the same bytes keep the cache, its
    /// manifest restamped.
    private func reuse(_ manifest: CacheManifest, of input: Input, at folder: String, stamp: SourceStamp) throws -> Reuse {
        if !verify && stamp.matches(manifest.source) { return .keep(nil) }
        guard manifest.source.bytes == stamp.bytes else { return .rebuild }
        var hash = SHA256()
        try FileIO.readPieces(input.path, maxBytes: decode.maxFileBytes) { hash.update($0) }
        guard hash.hexDigest() == manifest.source.sha256, !verify || CacheStore.levelsVerify(folder, manifest) else { return .rebuild }
        guard manifest.source.identity != stamp.identity else { return .keep(nil) }
        try CacheStore.restamp(folder, manifest, stamp)
        return .keep(manifest.source.identity == nil ? "source stamp recorded" : "source stamp changed, bytes the same: restamped")
    }

    /// `#rrggbb` (or `#rrggbbaa`), as --background takes it.
    public static func hex(_ color: Color) -> String {
        let channels = [color.red, color.green, color.blue] + (color.alpha < 1 ? [color.alpha] : [])
        return "#" + channels.map { String(format: "%02x", Int(($0 * 255).rounded())) }.joined()
    }
}
