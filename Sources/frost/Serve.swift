import ArgumentParser
import Foundation
import FrostFiles
#if canImport(Glibc)
import Glibc
#endif

/// `frost serve`: the image service, a program of its own (`frost-serve`, built from Server/ by
/// `make serve-build`) so that the engine never links an HTTP stack; this verb finds it and hands
/// it the command line (exec: the same process, signals included).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve images by URL, imgproxy-compatible (frost serve --help lists the flags; docs/serve.md).",
        discussion: """
        frost serve --root DIR --bind 127.0.0.1:8080 --key HEX --salt HEX. Runs frost-serve, looked for beside \
        this frost, then in the checkout's Server/.build/release and debug, then on PATH (FROST_SERVE names it).
        """)

    @Argument(parsing: .captureForPassthrough, help: "The server's flags.")
    var arguments: [String] = []

    func run() throws { Self.exec(arguments) }

    /// Replaces this process with frost-serve given `arguments`; exits 64 when there is none.
    static func exec(_ arguments: [String]) -> Never {
        guard let program = program() else {
            Frost.exitWithUsageError("serve: frost-serve is not built (make serve-build builds Server/)")
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, &argv)
        Frost.exitWithUsageError("serve: cannot run \(program): \(String(cString: strerror(errno)))")
    }

    /// Where frost-serve is.
    static func program() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let named = env["FROST_SERVE"] { return named }
        var candidates: [String] = []
        if let exe = FileIO.realPath("/proc/self/exe") {
            let folder = (exe as NSString).deletingLastPathComponent
            candidates.append(folder + "/frost-serve")
            if let build = folder.range(of: "/.build/", options: .backwards) {
                let root = String(folder[..<build.lowerBound])
                candidates += [root + "/Server/.build/release/frost-serve", root + "/Server/.build/debug/frost-serve"]
            }
        }
        candidates += (env["PATH"] ?? "").split(separator: ":").map { $0 + "/frost-serve" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
