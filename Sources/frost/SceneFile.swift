import ArgumentParser
import FrostCodecs
import FrostCompose
import FrostMotion

/// The options `compose` and `animate` share: where the scene is seen and how it is drawn.
struct SceneFlags: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Scroll offset in points (negative: pulled down): the still's, or the one held while a time timeline runs.", valueName: "Y"))
    var scroll: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Time in seconds: the still's, or the one held while a scroll timeline runs.", valueName: "T"))
    var time: Double = 0

    static let scaleRange = OptionRange(0, 16, excludingLower: true)

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Device pitch in radians (Core Motion's attitude): the still's, or the one held while another driver runs.", valueName: "P"))
    var pitch: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Device roll in radians: the still's, or the one held while another driver runs.", valueName: "R"))
    var roll: Double = 0

    @Option(parsing: .unconditional, help: "Pixels per point, instead of the scene's scale, \(scaleRange).")
    var scale: Double?

    @Flag(help: "Render on a transparent canvas whatever the scene's background (PNG with alpha).")
    var clearBackground = false

    @Flag(help: "Blend the layers and resample pictures in linear light (a translucent white over black shows as much light as it lets through). Off by default: Core Animation blends sRGB values, and so do the seed apps' looks.")
    var linear = false

    @Option(help: ArgumentHelp("Refuse every file the scene names (images, masks, textures, fonts, cache folders) unless it lies inside this folder, links followed: for scene files from others.", valueName: "DIR"))
    var assetsRoot: String?

    @OptionGroup var decode: DecodeFlags

    /// The limits the scene and its files are read with.
    var options: DecodeOptions {
        var options = decode.options
        options.assetsRoot = assetsRoot
        return options
    }

    /// Every driver at the values given.
    var state: DriverState { DriverState(scroll: scroll, time: time, pitch: pitch, roll: roll) }

    func validate() throws {
        try Self.scaleRange.check(scale, "--scale")
        guard [scroll, time, pitch, roll].allSatisfy(\.isFinite) else { throw ValidationError("--scroll, --time, --pitch and --roll must be numbers") }
    }
}

/// A scene file as `compose` and `animate` read it (`MotionFile`, with the flags' scale and
/// background), named as the user gave it.
struct SceneFile {
    let name: String
    let contents: MotionFile
    /// `--linear`.
    let linear: Bool
    var motion: MotionScene { contents.motion }

    /// `path` may be - for standard input (files then relative to the current folder).
    init(_ path: String, flags: SceneFlags) throws {
        name = path == "-" ? "<stdin>" : path
        linear = flags.linear
        contents = try attempt(name) {
            try MotionFile(path: path, options: flags.options) { motion in
                if let scale = flags.scale { motion.scene.scale = scale }
                if flags.clearBackground { motion.scene.background = .clear }
            }
        }
    }

    /// The renderer of its frames (blurred layers' levels built here, once).
    func renderer(threads: Int?) throws -> MotionRenderer {
        try attempt(name) { try contents.renderer(threads: threads, linear: linear) }
    }
}
