import ArgumentParser
import FrostCore
#if canImport(Glibc)
import Glibc
#endif

@main
struct Frost: ParsableCommand {
    static func main() {
        MemoryPolicy.keepFreedBuffers(upTo: 1 << 30)
        // Past a file-size limit (ulimit -f) a write must fail with EFBIG and be reported against
        // its file, not end the whole batch with SIGXFSZ.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        var verb: (name: String, command: any ParsableCommand.Type)?
        if let name = arguments.first, !name.hasPrefix("-"), name != "help" {
            guard let command = configuration.subcommands.first(where: { $0._commandName == name }) else {
                exitWithUsageError("unknown verb '\(name)'\(suggestion(for: name, in: verbs)); 'frost --help' lists them")
            }
            verb = (name, command)
        }
        do {
            var command: any ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch {
                // A misspelt option is the mistake to name, before any complaint about a value. Looked
                // for only when the line does not parse: the help it is looked up in takes 2–3 ms to
                // make, which every command would pay.
                if let verb { checkOptionNames(arguments.dropFirst(), verb: verb.name, command: verb.command) }
                throw error
            }
            try command.run()
        } catch {
            // Help, --version and exit statuses chosen by a command go out as ArgumentParser
            // writes them; a command line that cannot be understood is one line on stderr.
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            exitWithUsageError(message(for: error))
        }
    }

    /// Exits naming the first option of `arguments` (up to `--`) that `command` does not have.
    static func checkOptionNames(_ arguments: ArraySlice<String>, verb: String, command: any ParsableCommand.Type) {
        let options = arguments.prefix(while: { $0 != "--" }).filter { $0.hasPrefix("--") }
        guard !options.isEmpty else { return }
        let known = optionNames(in: helpMessage(for: command))
        for argument in options {
            let name = String(argument.prefix(while: { $0 != "=" }))
            if !known.contains(name) {
                exitWithUsageError("\(verb): unknown option '\(name)'\(suggestion(for: name, in: known)); 'frost \(verb) --help' lists them")
            }
        }
    }

    /// `frost: <reason>` and exit status 64: nothing was read.
    static func exitWithUsageError(_ reason: String) -> Never {
        writeError("frost: \(reason.split(separator: "\n").joined(separator: "; "))\n")
        Glibc.exit(ExitCode.validationFailure.rawValue)
    }

    /// The verbs' names, for "did you mean".
    static var verbs: [String] { configuration.subcommands.map { $0._commandName } }

    /// Raised by each stop that changes what users see (docs/development.md, "Releases").
    static let version = "0.49.0"

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
        version: version,
        subcommands: [Info.self, Convert.self, FilterVerb<BlurStep>.self, FilterVerb<EffectStep>.self, FilterVerb<AdjustStep>.self,
                      FilterVerb<ResizeStep>.self, Run.self, Cache.self, Fade.self, Sheet.self, Page.self, Placeholder.self, Compose.self, Animate.self, Bench.self]
    )
}
