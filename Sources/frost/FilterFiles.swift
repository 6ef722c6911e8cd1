import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import FrostCodecs
import FrostColor
@_spi(Kernels) import FrostCore
import FrostFiles
import FrostStream

/// Where a filter's images come from and go to, shared by `blur`, `effect`, `adjust`, `convert`,
/// `resize` and `run`: one file or many (files, folders, `-`, and lists through --inputs-from), `-o`
/// a file, `-`, a folder or a `%s` pattern, `--jobs`, `--shard`; every input is decoded once, goes
/// through the steps in memory and is encoded once.
struct FilterFiles: ParsableArguments {
    @Option(name: [.customShort("o"), .long],
            help: "Output: a file, - (standard output), a folder ending in / (mirrors the inputs' relative paths) or a pattern with %s (the input's name without extension). An animation also goes to .mp4 (H.264 through ffmpeg) or to a file per frame with %d or %04d in the name (frames counted from 0). Without -o the last argument is the output.")
    var output: String?

    @Option(help: "Output format: png, jpg, webp, avif, heic or gif (default: from the output's name, else the input's).")
    var format: ImageFormat?

    @Option(name: .customLong("inputs-from"), help: ArgumentHelp(
        "Also read the inputs a text file lists, one path per line (relative to the list's folder; - reads the list from standard input). Repeatable. A file given as an input is always an image, never a list.",
        valueName: "LIST"))
    var inputsFrom: [String] = []

    @Flag(name: .customLong("in-place"), help: "Let an output replace an input file (refused by default: 'frost blur a.jpg a.jpg', or -o src/ over src/).")
    var inPlace = false

    @Flag(help: "Write no EXIF, XMP, IPTC, resolution or ICC profile (by default each input's are kept where the output format holds them): a tagged picture is converted to sRGB first, so its colours stay (with --colorspace p3 or PROFILE.icc, that profile is written).")
    var strip = false

    @OptionGroup var color: ColorFlags
    @OptionGroup var batch: BatchFlags
    @OptionGroup var decode: DecodeFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var threads: ThreadsFlag

