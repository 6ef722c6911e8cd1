import ArgumentParser
import Dispatch
import FrostCache
import FrostCodecs
import FrostColor
import FrostCore
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

struct Cache: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Pre-render N blur levels of an image (or, with --batch, of every image in a folder or list).",
        discussion: """
        Writes DIR/level-NN.png (or .jpg, .webp) and DIR/manifest.json (written last). Levels 1…N grow geometrically \
        (neighbouring σ ratio ≤ 1.5) up to --max-sigma (default 40) or --max-radius; --spacing linear with \
        --max-radius renders with ImageEffects itself, as Twitter did. With --batch, every input gets \
        OUTDIR/<relative path>.frost/; complete, matching caches are skipped, so an interrupted run resumes.
        """)

    @Argument(help: "Input image (omit with --batch).")
    var input: String?

    @Option(name: .customShort("o"), help: "Cache folder (with --batch: the output root).")
    var output: String

    @Option(help: "A folder of images, or a text file listing one image path per line.")
    var batch: String?

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

    @Option(help: "Level file format: png, jpg or webp.")
    var format: LevelFormat = .png

    @Option(parsing: .unconditional, help: "JPEG quality \(EncodeFlags.qualityRange) (default 90); for webp, lossy at this quality (default lossless). Not for png.")
    var quality: Int?

    @Flag(help: "Store every level at full size instead of the coarsest size its blur allows.")
    var fullSize = false

    @OptionGroup(title: "With --batch") var batchFlags: BatchFlags

    @Flag(help: "Rebuild caches that are already complete.")
    var force = false

    @Option(help: ArgumentHelp("With --batch: write a report there when done (a file, or an s3:// object), one JSON line per input: source, output, status (built, skipped or failed), error.", valueName: "FILE"))
    var report: String?

    @OptionGroup var color: ColorFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var threads: ThreadsFlag

    func validate() throws {
        guard (input == nil) != (batch == nil) else { throw ValidationError("give an input image or --batch, not both") }
        try Self.levelsRange.check(levels, "--levels")
        guard maxRadius == nil || maxSigma == nil else { throw ValidationError("give --max-radius or --max-sigma, not both") }
        try Self.maxSigmaRange.check(maxSigma, "--max-sigma")
        try Self.maxRadiusRange.check(maxRadius, "--max-radius")
        try EncodeFlags.qualityRange.check(quality, "--quality")
        if quality != nil, format == .png { throw ValidationError("--quality does not apply to png levels") }
        try EffectStep.scaleRange.check(scale, "--scale")
        try Self.saturationRange.check(saturation, "--saturation")
        if batch == nil, !batchFlags.isDefault || report != nil { throw ValidationError("--shard, --jobs and --report need --batch") }
    }

    /// The options, a --colorspace profile read.
    func options() throws -> CacheOptions {
        CacheOptions(levels: levels, maxSigma: maxSigma, maxRadius: maxRadius, spacing: spacing, tint: tint,
                     saturation: saturation, ramp: ramp, scale: scale, preset: preset, compact: !fullSize,
                     format: format.imageFormat, quality: quality ?? 90, webpQuality: format == .webp ? quality : nil,
                     color: try color.target().map { CacheColor($0, intent: color.rendering) })
    }

    func run() throws {
        if let batch { return try runBatch(batch) }
        let start = DispatchTime.now().uptimeNanoseconds
        let options = try options()
        let manifest = try attempt(input!) {
            try CacheStore.build(sourcePath: input!, into: output, options: options, decode: decode.options(color), threads: threads.threads)
        }
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print("\(output): \(manifest.levels.count) levels of \(manifest.source.width)x\(manifest.source.height) in \(Int(ms)) ms")
        for level in manifest.levels {
            print("  \(level.file)  sigma \(rounded(level.sigma))  radius \(rounded(level.radius))  \(level.width)x\(level.height)")
        }
    }

    private func runBatch(_ source: String) throws {
        let inputs = try batchFlags.shard(try attempt(source) { try FileBatch.inputs(from: source) })
        try attempt(output) { try FileIO.prepareWritableFolder(output) }
        var build = BatchBuild(inputs: inputs, output: output, options: try options())
        build.decode = decode.options(color)
        build.force = force
        build.jobs = batchFlags.jobs
        // Objects in a bucket: manifests checked and sources downloaded ahead of the builds.
        if inputs.contains(where: { $0.listed != nil }) { build.readAhead = max(2, batchFlags.jobs) }
        let batch = BatchReport(total: inputs.count)
        let outcomes = build.run { input, outcome, done in
            let failure: (String, String)? = if case .failed(let reason) = outcome { (input.path, reason) } else { nil }
            batch.record(input, failure, done: done, word: outcome == .built ? "built" : "skipped")
        }
        if let report {
            let lines = zip(inputs, outcomes).map { input, outcome in
                let (status, error): (String, String?) = switch outcome {
                case .built: ("built", nil)
                case .skipped: ("skipped", nil)
                case .failed(let reason): ("failed", reason)
                }
                return jsonObject([("source", jsonString(input.path)), ("output", jsonString((try? build.folder(for: input)) ?? "")),
                                   ("status", jsonString(status)), ("error", error.map(jsonString) ?? "null")]) + "\n"
            }
            try attempt(report) { try FileIO.writeAtomically(Array(lines.joined().utf8), to: report) }
        }
        let built = outcomes.filter { $0 == .built }.count, skipped = outcomes.filter { $0 == .skipped }.count
        let failed = outcomes.count - built - skipped
        try batch.finish("built \(built), skipped \(skipped), failed \(failed)", failed: failed)
    }

    private func rounded(_ x: Double) -> String { String((x * 100).rounded() / 100) }
}

extension CachePlan.Spacing: ExpressibleByArgument {}
extension BlurCacheSpec.Preset: ExpressibleByArgument {}
