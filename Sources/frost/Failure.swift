import ArgumentParser
import FrostCodecs
#if canImport(Glibc)
import Glibc
#endif

/// Prints `frost: <file>: <reason>` on stderr: the one-line error every subcommand uses.
func report(_ file: String, _ error: any Error) {
    report(file, describe(error))
}

func report(_ file: String, _ reason: String) {
    var line = "frost: \(file): \(reason)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// An error as the one line users see.
func describe(_ error: any Error) -> String {
    (error as? CodecError)?.message ?? String(describing: error)
}

/// Runs `body`; an error is reported against `file` and becomes exit status 1.
func attempt<T>(_ file: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        report(file, error)
        throw ExitCode.failure
    }
}