    /// Runs `steps` over the inputs named by `arguments` (plus the output, last, without -o).
    func process(_ arguments: [String], steps: [any ImageStep], linear: Bool = false) throws {
        var names = arguments
        guard let output = output ?? (names.count >= (inputsFrom.isEmpty ? 2 : 1) ? names.removeLast() : nil) else {
            throw ValidationError(names.isEmpty ? "give an input and an output" : "give an output after the input, or -o")
        }
        guard !names.isEmpty || !inputsFrom.isEmpty else { throw ValidationError("give at least one input") }
        guard (names + inputsFrom).filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read once") }
        let target = try OutputTarget(checking: output)
        if target.writesFrames, decode.frame != nil {
            throw ValidationError("--frame takes one frame: write it to an image file, not '\(output)'")
        }
        switch target {
        case .file(let path) where FrameOutput.isVideo(path), .pattern(let path) where FrameOutput.isVideo(path):
            try encode.checkVideo()
            if format != nil { throw ValidationError("--format does not apply to MP4 output") }
        case .file(let path): _ = try encode.format(writing: path, chosen: format)
        case .standardOutput:
            // Without --format each input's own format is written, checked as it is read.
            try refuseTerminal()
            if let format { try encode.check(format) }
        case .pattern(let pattern) where ImageFormat(pathExtension: pattern) != nil: _ = try encode.format(writing: pattern, chosen: format)
        case .folder, .pattern: if let format { try encode.check(format) }
        }

        // A folder or bucket prefix that cannot be listed is one line, naming it.
        var gathered: [FileBatch.Input] = []
        for name in names {
            gathered += try attempt(name) { try FileBatch.inputs(fromArguments: [name], excluding: target.folder) }
        }
        for list in inputsFrom {
            gathered += try attempt(list == "-" ? "<stdin>" : list) { try FileBatch.inputs(fromList: list) }
        }
        // Sharded by the path each input writes (under -o), so that two inputs that would write one
        // file meet in one shard, where checkDistinctOutputs refuses them.
        let inputs = try batch.shard(gathered) { target.outputName(for: $0, format: expectedFormat($0, target)) ?? $0.relative }
        if inputs.count != 1 && !target.takesMany {
            throw ValidationError("\(inputs.count) inputs need -o FOLDER/ or a pattern with %s, not '\(output)'")
        }
        try checkDistinctOutputs(inputs, target)

        let many = inputs.count > 1
        var context = StepContext(threads: threads.threads, limits: decode.options, background: encode.background)
        context.linear = linear
        for path in Set(steps.flatMap(\.auxiliaryFiles)) {
            context.images[path] = try attempt(path) { try Image(contentsOfFile: path, options: decode.options) }
        }
        // Stripped means untagged: a tagged picture in sRGB, as imgproxy strips (unless a space is asked for).
        context.colorTarget = try color.target() ?? (strip ? .sRGB : nil)
        context.intent = color.rendering
        if !inPlace {
            let read = gathered.filter { !$0.isStandardInput }.map(\.path) + steps.flatMap(\.auxiliaryFiles)
            context.inputFiles = Set(read.compactMap(FileIO.identity))
        }
        let maxBytes = decode.options.maxFileBytes
        // An object in a bucket is downloaded before its turn (read ahead, --jobs of them beyond
        // those at work), so transfers overlap the work; a local file is read when its turn comes.
        let prepare: @Sendable (FileBatch.Input) -> Downloaded = { input in
            ObjectAddress.isObject(input.path) && input.refusal == nil ? .bytes(Result { try input.read(maxBytes: maxBytes) }) : .later
        }
        let work: @Sendable (FileBatch.Input, Downloaded, Int) -> Failure? = { [self, context] input, downloaded, threads in
            var context = context
            if many { context.threads = threads }
            switch downloaded {
            case .later: return filter(input, nil, target: target, steps: steps, context: context)
            case .bytes(.success(let bytes)): return filter(input, bytes, target: target, steps: steps, context: context)
            case .bytes(.failure(let error)): return Failure(file: input.path, reason: describe(error))
            }
        }
        guard inputs.count > 1 || target.takesMany else {
            if let failure = work(inputs[0], prepare(inputs[0]), 0) {
                report(failure.file, failure.reason)
                throw ExitCode.failure
            }
            return
        }
        let report = BatchReport(total: inputs.count)
        let remote = inputs.contains { ObjectAddress.isObject($0.path) }
        let failures = FileBatch.run(inputs, jobs: batch.jobs, threads: threads.threads, readAhead: remote ? batch.jobs : 0,
                                     prepare: prepare, work: work) { input, failure, done in
            report.record(input, failure.map { ($0.file, $0.reason) }, done: done, word: "wrote")
        }
        let failed = failures.compactMap { $0 }.count
        try report.finish("wrote \(inputs.count - failed), failed \(failed)", failed: failed)
    }

    struct Failure: Sendable {
        let file: String
        let reason: String
    }

    /// An input's bytes fetched ahead of its turn (an object), or `later` (a local file).
    enum Downloaded: Sendable {
        case bytes(Result<[UInt8], any Error>)
        case later
    }

