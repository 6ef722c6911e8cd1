import ArgumentParser
import FrostCache
import FrostCodecs
import FrostCompose
import FrostCore
import FrostCrossfade
import FrostEffects

struct Sheet: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A contact sheet of a cache's levels, left to right and top to bottom from level 0.")

    @Argument(help: "A cache folder.")
    var folder: String

    @Option(name: .customShort("o"), help: "Output image.")
    var output: String

    @Option(help: "Levels per row.")
    var columns: Int = 4

    @Option(help: "Width of each cell in pixels.")
    var cellWidth: Int = 320

    @OptionGroup var encode: EncodeFlags

    func validate() throws {
        _ = try outputFormat(output)
        guard (1...64).contains(columns) else { throw ValidationError("--columns must be between 1 and 64") }
        guard (16...4096).contains(cellWidth) else { throw ValidationError("--cell-width must be between 16 and 4096") }
    }

    func run() throws {
        let cache = CrossfadeCache(try attempt(folder) { try CacheStore.load(folder) })
        let count = cache.levels.count
        let sheet = Image.contactSheet((0..<count).map { cache.level($0) }, columns: columns, cellWidth: min(cellWidth, cache.width))
        try attempt(output) { try sheet.write(toFile: output, options: encode.options) }
        print("\(output): \(count) levels, \(columns) per row")
    }
}
