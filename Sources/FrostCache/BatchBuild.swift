import Foundation
import FrostCodecs
@_spi(Kernels) import FrostCore
import FrostFiles

/// Builds one cache per input image: `OUTDIR/<relative path>.frost/` (a folder, or a prefix in a
/// bucket). Resumable and cheap to rerun: a complete cache whose manifest records the source's size
/// and identity as they are now (`ObjectInfo`: `etag:…` of an object, from the listing;
/// `inode:…/mtime:…` of a file, from its status) is skipped with nothing read but its manifest.
/// Shardable across workers with no coordination (FileBatch), and a failed input never stops the
/// others, up to `maxFailures`.
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

    /// Whose a failure is: the input's own (its bytes undecodable, past a limit, its key with no
    /// cache name, the source gone since the listing), which a rerun meets again, or the run's
    /// (the store or the machine: I/O, network, credentials, a write to the output), which a rerun
    /// may not meet: a batch with one of those exits 1, not 3.
    public enum Fault: Sendable, Equatable {
        case input, run

        /// Whose `error` is, met while working on the source at `source`.
        static func of(_ error: any Error, source: String) -> Fault {
            guard let error = error as? CodecError else { return .run }
            switch error.kind {
            case .unknownFormat, .corrupt, .truncated, .unsupported, .tooLarge, .encode: return .input
            // A source object deleted since the listing; any other I/O is the store's or the machine's.
            case .io: return error.file == source && S3Client.answer(in: error)?.status == 404 ? .input : .run
            // Refusals of the input itself are made `.input` where they are met (`prepare`): a
            // refusal from here on is the store's (403) or the credentials'.
            case .refused, .outOfMemory, .stopped: return .run
            }
        }
    }

    /// One input's outcome: what the report records of it.
    public struct Outcome: Sendable, Equatable {
        public var status: Status
        /// Why it failed.
        public var error: String?
        /// Whose failure it was.
        public var fault: Fault?
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
    /// The root folder (or prefix): each input's cache goes to `output/<relative path>.frost/`.
    public let output: String
    /// The same options for every input.
    public let options: CacheOptions
    /// Limits for reading the inputs.
    public var decode = DecodeOptions()
    /// Rebuild caches that are already complete.
    public var force = false
    /// Check a complete cache by hashing its source and every level (a rerun otherwise trusts the
    /// manifest, the source's size and identity and the levels' sizes).
    public var verify = false
    /// Inputs in flight at once; the cores are divided among them.
    public var jobs = 1
    /// Inputs checked and downloaded ahead of those being built, on threads of their own (for a
    /// bucket, so that transfers overlap the work); 0 checks each when its build starts.
    public var readAhead = 0
    /// Once more inputs than this have failed, the rest are not tried (a batch whose every input
    /// fails, such as one writing to a full disk, stops early).
    public var maxFailures = Int.max
    /// Sources from this many pixels are built streamed where they can be (`CacheStore.streamedPixels`).
    public var streamedPixels = CacheStore.streamedPixels
    /// A source that is decoded whole with more pixels than this fails (memory bound).
    public var wholePixels = Int.max
    /// The output's objects and their sizes by path, for an output in a bucket: its listing
    /// (`CacheSweep.objectSizes`), which tells which caches have a manifest to read and each
    /// level's size, so a rerun asks for nothing but manifests, and which objects a cache's upload
    /// replaces, so that it lists nothing again. Nil: each is asked (a file `stat`ed).
    public var listing: [String: Int]? {
        didSet { listedNames = listing.map(Self.namesByFolder) }
    }
    /// The listing's object names by the folder (prefix) holding them.
    private var listedNames: [String: [String]]?

    /// `s3://b/c/a.jpg.frost/level-00.png` → `["s3://b/c/a.jpg.frost": ["level-00.png"]]`.
    private static func namesByFolder(_ listing: [String: Int]) -> [String: [String]] {
        var names: [String: [String]] = [:]
        for path in listing.keys {
            guard let slash = path.lastIndex(of: "/") else { continue }
            names[String(path[..<slash]), default: []].append(String(path[path.index(after: slash)...]))
        }
        return names
    }

    /// A batch of `inputs` into `output`, one at a time by default.
    public init(inputs: [Input], output: String, options: CacheOptions) {
        self.inputs = inputs
        self.output = output
        self.options = options
    }

    /// `OUTDIR/<relative path>.frost`, refused when that would leave OUTDIR (`FileIO.confined`),
    /// or when the input is an object whose key has no cache name of its own (`keyRefusal`).
    public func folder(for input: Input) throws -> String {
        if ObjectAddress.isObject(input.path), let refusal = Self.keyRefusal(ObjectAddress(input.relative)?.key ?? input.relative) {
            throw CodecError(.refused, refusal)
        }
        return try FileIO.confined(input.relative + CacheSweep.suffix, under: output)
    }

    /// Why a key (relative to the catalog's prefix) has no cache name of its own, or nil. Keys are
    /// not paths: `a//b.jpg`, `a/./b.jpg` and `a/b.jpg` are three objects, but a cache name is a
    /// path where they are one, so they would share (and overwrite) one cache, land in different
    /// shards that write one key, and `--prune` would look for the source at the other key. Such a
    /// key fails as that input; every other key maps to its cache and back.
    public static func keyRefusal(_ key: String) -> String? {
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        let odd = segments.contains("") ? "an empty segment (//)" : segments.contains("..") ? "a .. segment" : segments.contains(".") ? "a . segment" : nil
        return odd.map { "its key has \($0), so it has no cache name of its own (keys are not paths)" }
    }

    /// Builds every input; `progress` is called (serially) after each one with its outcome.
    public func run(progress: @escaping @Sendable (Input, Outcome, _ done: Int) -> Void) -> [Outcome] {
        let failures = Locked(0)
        let tooMany: @Sendable () -> Bool = { [maxFailures] in failures.withLock { $0 } > maxFailures }
        return FileBatch.run(inputs, jobs: jobs, readAhead: readAhead, prepare: { input in
            tooMany() ? Prepared(step: .notTried) : prepare(input)
        }, work: { input, prepared, threads in
            let outcome = tooMany() ? Outcome(status: .notTried, output: try? folder(for: input)) : build(input, prepared, threads: threads)
            if outcome.status == .failed { failures.withLock { $0 += 1 } }
            return outcome
        }, progress: progress)
    }

    /// An input made ready to build (by a read-ahead thread, for a bucket's objects): what its
    /// manifest says, and its source as a local file when it is to be read.
    struct Prepared: Sendable {
        enum Step: Sendable {
            /// Its cache is complete: the manifest vouches for the source as it is now.
            case complete
            /// Its source, and a complete cache with these options that the manifest does not
            /// vouch for by identity (another one, the same size; or `verify`): hashed before rebuilding.
            case source(LocalCopy, candidate: CacheManifest?)
            case failed(String, Fault)
            /// Past `maxFailures`: not looked at.
            case notTried
        }
        var step: Step
        /// The source's size (0 when unknown), and the seconds spent so far.
        var bytes = 0
        var seconds = 0.0

        init(step: Step, bytes: Int = 0, since start: UInt64 = DispatchTime.now().uptimeNanoseconds) {
            (self.step, self.bytes, seconds) = (step, bytes, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }

    /// The cache's manifest checked against the source's size and identity (a bucket's listing,
    /// a file's status), and only when it does not vouch for them, the source made ready to read
    /// (a file is itself; an object is downloaded into a temporary file).
    func prepare(_ input: Input) -> Prepared {
        let start = DispatchTime.now().uptimeNanoseconds
        var bytes = input.listed?.size ?? 0
        let destination: String
        do {
            destination = try folder(for: input)
            if let refusal = input.refusal { throw CodecError(.refused, refusal) }
        } catch {
            return Prepared(step: .failed(Self.message(error, source: input.path), .input), since: start)
        }
        do {
            // A file's status costs nothing; an object's comes from the listing (or a HEAD).
            let local = ObjectAddress.isObject(input.path) ? nil : try Storage.localCopy(input.path)
            guard let known = try local?.info ?? input.listed ?? Storage.info(input.path) else {
                throw CodecError(.io, "no such object (404 NoSuchKey)", file: input.path)
            }
            bytes = known.size
            var candidate: CacheManifest?
            if !force, listing == nil || listing?[destination + "/" + CacheStore.manifestName] != nil,
               let manifest = try CacheStore.completeManifest(destination, options: options, sizeOf: size) {
                if !verify && manifest.source.isSource(known) { return Prepared(step: .complete, bytes: bytes, since: start) }
                if verify || manifest.source.bytes == known.size { candidate = manifest }
            }
            let source = try local ?? Storage.localCopy(input.path, maxBytes: decode.maxFileBytes, listed: known)
            return Prepared(step: .source(source, candidate: candidate), bytes: bytes, since: start)
        } catch {
            return Prepared(step: .failed(Self.message(error, source: input.path), .of(error, source: input.path)), bytes: bytes, since: start)
        }
    }

    /// A level file's size: from the listing of a bucket's output, else asked (a file's `stat`,
    /// whose failure fails the input: only a level surely missing has the cache built again).
    private func size(_ path: String) throws -> Int? {
        if let listing { return listing[path] }
        return try Storage.info(path)?.size
    }

    func build(_ input: Input, _ prepared: Prepared, threads: Int) -> Outcome {
        let start = DispatchTime.now().uptimeNanoseconds
        var outcome = attempt(input, prepared, threads: threads)
        outcome.bytes = prepared.bytes
        outcome.seconds = prepared.seconds + Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return outcome
    }

    private func attempt(_ input: Input, _ prepared: Prepared, threads: Int) -> Outcome {
        var outcome = Outcome(status: .built, output: try? folder(for: input))
        do {
            switch prepared.step {
            case .notTried:
                outcome.status = .notTried
            case .complete:
                outcome.status = .skipped
            case .failed(let reason, let fault):
                outcome.status = .failed
                outcome.error = reason
                outcome.fault = fault
            case .source(let source, let candidate):
                let destination = try folder(for: input)
                if let candidate, case .keep(let note) = try reuse(candidate, of: source, at: destination) {
                    outcome.status = .skipped
                    outcome.note = note
                    return outcome
                }
                let manifest = try CacheStore.build(file: source.path, named: Storage.lastComponent(input.path), identity: source.info.identity,
                                                    into: destination, options: options, decode: decode, threads: threads,
                                                    streamedPixels: streamedPixels, wholePixels: wholePixels,
                                                    existing: listedNames.map { $0[destination] ?? [] })
                outcome.note = manifest.flattenedOnto.map { "transparency flattened onto \(Self.hex($0)) (--background chooses)" }
            }
        } catch {
            outcome.status = .failed
            outcome.error = Self.message(error, source: input.path)
            outcome.fault = .of(error, source: input.path)
        }
        return outcome
    }

    /// What a failure of the input at `source` says after `frost: <source>: `: the reason, and
    /// first what was refused or failed when that is another object or file the reason does not
    /// name (a level's PUT).
    static func message(_ error: any Error, source: String) -> String {
        guard let error = error as? CodecError else { return "\(error)" }
        guard let file = error.file, file != source, !error.message.contains(file) else { return error.message }
        return "\(file): \(error.message)"
    }

    private enum Reuse {
        case rebuild
        /// Skipped, with what the report notes.
        case keep(String?)
    }

    /// Whether a complete cache with these options, whose manifest does not vouch for the source
    /// by its identity (or with `verify`), is this source's all the same: by the source's SHA-256
    /// (a file copied, restored or touched, an object put again with the same bytes), and with
    /// `verify` every level's. The same bytes keep the cache, its manifest restamped.
    private func reuse(_ manifest: CacheManifest, of source: LocalCopy, at folder: String) throws -> Reuse {
        guard manifest.source.bytes == source.info.size else { return .rebuild }
        var hash = SHA256()
        try LocalStore.readPieces(source.path, maxBytes: decode.maxFileBytes) { hash.update($0) }
        guard SHA256.hexString(hash.finalize()) == manifest.source.sha256, !verify || CacheStore.levelsVerify(folder, manifest) else { return .rebuild }
        guard manifest.source.identity != source.info.identity else { return .keep(nil) }
        try CacheStore.restamp(folder, manifest, identity: source.info.identity)
        return .keep(manifest.source.identity == nil ? "source identity recorded" : "source identity changed, bytes the same: restamped")
    }

    /// `#rrggbb` (or `#rrggbbaa`), as --background takes it.
    public static func hex(_ color: Color) -> String {
        let channels = [color.red, color.green, color.blue] + (color.alpha < 1 ? [color.alpha] : [])
        return "#" + channels.map { String(format: "%02x", Int(($0 * 255).rounded())) }.joined()
    }
}
