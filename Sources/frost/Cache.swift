import ArgumentParser
import Dispatch
import FrostCache
import FrostCodecs
import FrostColor
@_spi(Kernels) import FrostCore
import Foundation
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Pre-render N blur levels of an image (or, with --batch, of every image in a folder or list).",
        discussion: """
        Writes DIR/level-NN.png (or .jpg, .webp) and DIR/manifest.json (written last), built beside DIR and swapped in. \
        Levels 1…N grow geometrically (neighbouring σ ratio ≤ 1.5) up to --max-sigma (default 40) or --max-radius; \
        --spacing linear with --max-radius renders with ImageEffects itself, as Twitter did. With --batch or \
        --inputs-from, every input gets OUTDIR/<relative path>.frost/; a complete cache whose manifest records the \
        source's size and identity (inode and modification time; an object's ETag) is skipped without reading anything \
        else, so an interrupted run resumes and a rerun reads almost nothing. Inputs, lists, OUTDIR and the report can \
        be in a bucket: s3://BUCKET/PREFIX/ (docs/storage.md).

        Exit status of a batch: 0 when every input has its cache, 3 when it finished but some inputs failed by their own \
        bytes (each reported as 'frost: <file>: <reason>'; see --report), 1 when it could not run, an input failed by the \
        store or the machine (I/O, network, credentials, a write refused), a source --prune could not look up, or more \
        than --max-failures failed, 64 for a command line that cannot be understood.
        """)

    @Argument(help: "Input image (omit with --batch).")
    var input: String?

    @Option(name: .customShort("o"), help: "Cache folder (with --batch: the output root).")
    var output: String

    @Option(help: "A folder of images, or a text file listing one image path per line.")
    var batch: String?

    @Option(name: .customLong("inputs-from"), help: ArgumentHelp(
        "Also cache the images a text file lists, one path per line (relative to the list's folder; - reads the list from standard input). Repeatable.",
        valueName: "LIST"))
    var inputsFrom: [String] = []

    // The blur's limits are the specification's, shared with motion scenes and Swift callers.
    static let levelsRange = OptionRange(BlurCacheSpec.levelsRange)
    static let maxRadiusRange = OptionRange(0, BlurCacheSpec.maxRadiusLimit, excludingLower: true)
    static let maxSigmaRange = OptionRange(BlurCacheSpec.maxSigmaRange)
    static let saturationRange = OptionRange(BlurCacheSpec.saturationRange)

    @Option(parsing: .unconditional, help: "Levels above the source, \(levelsRange).")
    var levels: Int = 10

    @Option(parsing: .unconditional, help: "Largest blur as an ImageEffects radius in points (× --scale), \(maxRadiusRange).")
    var maxRadius: Double?

    @Option(parsing: .unconditional, help: "Largest blur as a gaussian sigma in pixels, \(maxSigmaRange).")
    var maxSigma: Double?

    @Option(help: "geometric (default) or linear.")
    var spacing: CachePlan.Spacing = .geometric

    @Option(help: ArgumentHelp("Tint drawn over each level: \(colorHelp).", valueName: "color"))
    var tint: Color?

    @Option(parsing: .unconditional, help: "Saturation delta factor for each level, \(Self.saturationRange) (1 leaves color alone).")
    var saturation: Double = 1

    @Flag(help: "Grow tint and saturation with the level, so level 0 stays the source.")
    var ramp = false

    @Option(parsing: .unconditional, help: "Pixels per point for --max-radius, \(EffectStep.scaleRange).")
    var scale: Double = 1

    @Option(help: "twitter (11 banners, radius 30·i/10, white α0.2, saturation 1.5) or secret (radius 12, white 0.8 α0.4, saturation 1.8).")
    var preset: BlurCacheSpec.Preset?

    /// The formats a cache's levels are written in: those its page and clients are measured with
    /// (docs/cache-format.md).
    enum LevelFormat: String, ExpressibleByArgument, CaseIterable {
        case png, jpg, webp

        var imageFormat: ImageFormat { ImageFormat(name: rawValue)! }
    }

    @Option(help: "Level file format: png (default), jpg or webp.")
    var format: LevelFormat?

    @Option(parsing: .unconditional, help: "JPEG quality \(EncodeFlags.qualityRange) (default 90); for webp, lossy at this quality (default lossless, \(CacheOptions.webQuality) with --web). Not for png.")
    var quality: Int?

    @Flag(help: "Store every level at full size instead of the coarsest size its blur allows.")
    var fullSize = false

    @Flag(help: "Levels for apps and browsers: lossy WebP (quality \(CacheOptions.webQuality) or --quality), no source level, file names that change with their content (a CDN may keep them for ever).")
    var web = false

    @Flag(name: .customLong("no-source-level"), help: "Do not store level 0, the source itself (the app has it): a version 3 cache.")
    var noSourceLevel = false

    @Flag(help: "Name each level file after its content (level-03-<8 hex digits of its SHA-256>.png).")
    var contentNames = false

    @Option(help: ArgumentHelp("What a transparent source is flattened onto before its levels are made (default: kept, but in jpg levels onto white): \(colorHelp).", valueName: "color"))
    var background: Color?

    @OptionGroup(title: "With --batch") var batchFlags: BatchFlags

    @Option(help: ArgumentHelp("Leave out inputs whose relative path (with a /) or any of whose names (without) match this shell glob; ._* and .DS_Store are always left out. Repeatable.", valueName: "glob"))
    var exclude: [String] = []

    @Option(name: .customLong("report"), help: ArgumentHelp("Write a JSON line per input (source, output, status, error, bytes, time) to this file or s3:// object, in place at the end.", valueName: "file"))
    var reportFile: String?

    @Flag(help: "Print each input's report line and then the summary as JSON on standard output.")
    var json = false

    @Flag(help: "No progress bar or line per input on standard error (failures and the summary still).")
    var quiet = false

    @Option(help: ArgumentHelp("Stop trying inputs once more than N have failed (a count, or a share: 0.01 or 1%), and exit 1; default: never.", valueName: "N"))
    var maxFailures: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse a source of more than N pixels that is decoded whole (WebP, AVIF, HEIC, GIF, PNG with alpha, a JPEG turned by its EXIF orientation: about 36 bytes a pixel; a JPEG or opaque PNG from \(CacheStore.streamedPixels) pixels up is streamed in 3): a batch's memory bound.", valueName: "N"))
    var maxWholePixels: Int?

    @Flag(help: "Remove the caches (of this shard) whose source is gone; without it they are counted in the summary.")
    var prune = false

    @Flag(help: "Check a complete cache by hashing its source and every level before skipping it (by default its manifest, the source's size and identity and the levels' sizes decide).")
    var verify = false

    @Flag(help: "Rebuild caches that are already complete.")
    var force = false

    @OptionGroup var color: ColorFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var threads: ThreadsFlag

    /// Whether the inputs are many: a folder or lists, each into OUTDIR/<relative path>.frost/.
    var isBatch: Bool { batch != nil || !inputsFrom.isEmpty }

    /// The level files' format: --format, else webp with --web, else png.
    var levelFormat: LevelFormat { format ?? (web ? .webp : .png) }

    func validate() throws {
        guard (input == nil) == isBatch else { throw ValidationError("give an input image, or --batch or --inputs-from, not both") }
        try Self.levelsRange.check(levels, "--levels")
        guard maxRadius == nil || maxSigma == nil else { throw ValidationError("give --max-radius or --max-sigma, not both") }
        try Self.maxSigmaRange.check(maxSigma, "--max-sigma")
        try Self.maxRadiusRange.check(maxRadius, "--max-radius")
        try EncodeFlags.qualityRange.check(quality, "--quality")
        if quality != nil, levelFormat == .png { throw ValidationError("--quality does not apply to png levels") }
        if web, levelFormat != .webp { throw ValidationError("--web writes webp levels: drop --format \(levelFormat.rawValue)") }
        try EffectStep.scaleRange.check(scale, "--scale")
        try Self.saturationRange.check(saturation, "--saturation")
        if !isBatch {
            let given = [("--shard", batchFlags.shard != nil), ("--jobs", batchFlags.chosenJobs != nil), ("--exclude", !exclude.isEmpty),
                         ("--report", reportFile != nil), ("--json", json), ("--quiet", quiet), ("--max-failures", maxFailures != nil),
                         ("--prune", prune), ("--verify", verify), ("--max-whole-pixels", maxWholePixels != nil)]
            if let flag = given.first(where: \.1) { throw ValidationError("\(flag.0) needs --batch or --inputs-from") }
        }
        if let maxFailures { _ = try Self.failureLimit(maxFailures, of: 1) }
        if let maxWholePixels, maxWholePixels < 1 { throw ValidationError("--max-whole-pixels must be at least 1") }
        if json, quiet { throw ValidationError("--json prints the report: give --json or --quiet, not both") }
    }

    /// --max-failures as a count for `inputs` inputs: N, or a share (0.01, 1%) rounded down.
    static func failureLimit(_ text: String, of inputs: Int) throws -> Int {
        if let count = Int(text), count >= 0 { return count }
        let share = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
        guard let share, share >= 0, share < 1 else {
            throw ValidationError("--max-failures takes a count (10), or a share of the inputs below 1 (0.01 or 1%), not '\(text)'")
        }
        return Int((share * Double(inputs)).rounded(.down))
    }

    /// The options, a --colorspace profile read.
    func options() throws -> CacheOptions {
        var options = CacheOptions(levels: levels, maxSigma: maxSigma, maxRadius: maxRadius, spacing: spacing, tint: tint,
                                   saturation: saturation, ramp: ramp, scale: scale, preset: preset, compact: !fullSize,
                                   format: levelFormat.imageFormat, quality: quality ?? 90,
                                   webpQuality: levelFormat == .webp ? (web ? quality ?? CacheOptions.webQuality : quality) : nil,
                                   color: try color.target().map { CacheColor($0, intent: color.rendering) })
        options.background = background
        options.sourceLevel = !(noSourceLevel || web)
        options.contentNames = contentNames || web
        return options
    }

    func run() throws {
        if isBatch { return try runBatch() }
        let start = DispatchTime.now().uptimeNanoseconds
        let options = try options()
        let manifest = try attempt(input!) {
            try CacheStore.build(sourcePath: input!, into: output, options: options, decode: decode.options(color), threads: threads.threads)
        }
        if let flattened = manifest.flattenedOnto {
            writeError("frost: \(input!): note: transparency flattened onto \(BatchBuild.hex(flattened)) (--background COLOR chooses)\n")
        }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print("\(output): \(manifest.levels.count) levels of \(manifest.source.width)x\(manifest.source.height) in \(Int(ms)) ms")
        for level in manifest.levels {
            print("  \(level.file)  sigma \(rounded(level.sigma))  radius \(rounded(level.radius))  \(level.width)x\(level.height)")
        }
    }

    private func runBatch() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let options = try options()
        // Inputs: the folder's images (not the output, nor caches, inside it) or a list's lines, and
        // each list's; the roots they are relative to tell a cache whose source is gone.
        var gathered: [FileBatch.Input] = [], roots: [String] = []
        if let batch {
            let (inputs, root) = try attempt(batch) { try FileBatch.gather(from: batch, excluding: output, skipping: CacheSweep.isCacheFolder) }
            gathered += inputs
            roots.append(root)
        }
        for list in inputsFrom {
            gathered += try attempt(list == "-" ? "<stdin>" : list) { try FileBatch.inputs(fromList: list) }
            roots.append(list == "-" ? "" : Storage.parent(of: list))
        }
        let exclusion = InputExclusion(patterns: exclude)
        let kept = gathered.filter { !exclusion.excludes($0.relative) }
        guard !kept.isEmpty else {
            report(batch ?? inputsFrom[0], gathered.isEmpty ? "no images to cache" : "no images to cache (all \(gathered.count) excluded)")
            throw ExitCode.failure
        }
        let inputs = try batchFlags.shard(kept)
        let label = batchFlags.shard.map { "shard \($0)" } ?? ""
        // A local output is made and checked; a bucket's is checked by its listing, the sweep's below.
        if !ObjectAddress.isObject(output) { try attempt(output) { try FileIO.prepareWritableFolder(output) } }
        // What killed runs left, and caches whose source is gone: this shard's only.
        let sweep = try attempt(output) { try CacheSweep(output: output, owns: batchFlags.owns) }
        let records = try reportFile.map { path in try attempt(path) { try BatchRecordWriter(path: path) } }
        let json = self.json
        let emit: @Sendable (BatchRecord) -> Void = { record in
            records?.write(record)
            if json { print(record.json) }
        }

        var leftovers = 0
        let abandoned = sweep.leftovers.filter { CacheSweep.isAbandoned($0) }
        let fresh = sweep.leftovers.count - abandoned.count
        for entry in abandoned where CacheSweep.remove(entry) {
            leftovers += 1
            emit(BatchRecord(source: FileIO.resolve(entry.relative, relativeTo: roots[0]), output: entry.path, status: "removed",
                             note: "left by a run that was stopped"))
        }
        // A cache is an orphan when no input has its relative path and no file or object is there
        // (asked only for those: a listed catalog has them all).
        let known = Set(gathered.map(\.relative))
        // A lookup that fails (a 503, a folder it may not search) is not "gone": only a sure
        // absence (ENOENT, ENOTDIR, a 404) prunes. A failed one is an error naming the path (the
        // store's: with --prune, the run exits 1), and its cache is kept.
        var orphans: [CacheSweep.Entry] = [], lookupsFailed = 0
        for entry in sweep.caches where !known.contains(entry.relative) {
            switch CacheSweep.lookUpSource(entry.relative, under: roots) {
            case .gone: orphans.append(entry)
            case .present: break
            case .failed(let path, let reason):
                lookupsFailed += 1
                report(path, reason)
                emit(BatchRecord(source: path, output: entry.path, status: "failed", error: reason,
                                 note: "its source could not be looked up: the cache is kept"))
            }
        }
        var pruned = 0
        if prune {
            for entry in orphans where CacheSweep.remove(entry) {
                pruned += 1
                emit(BatchRecord(source: FileIO.resolve(entry.relative, relativeTo: roots[0]), output: entry.path, status: "pruned",
                                 note: "its source is gone"))
            }
        }

        var build = BatchBuild(inputs: inputs, output: output, options: options)
        build.decode = decode.options(color)
        build.force = force
        build.verify = verify
        build.wholePixels = maxWholePixels ?? .max
        build.jobs = batchFlags.chosenJobs ?? RowBands.availableThreads
        // Objects in a bucket: manifests checked and sources downloaded ahead of the builds, and a
        // bucket output's levels checked against its listing.
        if inputs.contains(where: { ObjectAddress.isObject($0.path) }) { build.readAhead = max(2, build.jobs) }
        if ObjectAddress.isObject(output) { build.listing = sweep.objectSizes }
        if let maxFailures { build.maxFailures = try Self.failureLimit(maxFailures, of: inputs.count) }
        let progress = BatchReport(total: inputs.count, label: label, quiet: quiet || json)
        let outcomes = build.run { input, outcome, done in
            let failure: (String, String)? = outcome.status == .failed ? (input.path, outcome.error ?? "") : nil
            if let note = outcome.note, outcome.status == .built, !json { writeError("frost: \(input.path): note: \(note)\n") }
            if outcome.status != .notTried {
                progress.record(input, failure, done: done, word: outcome.status.rawValue)
            }
            emit(BatchRecord(source: input.path, output: outcome.output, status: outcome.status.rawValue, error: outcome.error,
                             bytes: outcome.bytes, time: outcome.seconds, note: outcome.note))
        }
        func count(_ status: BatchBuild.Status) -> Int { outcomes.filter { $0.status == status }.count }
        let (built, skipped, failed, untried) = (count(.built), count(.skipped), count(.failed), count(.notTried))
        let runFaults = outcomes.filter { $0.fault == .run }.count
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var summary = (label.isEmpty ? "" : label + ": ") + "built \(built), skipped \(skipped), failed \(failed)"
        if untried > 0 { summary += ", not tried \(untried) (more than --max-failures \(build.maxFailures) failed)" }
        summary += " of \(inputs.count) in \(ProgressBar.duration(seconds))"
        if untried == 0 && failed > build.maxFailures { summary += "; more than --max-failures \(build.maxFailures) failed" }
        if runFaults > 0 { summary += "; \(runFaults) failed by the store or the machine, not their input" }
        summary += prune ? "; pruned \(pruned) caches whose source is gone" : "; \(orphans.count) caches whose source is gone (--prune removes them)"
        if lookupsFailed > 0 { summary += "; \(lookupsFailed) sources could not be looked up" }
        if leftovers > 0 { summary += "; removed \(leftovers) left by stopped runs" }
        if fresh > 0 { summary += "; kept \(fresh) without a manifest, written to in the last hour (a run may still be uploading them)" }
        if kept.count < gathered.count { summary += "; excluded \(gathered.count - kept.count)" }
        progress.close(summary)
        if json {
            let fields: [(String, String)] = [
                ("shard", batchFlags.shard.map(jsonString) ?? "null"), ("inputs", "\(inputs.count)"), ("built", "\(built)"),
                ("skipped", "\(skipped)"), ("failed", "\(failed)"), ("not_tried", "\(untried)"), ("orphans", "\(orphans.count)"),
                ("pruned", "\(pruned)"), ("leftovers_removed", "\(leftovers)"), ("excluded", "\(gathered.count - kept.count)"),
                ("time", "\((seconds * 1000).rounded() / 1000)"),
            ]
            print(jsonObject([("summary", jsonObject(fields))]))
        }
        if let records, let path = reportFile { try attempt(path) { try records.commit() } }
        // 1 when a rerun may do better: past --max-failures, a failure of the store or the machine,
        // or a source --prune could not look up; 3 when only inputs failed, by their own bytes.
        if failed > build.maxFailures || runFaults > 0 || prune && lookupsFailed > 0 { throw ExitCode.failure }
        if failed > 0 { throw Self.inputsFailed }
    }

    /// The exit status of a batch that finished with some inputs failed, each by its own fault
    /// (`BatchBuild.Fault`), and no more than --max-failures: the Job's podFailurePolicy does not
    /// retry it (deploy/), as a rerun would fail them again.
    static let inputsFailed = ExitCode(3)

    private func rounded(_ x: Double) -> String { String((x * 100).rounded() / 100) }
}

extension CachePlan.Spacing: ExpressibleByArgument {}
extension BlurCacheSpec.Preset: ExpressibleByArgument {}