    /// Reads, runs the steps, writes: the whole of one input. A JPEG or large opaque PNG file whose
    /// steps all stream goes through `streamed`; where the steps begin with a shrinking resize, a JPEG or WebP is
    /// decoded smaller either way (`ShrinkOnLoad`).
    private func filter(_ input: FileBatch.Input, _ downloaded: [UInt8]?, target: OutputTarget, steps: [any ImageStep], context: StepContext) -> Failure? {
        let filterSteps = steps.compactMap { $0.filterStep(context) }
        let defined = filterSteps.count == steps.count ? filterSteps : nil
        if !target.writesFrames, let defined, defined.allSatisfy(\.streams), case .streamed(let failure) = streamed(input, downloaded, target, defined, context) {
            return failure
        }
        let name = input.isStandardInput ? "<stdin>" : input.path
        /// What is encoded: the image the steps made, or a 16-bit PNG's own samples.
        enum Picture { case image(Image), sixteenBit(SixteenBitPNG) }
        let bytes: [UInt8], picture: Picture
        do {
            try checkExpectedPath(input, target, context)   // refused before reading if it would leave -o or replace an input
            bytes = try downloaded ?? input.read(maxBytes: decode.options.maxFileBytes)
            if target.writesFrames {
                return filterAnimation(bytes, input: input, target: target, format: target.format(chosen: format, source: ImageFormat(sniffing: bytes)!),
                                       steps: steps, context: context)
            }
            if let defined, let kind = ImageFormat(sniffing: bytes) { try checkResultSize(bytes, defined, as: target.format(chosen: format, source: kind)) }
            if let frames = animationFrames(bytes), decode.frame == nil {
                let format = target.format(chosen: self.format, source: ImageFormat(sniffing: bytes)!)
                if [.png, .webp, .gif].contains(format) { return filterAnimation(bytes, input: input, target: target, format: format, steps: steps, context: context) }
                let holds = format == .avif ? "Frost writes AVIF as a still" : "\(format.displayName) holds one"
                writeError("frost: \(name): note: \(frames) frames; \(holds): the first is written (--frame K chooses)\n")
            }
            // A 16-bit PNG converted to PNG keeps its 16 bits; every operation works on 8.
            let toPNG = ImageFormat(sniffing: bytes) == .png && target.format(chosen: format, source: .png) == .png
            if steps.isEmpty, toPNG, encode.background == nil, context.colorTarget == nil, let wide = try SixteenBitPNG(bytes: bytes, options: decode.options) {
                picture = .sixteenBit(wide)
            } else {
                var options = decode.options
                var run = steps.map { step in { (image: Image) in try step.apply(to: image, context) } }
                if let defined, [.jpeg, .webp].contains(ImageFormat(sniffing: bytes)) {
                    let info = try ImageInfo(bytes: bytes)
                    let turned = !decode.noAutoOrient && info.orientation >= 5
                    let plan = ShrinkOnLoad(steps: defined, width: turned ? info.height : info.width, height: turned ? info.width : info.height)
                    options.reduction = plan.reduction
                    run = plan.steps.map { step in { try step.apply(to: $0, limits: context.limits, threads: context.threads) } }
                }
                picture = .image(try finished(try Self.run(run, on: try Image(decoding: bytes, options: options)), context))
            }
        } catch {
            return Failure(file: name, reason: describe(error))
        }
        let format = target.format(chosen: self.format, source: ImageFormat(sniffing: bytes)!)
        return deliver(input, bytes, to: target, as: format, context) { options in
            switch picture {
            case .image(let image):
                let file = try image.encoded(as: format, options: options, threads: context.threads)
                encode.noteFlattening(image, as: format, for: name)
                return file
            case .sixteenBit(let wide):
                return try wide.encoded(options: options)
            }
        }
    }

    /// The output's end of one input: `format` checked against the options, its path found,
    /// the file encoded by `encoded` (given the encoder's options with the input's metadata) and
    /// written. A failure names the input (a refused path) or the output.
    private func deliver(_ input: FileBatch.Input, _ bytes: [UInt8], to target: OutputTarget, as format: ImageFormat,
                         _ context: StepContext, _ encoded: (EncodeOptions) throws -> [UInt8]) -> Failure? {
        let path: String?
        do {
            try encode.check(format)
            path = try target.path(for: input, format: format)
        } catch {
            return Failure(file: input.path, reason: describe(error))
        }
        do {
            let file = try encoded(encodeOptions(ImageMetadata(reading: bytes)))
            try write(target, path, context) { try $0(file) }
            return nil
        } catch {
            return Failure(file: path ?? "<stdout>", reason: describe(error))
        }
    }

