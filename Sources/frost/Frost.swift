import ArgumentParser
import Foundation
import FrostCore
import FrostEffects
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
        // The server parses its own line (its --help included).
        if arguments.first == "serve" { Serve.exec(Array(arguments.dropFirst())) }
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
            let text = message(for: error)
            exitWithUsageError(valueMessage(text) ?? text)
        }
    }

    /// ArgumentParser's "The value 'X' is invalid for '--opt <opt>'. Please provide one of the
    /// following: …" as one line that names the nearest accepted value: the option's listed values,
    /// or for a colour the CSS and palette names.
    static func valueMessage(_ text: String) -> String? {
        guard text.hasPrefix("The value '"), let quote = text.dropFirst(11).firstIndex(of: "'"),
              let forRange = text.range(of: "' is invalid for '") else { return nil }
        let value = String(text[text.index(text.startIndex, offsetBy: 11)..<quote])
        let option = String(text[forRange.upperBound...].prefix(while: { $0 != " " && $0 != "'" }))
        func notAColour(_ colour: String) -> String {
            let names = (Array(Color.palette.keys) + Array(Color.cssNames.keys) + ["transparent"]).sorted()
            return "\(option): '\(colour)' is not a colour\(suggestion(for: colour, in: names)) (a CSS colour: red, #f00, #ff000080, rgb(255 0 0 / 50%), transparent; white:W@A; or one of \(Color.palette.keys.sorted().joined(separator: ", ")))"
        }
        var values: [String] = []
        if let list = text.range(of: "Please provide one of the following:") {
            values = text[list.upperBound...].split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
        } else if text.contains("<color>") {
            return notAColour(value)
        } else if option == "--preset" {
            if value.hasPrefix("tint:") { return notAColour(String(value.dropFirst(5))) }
            values = EffectParameters.presetNames
        } else if option == "--colorspace" {
            values = ColorFlags.Space.allValueStrings
        }
        guard !values.isEmpty else { return "\(option): '\(value)' is not a valid value" }
        return "\(option): '\(value)' is not one of \(values.joined(separator: ", "))\(suggestion(for: value, in: values))"
    }

    /// Exits naming the first option of `arguments` (up to `--`) that `command` does not have.
    static func checkOptionNames(_ arguments: ArraySlice<String>, verb: String, command: any ParsableCommand.Type) {
        // Long options, and short ones (`-w`; not a negative number, not `-` alone).
        let isShort = { (a: String) in a.count == 2 && a.hasPrefix("-") && a.last!.isLetter }
        let options = arguments.prefix(while: { $0 != "--" }).filter { $0.hasPrefix("--") || isShort($0) }
        guard !options.isEmpty else { return }
        let known = optionNames(in: helpMessage(for: command))
        for argument in options {
            let name = String(argument.prefix(while: { $0 != "=" }))
            if !known.contains(name) {
                // A short option's nearest is the long one of that letter (-w: --width), not another letter.
                let hint = isShort(name) ? known.first { $0.hasPrefix("-" + name) }.map { " (did you mean \($0)?)" } ?? ""
                                         : suggestion(for: name, in: known)
                exitWithUsageError("\(verb): unknown option '\(name)'\(hint); 'frost \(verb) --help' lists them")
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
    static let version = "0.57.0"

    static let configuration = CommandConfiguration(
        commandName: "frost",
        abstract: "Image effects engine: blur, color, blur caches, crossfades and snapshot compositing.",
        discussion: """
        Inputs are images (by content, whatever their names), folders (walked; links out of them are \
        refused) or - for standard input; a list of paths is read only through --inputs-from LIST. \
        Nothing is written outside the folder or %s pattern that -o names.

        Exit status: 0 when every input was written, 1 when some input failed (each reported as \
        'frost: <file>: <reason>' while the others finish), 64 when the command line cannot be \
        understood (nothing is read then). cache --batch tells them apart: 3 when it finished with \
        some inputs failed, 1 when it could not run (frost cache --help).
        """,
        version: version,
        subcommands: [Info.self, Convert.self, FilterVerb<BlurStep>.self, FilterVerb<EffectStep>.self, FilterVerb<AdjustStep>.self,
                      FilterVerb<ResizeStep>.self, Run.self, Cache.self, Fade.self, Sheet.self, Page.self, Placeholder.self, Compose.self, Animate.self, Serve.self, Bench.self]
    )
}
