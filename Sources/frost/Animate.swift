import ArgumentParser
import Dispatch
import Foundation
import FrostCodecs
import FrostColor
import FrostCompose
@_spi(Kernels) import FrostCore
import FrostFiles
import FrostMotion

struct Animate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render a motion scene's timeline: a folder of PNG frames, an animated PNG, WebP or GIF, or an MP4 through ffmpeg.",
        discussion: "OUT ending in .png is an animated PNG (APNG, every frame lossless); .webp an animated WebP (lossless, or lossy "
            + "with --quality Q: a tenth of the APNG's bytes or less); .gif a GIF (one palette for every frame, --colors and --dither; "
            + "the frames are rendered twice, once for the palette, and at most 50 a second are kept); .mp4 needs ffmpeg (H.264, raw RGBA piped in); "
            + "anything else is a folder of frame-0000.png …. Frame k equals `frost compose SCENE --scroll/--time` at frame k's driver value. "
            + "Schema: docs/scenes.md.")

    @Argument(help: "Motion scene JSON file (with a timeline), or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "OUT.png (APNG), OUT.webp (animated WebP), OUT.gif, OUT.mp4, or a folder.")
    var output: String

    @Option(help: ArgumentHelp("Render only frames k with k mod N = K (folder output), to spread a render over workers.", valueName: "K/N"))
    var frames: String?

    @Option(help: ArgumentHelp("Also write a filmstrip of every n-th frame (PNG), each labelled with its frame and driver value.", valueName: "FILE.png"))
    var strip: String?

    static let stripEveryRange = OptionRange(1, 100_000)
    static let fpsRange = OptionRange(0, 1000, excludingLower: true)

    @Option(parsing: .unconditional, help: "Frames between the filmstrip's pictures, \(stripEveryRange) (default: about eight pictures).")
    var stripEvery: Int?

    @Option(parsing: .unconditional, help: "Playback rate of a scroll timeline in frames per second, \(fpsRange) (a time timeline plays at its own fps).")
    var fps: Double = 60

    @OptionGroup var scene: SceneFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var color: ColorFlags
    @OptionGroup var threads: ThreadsFlag

    enum Target { case folder, apng, webp, gif, mp4 }

    var target: Target {
        switch (output.lowercased() as NSString).pathExtension {
        case "png": .apng
        case "webp": .webp
        case "gif": .gif
        case "mp4": .mp4
        default: .folder
        }
    }

    func validate() throws {
        if let frames {
            _ = try parseSlice(frames, option: "--frames")
            guard target == .folder else { throw ValidationError("--frames needs a folder as output (an animation file is one file)") }
        }
        if let strip { guard strip.lowercased().hasSuffix(".png") else { throw ValidationError("--strip must name a .png file") } }
        let named = (output as NSString).pathExtension.lowercased()
        if target == .folder, !named.isEmpty, !output.hasSuffix("/"), !isExistingFolder(output) {
            throw ValidationError("'\(output)': .\(named) is not an animation Frost writes (.png: APNG, .webp, .gif, .mp4, or a folder of frames)")
        }
        if target != .gif, encode.colors != nil || encode.dither != nil {
            throw ValidationError("--colors and --dither apply to a GIF only (frost animate writes other frames in true colour)")
        }
        // Frames are drawn in sRGB; another space needs a file that says so (a GIF and an MP4 cannot).
        if target == .gif || target == .mp4, color.colorspace != .keep, color.colorspace != .sRGB {
            throw ValidationError("--colorspace: a \(target == .gif ? "GIF" : "MP4") holds sRGB only (frames are drawn in sRGB; PNG frames, APNG and WebP take another space)")
        }
        switch target {
        case .folder, .apng: try encode.check(.png)
        case .webp: try encode.check(.webp)
        case .gif: try encode.check(.gif)
        case .mp4: try encode.checkVideo()
        }
        try Self.stripEveryRange.check(stripEvery, "--strip-every")
        try Self.fpsRange.check(fps, "--fps")
    }

    func run() throws {
        let file = try SceneFile(self.file, flags: scene)
        guard let timeline = file.motion.timeline else {
            try attempt(file.name) { throw ComposeError("timeline", "missing: `frost animate` needs a timeline (use `frost compose` for a still)") }
            return
        }
        let states = timeline.states(other: scene.state)
        var selected = Array(states.indices)
        if let frames {
            let (k, n) = try parseSlice(frames, option: "--frames")
            selected = selected.filter { $0 % n == k }
        }
        // The filmstrip's frames, of every frame selected (a GIF's left-out ones drawn for it alone).
        let every = stripEvery ?? max(1, (states.count + 7) / 8)
        let stripFrames = strip == nil ? [] : selected.filter { $0 % every == 0 }
        // A GIF keeps the frames that start at least two hundredths apart, and is rendered twice:
        // every frame is counted for the palette before the first is written.
        var hundredths: [Int: Int] = [:]
        if target == .gif {
            let timing = AnimatedGIFWriter.timeline(delays: selected.map { delay(timeline, states, $0) })
            hundredths = Dictionary(uniqueKeysWithValues: zip(timing.kept.map { selected[$0] }, timing.hundredths))
            selected = timing.kept.map { selected[$0] }
        }
        let renderer = try file.renderer(threads: threads.threads)
        let (w, h) = (file.motion.scene.pixelWidth, file.motion.scene.pixelHeight)
        let hasAlpha = file.motion.scene.background.alpha < 1
        // Frames are drawn in sRGB: another space converts each and tags the file.
        let space = try color.target().flatMap { $0 == .sRGB ? nil : $0 }, intent = color.rendering
        let sink = try attempt(output) { try FrameSink(target, path: output, width: w, height: h, count: selected.count,
                                                       hasAlpha: hasAlpha, fps: timelineFPS(timeline), hundredths: hundredths,
                                                       options: encode.options, iccProfile: space.flatMap(ColorProfile.builtIn)) }
        let passes = target == .gif ? 2 : 1
        let bar = ProgressBar(total: passes * selected.count)
        let workers = RowBands.threads(threads.threads)
        var stripCells: [Int: Image] = [:], renderNanoseconds: UInt64 = 0, encodeNanoseconds: UInt64 = 0, done = 0
        let cell = min(240, w)
        func addToStrip(_ k: Int, _ image: Image) {
            stripCells[k] = image.resized(width: cell, height: max(1, (h * cell + w / 2) / w), threads: workers)
        }
        for pass in 1...passes {
            // Frames are rendered one after another (each on every thread), then encoded side by side.
            for start in stride(from: 0, to: selected.count, by: workers) {
                let chunk = Array(selected[start..<min(start + workers, selected.count)])
                let t0 = DispatchTime.now().uptimeNanoseconds
                let images = try chunk.map { k in
                    try ColorFlags.apply(try attempt(file.name) { try renderer.frame(at: states[k]) }, to: space, intent: intent, threads: workers)
                }
                let t1 = DispatchTime.now().uptimeNanoseconds
                if pass < passes {
                    try attempt(output) { try sink.sample(images) }
                } else {
                    try attempt(output) { try sink.write(images, indices: chunk, delays: chunk.map { delay(timeline, states, $0) }, threads: workers) }
                }
                encodeNanoseconds += DispatchTime.now().uptimeNanoseconds - t1
                renderNanoseconds += t1 - t0
                for (k, image) in zip(chunk, images) where pass == passes && stripFrames.contains(k) { addToStrip(k, image) }
                done += chunk.count
                bar.show(done, "frame \(chunk.last!)")
            }
        }
        try attempt(output) { try sink.finish() }
        bar.clear()
        for k in stripFrames where stripCells[k] == nil { addToStrip(k, try attempt(file.name) { try renderer.frame(at: states[k]) }) }
        if let strip, !stripCells.isEmpty {
            try attempt(strip) {
                let cells = stripFrames.compactMap { stripCells[$0] }
                let sheet = try Image.contactSheet(cells, labels: stripFrames.map { Self.stripLabel($0, timeline, states[$0]) },
                                                   columns: cells.count, cellWidth: cells[0].width, maxPixels: scene.options.maxPixels,
                                                   threads: workers)
                var options = encode.options
                options.colors = nil   // a GIF's palette size is not the filmstrip's
                try sheet.write(toFile: strip, options: options)
            }
        }
        let perFrame = { (ns: UInt64) in String((Double(ns) / 1e6 / Double(max(1, selected.count)) * 10).rounded() / 10) }
        // (A GIF's frames are rendered and encoded twice: its figures count both passes.)
        print("\(output): \(selected.count) of \(states.count) frames \(w)x\(h), \(perFrame(renderNanoseconds)) ms per frame "
            + "rendering, \(perFrame(encodeNanoseconds)) ms writing\(strip.map { "; strip \($0)" } ?? "")")
    }

    /// A filmstrip picture's caption: the frame and where its drivers are ("frame 12 · scroll 120 pt",
    /// "frame 40 · 0.8 s", "frame 40 · pitch 0.21 · roll -0.3").
    static func stripLabel(_ k: Int, _ timeline: Timeline, _ state: DriverState) -> String {
        switch timeline {
        case .scroll: "frame \(k) · scroll \(decimal(state.scroll)) pt"
        case .time: "frame \(k) · \(decimal(state.time)) s"
        case .tilt: "frame \(k) · pitch \(decimal(state.pitch)) · roll \(decimal(state.roll))"
        }
    }

    /// How fast frames play: a time or trace timeline's own rate, else --fps.
    private func timelineFPS(_ timeline: Timeline) -> Double { timeline.fps ?? fps }

    /// How long frame k shows: until the next frame's time, or one frame's time.
    private func delay(_ timeline: Timeline, _ states: [DriverState], _ k: Int) -> Double {
        if timeline.fps != nil, k + 1 < states.count { return states[k + 1].time - states[k].time }
        return 1 / timelineFPS(timeline)
    }
}

