import ArgumentParser
import FrostCodecs
import FrostCompose
import FrostCore
import FrostMotion

struct Compose: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene (JSON: canvas and layers) into an image; a motion scene at a scroll offset and time.",
        discussion: "Files named in the scene are relative to the scene file's folder (the current folder for stdin). "
            + "Schema: docs/scenes.md. A still of a motion scene equals the frame `frost animate` renders at the same driver values, bit for bit.")

    @Argument(help: "Scene JSON file, or - for standard input.")
    var scene: String

    @Option(name: .shortAndLong, help: "Output image: .png, .jpg or .jpeg.")
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Scroll offset in points for a motion scene (negative: pulled down; default 0).", valueName: "Y"))
    var scroll: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("Time in seconds for a motion scene (default 0).", valueName: "T"))
    var time: Double = 0

    @Option(help: "Pixels per point, instead of the scene's scale.")
    var scale: Double?

    @Flag(help: "Render on a transparent canvas whatever the scene's background (PNG with alpha).")
    var clearBackground = false

    @OptionGroup var encode: EncodeFlags
    @OptionGroup var threads: ThreadsFlag

    func validate() throws {
        _ = try outputFormat(output)
        if let scale, !(scale.isFinite && scale > 0 && scale <= 16) { throw ValidationError("--scale must be above 0 and at most 16") }
        guard scroll.isFinite, time.isFinite else { throw ValidationError("--scroll and --time must be numbers") }
    }

    func run() throws {
        let file = try SceneFile(scene, scale: scale, clearBackground: clearBackground)
        let image: Image
        if file.motion.motions.isEmpty && file.motion.timeline == nil {
            image = try attempt(file.name) { try file.motion.scene.rendered(assets: file.assets, threads: threads.threads) }
        } else {
            let renderer = try file.renderer(threads: threads.threads)
            image = try attempt(file.name) { try renderer.frame(at: DriverState(scroll: scroll, time: time)) }
        }
        try attempt(output) { try image.write(toFile: output, options: encode.options) }
    }
}
