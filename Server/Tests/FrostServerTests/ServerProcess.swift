import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A `frost-serve` started for a test on an ephemeral loopback port, stopped (SIGTERM) at the end.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let output = Pipe()
    private let errors = Pipe()

    /// The server built beside the tests.
    static let binary: String = {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return tests.path + "/.build/debug/frost-serve"
    }()

    /// Starts `frost-serve --bind 127.0.0.1:0 ARGUMENTS` (or `executable ARGUMENTS --bind …`) and
    /// waits for its "listening on" line.
    init(_ arguments: [String], executable: String = ServerProcess.binary, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = executable == Self.binary ? ["--bind", "127.0.0.1:0"] + arguments : arguments + ["--bind", "127.0.0.1:0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw ServerError("frost-serve ended: \(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))") }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("frost serve: listening on http://127.0.0.1:"),
              let port = Int(text.split(separator: ":").last!.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerError("unexpected first line: \(text)")
        }
        self.port = port
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// SIGTERM, then the exit status.
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the server logged (after `stop`).
    func log() -> String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One answer: status, headers and body.
struct Answer: Sendable {
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]
    func header(_ name: String) -> String? { headers.first(name: name) }
}

enum HTTP {
    static let client = HTTPClient(eventLoopGroupProvider: .singleton)

    /// A client that answers redirects instead of following them.
    static let unfollowing = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    static func get(_ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], follow: Bool = true) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await (follow ? client : unfollowing).execute(request, timeout: .seconds(60))
        var body: [UInt8] = []
        for try await var chunk in response.body { body += chunk.readBytes(length: chunk.readableBytes) ?? [] }
        return Answer(status: Int(response.status.code), headers: response.headers, body: body)
    }
}