/// Where `animate` puts its frames.
final class FrameSink {
    private let path: String
    private let apng: AnimatedPNGWriter?
    private let webp: AnimatedWebPWriter?
    private let gif: AnimatedGIFWriter?
    /// A GIF's frames' delays in hundredths, by frame index.
    private let hundredths: [Int: Int]
    private let video: VideoPipe?
    private let options: EncodeOptions
    /// The last frame written: the next APNG frame stores only what changed since it.
    private var previous: Image?

    /// `iccProfile`: the profile the frames are in (an APNG or WebP carries it; PNG frames carry their own).
    init(_ target: Animate.Target, path: String, width: Int, height: Int, count: Int, hasAlpha: Bool, fps: Double,
         hundredths: [Int: Int], options: EncodeOptions, iccProfile: [UInt8]?) throws {
        self.path = path
        self.options = options
        self.hundredths = hundredths
        gif = target == .gif ? try AnimatedGIFWriter(path: path, width: width, height: height, animated: count > 1, options: options) : nil
        apng = target == .apng ? try AnimatedPNGWriter(path: path, width: width, height: height, frameCount: count,
                                                        hasAlpha: hasAlpha, options: options, iccProfile: iccProfile) : nil
        webp = target == .webp ? try AnimatedWebPWriter(path: path, width: width, height: height, hasAlpha: hasAlpha,
                                                        options: options, iccProfile: iccProfile) : nil
        video = target == .mp4 ? try VideoPipe(path: path, width: width, height: height, rate: String(fps)) : nil
        if target == .folder { try FileIO.prepareWritableFolder(path) }
    }

