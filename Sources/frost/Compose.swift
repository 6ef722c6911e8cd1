import ArgumentParser
import FrostCodecs
import FrostCompose
import FrostCore
import FrostMotion

struct Compose: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose",
        abstract: "Render a scene (JSON: its size, background and layers) into an image; a motion scene at a scroll offset and time.",
        discussion: "Files named in the scene are relative to the scene file's folder (the current folder for stdin). "
            + "Schema: docs/scenes.md. A still of a motion scene equals the frame `frost animate` renders at the same driver values, bit for bit.")

    @Argument(help: "Scene JSON file, or - for standard input.")
    var file: String

    @Option(name: .shortAndLong, help: "Output image: .png, .jpg, .jpeg, .webp, .avif, .gif, or - (PNG on standard output).")
    var output: String

    @OptionGroup var scene: SceneFlags
    @OptionGroup var encode: EncodeFlags
    @OptionGroup var color: ColorFlags
    @OptionGroup var threads: ThreadsFlag

    func validate() throws {
        _ = try encode.format(writing: output)
    }

    func run() throws {
        let file = try SceneFile(self.file, flags: scene)
        let image: Image
        if file.motion.motions.isEmpty && file.motion.timeline == nil {
            image = try attempt(file.name) { try file.motion.scene.rendered(assets: file.contents.assets, threads: threads.threads, linear: scene.linear) }
        } else {
            let renderer = try file.renderer(threads: threads.threads)
            image = try attempt(file.name) { try renderer.frame(at: scene.state) }
        }
        try attempt(output) { try write(image, to: output, encode: encode, color: color) }
    }
}
