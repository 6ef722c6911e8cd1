import ArgumentParser
import CFrostSystem
#if canImport(Glibc)
import Glibc
#endif

@main
struct Frost: ParsableCommand {
    static func main() {
        frost_keep_freed_buffers(1 << 30)
        // Past a file-size limit (ulimit -f) a write must fail with EFBIG and be reported against
        // its file, not end the whole batch with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "frost",
        abstract: "Image effects engine: blur, color, blur caches, crossfades and snapshot compositing.",
        discussion: """
        Inputs are images (by content, whatever their names), folders (walked; links out of them are \
        refused) or - for standard input; a list of paths is read only through --inputs-from LIST. \
        Nothing is written outside the folder or %s pattern that -o names.

        Exit status: 0 when every input was written, 1 when some input failed (each reported as \
        'frost: <file>: <reason>' while the others finish), 64 when the command line cannot be \
        understood (nothing is read then).
        """,
        subcommands: [Info.self, Convert.self, FilterVerb<BlurStep>.self, FilterVerb<EffectStep>.self, FilterVerb<AdjustStep>.self,
                      FilterVerb<ResizeStep>.self, Run.self, Cache.self, Fade.self, Sheet.self, Page.self, Compose.self, Animate.self, Bench.self]
    )
}