    /// A GIF's first pass: frames counted for its palette.
    func sample(_ images: [Image]) throws {
        for image in images { try gif?.sample(image) }
    }

    /// Frames `indices` of the timeline, in order; PNGs are encoded on `threads` threads at once.
    func write(_ images: [Image], indices: [Int], delays: [Double], threads: Int) throws {
        if let gif {
            for (image, k) in zip(images, indices) { try gif.append(image, hundredths: hundredths[k] ?? 0) }
            return
        }
        if let video {
            for image in images { try video.write(image) }
            return
        }
        // libwebp's animation encoder takes frames one at a time, in order (it diffs each against
        // the one before).
        if let webp {
            for (image, delay) in zip(images, delays) { try webp.append(image, delay: delay) }
            return
        }
        if let apng {
            let before = [previous] + images.dropLast()
            let encoded = ResultSlots<Result<AnimatedPNGWriter.EncodedFrame, Error>>(count: images.count)
            RowBands.runEach(images.count, threads: threads) { i in encoded.set(i, Result { try apng.encode(images[i], after: before[i]) }) }
            for (i, result) in encoded.values.enumerated() { try apng.append(try result.get(), delay: delays[i]) }
            previous = images.last
            return
        }
        let encoded = ResultSlots<Result<[UInt8], Error>>(count: images.count)
        RowBands.runEach(images.count, threads: threads) { i in encoded.set(i, Result { try images[i].encoded(as: .png, options: self.options, threads: 1) }) }
        for (i, result) in encoded.values.enumerated() {
            try FileIO.writeAtomically(try result.get(), to: FileIO.joined(path, String(format: "frame-%04d.png", indices[i])))
        }
    }

    func finish() throws {
        try gif?.finish()
        try apng?.finish()
        try webp?.finish()
        try video?.finish()
    }
}
