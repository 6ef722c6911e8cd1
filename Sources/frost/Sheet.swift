import ArgumentParser
import FrostCache
import FrostCodecs
import FrostCompose
import FrostCore
import FrostCrossfade
import FrostEffects

struct Sheet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "A contact sheet of a cache's levels, left to right and top to bottom from level 0.",
        discussion: """
        Each cell is labelled with its level, σ, the stored size (with its reduction) and the file's
        bytes, in DejaVu Sans (Debian's fonts-dejavu-core); --no-labels leaves them out.
        """)

    @Argument(help: "A cache folder.")
    var folder: String

    @Option(name: .customShort("o"), help: "Output image, or - (PNG on standard output).")
    var output: String

    static let columnsRange = OptionRange(1, 64)
    static let cellWidthRange = OptionRange(16, 4096)

    @Option(parsing: .unconditional, help: "Levels per row, \(columnsRange).")
    var columns: Int = 4

    @Option(parsing: .unconditional, help: "Width of each cell in pixels, \(cellWidthRange).")
    var cellWidth: Int = 320

    @Flag(inversion: .prefixedNo, help: "Label each cell with its level, σ, stored size and bytes.")
    var labels = true

    @OptionGroup var encode: EncodeFlags
    @OptionGroup var color: ColorFlags

    func validate() throws {
        _ = try encode.format(writing: output)
        try Self.columnsRange.check(columns, "--columns")
        try Self.cellWidthRange.check(cellWidth, "--cell-width")
    }

    func run() throws {
        let loaded = try attempt(folder) { try CacheStore.load(folder) }
        let cache = CrossfadeCache(loaded), count = cache.levels.count
        // The load verified every level file; the captions need nothing more from disk.
        let captions = labels ? zip(loaded.manifest.levels, loaded.fileBytes).map(Self.caption) : []
        var sheet = try attempt(output) {
            try Image.contactSheet((0..<count).map { cache.level($0) }, labels: captions, columns: columns,
                                   cellWidth: min(cellWidth, cache.width))
        }
        // The levels' pixels are in the source's colour space: so is the sheet.
        sheet.iccProfile = loaded.levels.lazy.compactMap { $0?.iccProfile }.first
        try attempt(output) { try write(sheet, to: output, encode: encode, color: color) }
        print("\(output): \(count) levels, \(columns) per row")
    }

    /// "level 3 · σ 2.37" over "1024x768 (1/2) · 403 kB".
    static func caption(_ e: CacheManifest.Level, _ bytes: Int) -> String {
        "level \(e.index) · σ \(decimal(e.sigma))\n\(e.width)x\(e.height)" + (e.factor > 1 ? " (1/\(e.factor))" : "") + " · " + byteCount(bytes)
    }
}
