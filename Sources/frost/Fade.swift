import ArgumentParser
import FrostCache
import FrostCodecs
import FrostColor
import FrostCore
import FrostCrossfade
import FrostFiles
import Foundation

struct Fade: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fade",
        abstract: "A frame of a blur cache at a fraction or scroll offset, a sweep of frames, or a blend of two images.",
        discussion: """
        frost fade DIR --fraction P -o OUT             (P in 0…1)
        frost fade DIR --offset Y --start A --end B [--ease] -o OUT
        frost fade DIR --frames K -o FOLDER             (frame-0000.png … over P = 0…1)
        frost fade A B --fraction P -o OUT             (two images of one size)
        """)

    @Argument(help: "A cache folder, or two images (one may be - for standard input).")
    var inputs: [String]

    @Option(name: .customShort("o"), help: "Output image, or - (PNG on standard output); a folder with --frames.")
    var output: String

    static let fractionRange = OptionRange(0, 1)
    static let framesRange = OptionRange(2, 10_000)

    @Option(parsing: .unconditional, help: "Fraction \(fractionRange) (0 the source, 1 the most blurred level).")
    var fraction: Double?

    @Option(parsing: .unconditional, help: "Scroll offset in points, any value (negative too), mapped to a fraction by --start and --end.")
    var offset: Double?

    @Option(parsing: .unconditional, help: "Offset where the fade starts (any value, negative too).")
    var start: Double?

    @Option(parsing: .unconditional, help: "Offset where the fade ends (any value, negative too).")
    var end: Double?

    @Flag(help: "Ease the mapped fraction in and out (smoothstep).")
    var ease = false

    @Option(help: "blend (variance-matched, default), nearest (Twitter's buckets), alpha (Secret's fade) or exact (a true gaussian of σ = P·σmax from the nearest level below; plain gaussian caches).")
    var mode: FadeMode = .blend

    @Option(parsing: .unconditional, help: "Write K frames over the whole fade, \(framesRange).")
    var frames: Int?

    @Flag(help: "Blend in linear light (two images, or a cache's two levels; --mode exact blurs the source in it): half black, half white is 188, not 128.")
    var linear = false

    @OptionGroup var encode: EncodeFlags
    @OptionGroup var color: ColorFlags
    @OptionGroup var threads: ThreadsFlag

    func validate() throws {
        guard (1...2).contains(inputs.count) else { throw ValidationError("give a cache folder, or two images") }
        let ways = [fraction != nil, offset != nil, frames != nil].filter { $0 }.count
        guard ways == 1 else { throw ValidationError("give one of --fraction, --offset (with --start and --end) or --frames") }
        if offset != nil, start == nil || end == nil { throw ValidationError("--offset needs --start and --end") }
        try Self.fractionRange.check(fraction, "--fraction")
        try Self.framesRange.check(frames, "--frames")
        for (name, value) in [("--offset", offset), ("--start", start), ("--end", end)] {
            if let value, !value.isFinite { throw ValidationError("\(name) must be a number") }
        }
        if inputs.count == 2, fraction == nil { throw ValidationError("two images blend with --fraction") }
        if frames == nil { _ = try encode.format(writing: output) } else {
            guard output != "-" else { throw ValidationError("--frames writes a folder of frames, not standard output") }
            try encode.check(.png)
        }
    }

    func run() throws {
        if inputs.count == 2 {
            guard inputs.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read once") }
            var a = try attempt(inputs[0]) { try Image(decoding: try FileIO.readInput(inputs[0])) }
            var b = try attempt(inputs[1]) { try Image(decoding: try FileIO.readInput(inputs[1])) }
            // Two pictures in one space blend there (its profile kept); in two, both in sRGB first.
            if a.iccProfile != b.iccProfile { (a, b) = (a.inSRGB(), b.inSRGB()) }
            guard a.width == b.width, a.height == b.height else {
                report(inputs[1], CodecError(.corrupt, "is \(b.width)x\(b.height), \(inputs[0]) is \(a.width)x\(a.height): blending needs one size"))
                throw ExitCode.failure
            }
            return try attempt(output) { try write(a.blended(with: b, fraction: fraction!, linear: linear, threads: threads.threads), to: output, encode: encode, color: color) }
        }
        let folder = inputs[0]
        if mode == .exact {
            let manifest = try attempt(folder) { try CacheStore.readManifest(folder) }
            guard manifest.plan.supportsExactFrames else {
                report(folder, "exact frames need a cache of plain gaussian levels (this one has tint, saturation or ImageEffects levels)")
                throw ExitCode.failure
            }
        }
        if let frames {
            let cache = CrossfadeCache(try attempt(folder) { try CacheStore.load(folder) })
            try attempt(output) { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) }
            for k in 0..<frames {
                let path = FileIO.joined(output, String(format: "frame-%04d.png", k))
                let frame = cache.frame(at: Double(k) / Double(frames - 1), mode: mode, linear: linear, threads: threads.threads)
                try attempt(path) { try color.apply(frame).write(toFile: path, options: encode.options) }
            }
            print("\(output): \(frames) frames")
            return
        }
        let p = fraction ?? ScrollMapping.fraction(offset: offset!, start: start!, end: end!, ease: ease)
        // One frame decodes only the levels it blends; every level is still verified.
        let cache = CrossfadeCache(try attempt(folder) {
            try CacheStore.load(folder, only: { $0.levelsNeeded(at: p, mode: mode) })
        })
        try attempt(output) { try write(cache.frame(at: p, mode: mode, linear: linear, threads: threads.threads), to: output, encode: encode, color: color) }
    }
}

extension FadeMode: ExpressibleByArgument {}