    /// The frame count of a GIF, APNG, WebP or AVIF animation (nil for a still image or another format).
    private func animationFrames(_ bytes: [UInt8]) -> Int? {
        guard let format = ImageFormat(sniffing: bytes), [.gif, .png, .webp, .avif].contains(format) else { return nil }
        if let info = try? ImageInfo(bytes: bytes) { return info.frames > 1 ? info.frames : nil }
        // A GIF broken after whole frames has no header to count (`info` fails); with
        // --allow-truncated its whole frames are the animation.
        guard format == .gif, decode.allowTruncated, let animation = try? Animation(decoding: bytes, options: decode.options),
              animation.frames.count > 1 else { return nil }
        return animation.frames.count
    }

    /// Every frame through the steps, written as an animation (APNG, WebP or GIF) with the same delays,
    /// or as a video or a file per frame (`FrameOutput`).
    private func filterAnimation(_ bytes: [UInt8], input: FileBatch.Input, target: OutputTarget, format: ImageFormat,
                                 steps: [any ImageStep], context: StepContext) -> Failure? {
        let run = steps.map { step in { (image: Image) in try step.apply(to: image, context) } }
        let name = input.isStandardInput ? "<stdin>" : input.path
        var animation: Animation
        let sequence: FrameOutput?
        do {
            let path = try target.path(for: input, format: format)
            sequence = target.writesFrames ? path.flatMap(FrameOutput.init(path:)) : nil
            if case .frames = sequence { try encode.check(format) }
            animation = try Animation(decoding: bytes, options: decode.options)
            if case .video = sequence, animation.frames.count == 1 {
                throw CodecError(.encode, "a still image: an MP4 is written from an animation (GIF, APNG, animated WebP or AVIF sequence)")
            }
            animation.frames = try animation.frames.map { try finished(try Self.run(run, on: $0), context) }
        } catch {
            return Failure(file: name, reason: describe(error))
        }
        if let sequence {
            do {
                try sequence.write(animation, format: format, options: encodeOptions(ImageMetadata(reading: bytes)), threads: context.threads)
                return nil
            } catch {
                return Failure(file: sequence.path, reason: describe(error))
            }
        }
        return deliver(input, bytes, to: target, as: format, context) { options in
            let memory = MemoryFile()
            try animation.write(into: memory, as: format, options: options)
            return memory.bytes
        }
    }

    /// What the steps made, as written: in the `--colorspace` asked for, flattened onto
    /// `--background` when one is given, whatever the output format (a JPEG is flattened without
    /// one too, onto white, by its encoder).
    private func finished(_ image: Image, _ context: StepContext) throws -> Image {
        let image = try ColorFlags.apply(image, to: context.colorTarget, intent: context.intent, threads: context.threads)
        guard let background = encode.background, image.hasAlpha else { return image }
        return image.flattened(onto: background)
    }

    /// The steps one after another. Between steps the image goes as a file would carry it:
    /// straight alpha, so a chain equals its steps run one by one through PNG files, bit for bit.
    private static func run(_ steps: [(Image) throws -> Image], on image: Image) throws -> Image {
        try steps.reduce(image) { image, step in try step(image.isPremultiplied && image.hasAlpha ? image.unpremultiplied() : image) }
    }

    /// The encoder's options with the input's metadata, unless `--strip` (pixels turned upright
    /// by their EXIF orientation are written with orientation 1).
    private func encodeOptions(_ metadata: ImageMetadata) -> EncodeOptions {
        var options = encode.options
        if !strip { options.metadata = decode.noAutoOrient ? metadata : metadata.uprighted() }
        return options
    }

