import ArgumentParser
import FrostCodecs
@_spi(Kernels) import FrostCore
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

/// Runs `body`; an error is reported against `file` and becomes exit status 1, and what a decode
/// warns of is reported against it too (`warningsReported`).
func attempt<T>(_ file: String, _ body: () throws -> T) throws -> T {
    do {
        return try warningsReported(file, body)
    } catch {
        report(file, error)
        throw ExitCode.failure
    }
}

/// Runs `body` with what a decode warns of (a profile it ignores: `DecodeWarnings`) reported as
/// `frost: <file>: warning: …`, each warning once however often the file is read.
func warningsReported<T>(_ file: String, _ body: () throws -> T) rethrows -> T {
    let said = Locked<Set<String>>([])
    return try DecodeWarnings.reporting(to: { message in
        if said.withLock({ $0.insert(message).inserted }) { report(file, "warning: " + message) }
    }, body)
}
