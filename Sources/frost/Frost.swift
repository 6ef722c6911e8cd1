import ArgumentParser

@main
struct Frost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frost",
        abstract: "Image effects engine: blur, color, blur caches and crossfades.",
        subcommands: [Info.self, Convert.self]
    )
}
