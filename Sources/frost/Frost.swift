import ArgumentParser
import CFrostSystem

@main
struct Frost: ParsableCommand {
    static func main() {
        frost_keep_freed_buffers(1 << 30)
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
        subcommands: [Info.self, Convert.self, Blur.self, Effect.self, Adjust.self, Cache.self, Fade.self, Sheet.self, Compose.self, Animate.self, Bench.self]
    )
}
