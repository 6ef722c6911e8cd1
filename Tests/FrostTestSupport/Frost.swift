import Foundation

/// Runs the built `frost` binary ($FROST_BIN, else .build/debug/frost) and captures its output.
public struct FrostRun: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    /// Standard output as bytes (an image written to `-`).
    public let stdoutBytes: [UInt8]

    /// The `frost: <file>: <reason>` lines of standard error, without the progress and summary
    /// lines a batch writes there too.
    public var errorLines: [String] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("frost: ") }.map(String.init)
    }

    public static let binary: String = ProcessInfo.processInfo.environment["FROST_BIN"]
        ?? Corpus.repository + "/.build/debug/frost"

    /// `environment` replaces variables of the test's own environment (PATH without ffmpeg, say).
    /// `executable` runs another program instead (a shell that sets a limit, then runs frost).
    public static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
                           executable: String = binary) throws -> FrostRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Both pipes are drained at once, before waiting, so a full pipe cannot block the child
        // (a batch's error lines can fill standard error while standard output is being read).
        nonisolated(unsafe) var errData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return FrostRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                        stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: [UInt8](outData))
    }
}

/// A fresh temporary folder, removed by `remove()`.
public struct TemporaryFolder {
    public let path: String
    public init() throws {
        path = NSTemporaryDirectory() + "frost-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    public func file(_ name: String) -> String { path + "/" + name }
    public func contents() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
