import ArgumentParser
import FrostCodecs
import FrostCompose
import FrostCore

struct Compose: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a scene (JSON: canvas and layers) into an image.",
        discussion: "Files named in the scene are relative to the scene file's folder (the current folder for stdin). Schema: README, \"Scenes\".")

    @Argument(help: "Scene JSON file, or - for standard input.")
    var scene: String

    @Option(name: .shortAndLong, help: "Output image: .png, .jpg or .jpeg.")
    var output: String

    @Option(help: "Pixels per point, instead of the scene's scale.")
    var scale: Double?

    @Flag(help: "Render on a transparent canvas whatever the scene's background (PNG with alpha).")
    var clearBackground = false

    @OptionGroup var encode: EncodeFlags
    @OptionGroup var threads: ThreadsFlag

    func validate() throws {
        _ = try outputFormat(output)
        if let scale, !(scale.isFinite && scale > 0 && scale <= 16) { throw ValidationError("--scale must be above 0 and at most 16") }
    }

    func run() throws {
        let name = scene == "-" ? "<stdin>" : scene
        var parsed = try attempt(name) { try Scene(json: try FileIO.read(scene == "-" ? "/dev/stdin" : scene)) }
        if let scale { parsed.scale = scale }
        if clearBackground { parsed.background = .clear }
        let folder = scene == "-" ? "" : String(scene[..<(scene.lastIndex(of: "/") ?? scene.startIndex)])
        let image = try attempt(name) { try parsed.rendered(assets: try SceneAssets(for: parsed, relativeTo: folder), threads: threads.threads) }
        try attempt(output) { try image.write(toFile: output, options: encode.options) }
    }
}