    /// Writes a file's bytes, handed over in pieces by `body`: to standard output at the end (nil
    /// `path`), or into a temporary file renamed at the end (its folder made for a many-file target).
    /// A path that is one of the files read is refused (`--in-place` allows it).
    private func write(_ target: OutputTarget, _ path: String?, _ context: StepContext,
                       _ body: (([UInt8]) throws -> Void) throws -> Void) throws {
        try refuseReplacingInput(path, context)
        guard let path else {
            var bytes: [UInt8] = []
            try body { bytes += $0 }
            return try FileIO.writeStandardOutput(bytes)
        }
        if target.takesMany, let folder = path.range(of: "/", options: .backwards).map({ String(path[..<$0.lowerBound]) }), !folder.isEmpty {
            try FileIO.makeFolder(folder)
        }
        let file = try Storage.writer(path)
        try body { try file.append($0) }
        try file.commit()
    }

    private enum Streaming { case streamed(Failure?), whole }

    /// Decode → steps → encode as a pipeline over strips of rows (FrostStream), for a JPEG file
    /// without an EXIF turn, or an opaque 8-bit PNG file that is not interlaced, of 32 Mpixels or
    /// more (`PNGRowReader.streamedPixels`):
    /// the whole image is never in memory (a JPEG output, and a PNG at the default level, are
    /// written strip by strip as well). Anything else is left to the whole-image path (`.whole`).
    private func streamed(_ input: FileBatch.Input, _ downloaded: [UInt8]?, _ target: OutputTarget, _ steps: [FilterStep],
                          _ context: StepContext) -> Streaming {
        guard !input.isStandardInput, input.refusal == nil,
              let head = downloaded.map({ Array($0.prefix(StreamRoute.headBytes)) }) ?? (try? FileIO.readPrefix(input.path, count: StreamRoute.headBytes)),
              let kind = StreamRoute.candidate(head: head),
              kind == .jpeg || !decode.allowTruncated else { return .whole }   // a cut PNG's rows are kept by the whole read
        let format = target.format(chosen: self.format, source: kind)
        guard format != .jpeg || !encode.options.progressive else { return .whole }
        let reader: any StreamSource, metadata: ImageMetadata, plan: ShrinkOnLoad, path: String?
        do {
            try checkExpectedPath(input, target, context)
            if kind == .jpeg {
                let jpeg = try downloaded.map { try JPEGRowReader(bytes: $0, options: decode.options) }
                    ?? JPEGRowReader(path: input.path, options: decode.options)
                // Turning the picture upright needs all of it; a CMYK file's profile converts it whole (JPEGDecoder).
                guard jpeg.info.orientation == 1 || decode.noAutoOrient, !jpeg.isCMYK else { return .whole }
                try checkResultSize(jpeg.info, steps, as: format)
                plan = ShrinkOnLoad(steps: steps, width: jpeg.info.width, height: jpeg.info.height)
                try jpeg.start(reduction: plan.reduction)
                (reader, metadata) = (jpeg, jpeg.metadata)
            } else {
                let bytes = try downloaded ?? input.read(maxBytes: decode.options.maxFileBytes)
                let info = try ImageInfo(bytes: bytes)
                guard PNGRowReader.streams(info), info.orientation == 1 || decode.noAutoOrient else { return .whole }
                try checkResultSize(info, steps, as: format)
                let png = try PNGRowReader(bytes: bytes, options: decode.options)
                plan = ShrinkOnLoad(unreduced: steps)
                (reader, metadata) = (png, png.metadata)
            }
            try encode.check(format)
            path = try target.path(for: input, format: format)
        } catch {
            return .streamed(Failure(file: input.path, reason: describe(error)))
        }
        /// An error of the output, not of the input.
        struct WriteFailure: Error { let error: any Error }
        do {
            // A conversion is the last step, by rows: after a shrink it has the fewest pixels to convert.
            let converted = context.colorTarget.map { plan.steps + [.color(source: reader.iccProfile, target: $0, intent: context.intent)] }
            let filter = try StreamedFilter(reader: reader, steps: converted ?? plan.steps, limits: decode.options,
                                            threads: RowBands.threads(context.threads))
            let options = encodeOptions(metadata)
            if format == .jpeg || (format == .png && PNGStripEncoder.streams(options)) {
                // The file written piece by piece as strips are made.
                try write(target, path, context) { append in
                    let encode = format == .jpeg ? filter.writeJPEG : filter.writePNG
                    try encode(options) { piece in
                        do { try append(piece) } catch { throw WriteFailure(error: error) }
                    }
                }
            } else {
                let encoded = try filter.image().encoded(as: format, options: options, threads: context.threads)
                do { try write(target, path, context) { try $0(encoded) } } catch { throw WriteFailure(error: error) }
            }
            return .streamed(nil)
        } catch let failure as WriteFailure {
            return .streamed(Failure(file: path ?? "<stdout>", reason: describe(failure.error)))
        } catch {
            return .streamed(Failure(file: input.path, reason: describe(error)))
        }
    }

