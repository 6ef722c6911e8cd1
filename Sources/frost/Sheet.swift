import ArgumentParser
import FrostCache
import FrostCodecs
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
        let cellW = min(cellWidth, cache.width)
        let cellH = max(1, cache.height * cellW / cache.width)
        let gap = 8
        let count = cache.levels.count
        let rows = (count + columns - 1) / columns
        let sheetW = columns * cellW + (columns + 1) * gap, sheetH = rows * cellH + (rows + 1) * gap
        var sheet = Image(width: sheetW, height: sheetH, filledWith: (32, 32, 32, 255))
        sheet.hasAlpha = false
        for i in 0..<count {
            let cell = cache.level(i).resized(width: cellW, height: cellH).unpremultiplied()
            let x0 = gap + (i % columns) * (cellW + gap), y0 = gap + (i / columns) * (cellH + gap)
            for y in 0..<cellH {
                for x in 0..<cellW {
                    let s = (y * cellW + x) * 4, d = ((y0 + y) * sheetW + x0 + x) * 4
                    let a = UInt32(cell.pixels[s + 3])
                    for c in 0..<3 {   // over the dark background
                        sheet.pixels[d + c] = UInt8((UInt32(cell.pixels[s + c]) * a + 32 * (255 - a) + 127) / 255)
                    }
                }
            }
        }
        try attempt(output) { try sheet.write(toFile: output, options: encode.options) }
        print("\(output): \(count) levels, \(columns) per row")
    }
}
