import ArgumentParser
import FrostCache
import FrostClients
import FrostCodecs
import FrostCrossfade
import FrostFiles
import Foundation

struct Page: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "A web page that shows a blur cache, fading its levels as the page scrolls (no framework, no network).",
        discussion: """
        Writes one HTML file that loads the cache's level files from where they are (relative to \
        the page). Scrolling H pixels goes from the source to the most blurred level, as \
        frost fade DIR --offset Y --start 0 --end H does at offset Y.
        """)

    @Argument(help: "A cache folder.")
    var folder: String

    @Option(name: [.customShort("o"), .long], help: "The page to write (.html), or - for standard output (the levels then named from the working folder).")
    var output: String

    static let heightRange = OptionRange(1, 100_000)

    @Option(parsing: .unconditional, help: "Pixels of scrolling over which the fade runs, \(heightRange) (default: the image's height).")
    var height: Double?

    /// The fade modes a page can show: each frame is a blend of stored levels (`exact` needs a
    /// blur per frame, which a page does not do).
    enum Mode: String, CaseIterable, ExpressibleByArgument {
        case blend, nearest, alpha
        var fadeMode: FadeMode { FadeMode(rawValue: rawValue)! }
    }

    @Option(help: "blend (variance-matched, default), nearest (Twitter's buckets) or alpha (Secret's fade).")
    var mode: Mode = .blend

    func validate() throws {
        try Self.heightRange.check(height, "--height")
    }

    func run() throws {
        let manifest = try attempt(folder) {
            let loaded = try CacheStore.load(folder, only: { _ in [] })   // every level file verified, none decoded
            guard loaded.manifest.level(0) != nil else {
                throw CodecError(.unsupported, "the cache has no level 0, the source (built with --no-source-level): the page shows the source there, which only the app has")
            }
            return loaded.manifest
        }
        let base = output == "-" ? FileManager.default.currentDirectoryPath : (absolute(output) as NSString).deletingLastPathComponent
        let relative = relativePath(from: absolute(base), to: absolute(folder))
        let html = CachePage.html(manifest, source: { file in
            (relative.isEmpty ? file : relative + "/" + file).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file
        }, scrollHeight: height ?? Double(manifest.source.height), mode: mode.fadeMode)
        let summary = "\(manifest.levels.count) levels of \(manifest.source.width)x\(manifest.source.height), \(mode.rawValue)"
        if output == "-" {
            try attempt("<stdout>") { try FileIO.writeStandardOutput(Array(html.utf8)) }
            writeError("<stdout>: \(summary)\n")   // standard output holds the page alone
        } else {
            try attempt(output) { try FileIO.writeAtomically(Array(html.utf8), to: output) }
            print("\(output): \(summary)")
        }
    }

    private func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }

    /// `target` as seen from the folder `base` (both absolute): ../ up to their common folder, then down.
    private func relativePath(from base: String, to target: String) -> String {
        let b = base.split(separator: "/"), t = target.split(separator: "/")
        let common = zip(b, t).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: b.count - common) + t[common...].map(String.init)).joined(separator: "/")
    }
}