    /// Refuses, from the header alone, a result the output format cannot hold (a 20000-pixel-wide
    /// JPEG to WebP), before anything is decoded.
    private func checkResultSize(_ bytes: [UInt8], _ steps: [FilterStep], as format: ImageFormat) throws {
        guard format.maximumSide != nil, let info = try? ImageInfo(bytes: bytes) else { return }
        try checkResultSize(info, steps, as: format)
    }

    private func checkResultSize(_ info: ImageInfo, _ steps: [FilterStep], as format: ImageFormat) throws {
        let turned = !decode.noAutoOrient && info.orientation >= 5
        let start = turned ? (width: info.height, height: info.width) : (width: info.width, height: info.height)
        let size = try steps.reduce(start) { size, step in
            let next = step.size(width: size.width, height: size.height)
            try decode.options.checkPixels(width: next.width, height: next.height, of: "the result would be")   // as the step itself would say
            return next
        }
        try format.checkHolds(width: size.width, height: size.height)
    }

    /// The path an input will write, its format guessed from its name before it is read.
    private func expectedPath(_ input: FileBatch.Input, _ target: OutputTarget) throws -> String? {
        try target.path(for: input, format: expectedFormat(input, target))
    }

    private func expectedFormat(_ input: FileBatch.Input, _ target: OutputTarget) -> ImageFormat {
        target.format(chosen: format, source: ImageFormat(pathExtension: input.path) ?? .png)
    }

    /// Refuses an input before it is read when its output would leave -o's folder or replace a
    /// file read (checked again when the output is written, by its real format).
    private func checkExpectedPath(_ input: FileBatch.Input, _ target: OutputTarget, _ context: StepContext) throws {
        try refuseReplacingInput(try expectedPath(input, target), context)
    }

    /// An output must not be one of the files read (however named), unless `--in-place`.
    private func refuseReplacingInput(_ path: String?, _ context: StepContext) throws {
        guard let path, !context.inputFiles.isEmpty, let identity = FileIO.identity(of: path),
              context.inputFiles.contains(identity) else { return }
        throw CodecError(.refused, "the output \(path) is a file read by this command: not replaced (--in-place replaces it)")
    }

    /// Two inputs must not write one file (a.jpg and a.png into `out/%s.webp`): refused before
    /// any work. (An input whose output would leave the folder fails alone, in `filter`.)
    private func checkDistinctOutputs(_ inputs: [FileBatch.Input], _ target: OutputTarget) throws {
        guard target.takesMany else { return }
        var writers: [String: String] = [:]
        for input in inputs {
            guard let path = try? expectedPath(input, target) else { continue }
            if let other = writers.updateValue(input.path, forKey: path) {
                throw ValidationError("\(other) and \(input.path) would both write \(path)")
            }
        }
    }
}
