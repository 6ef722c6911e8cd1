// frost-requests FOLDER OUTPUT [IN_FLIGHT] [ROUNDS]
//
// A server's load through the library's async door: every JPEG in FOLDER is a request (read the
// upload, decode, blur σ 8, encode WebP quality 80, write), issued IN_FLIGHT at a time (16 unless
// given): a new request starts as soon as one finishes. Each is one `ComputeBudget.request`, so a
// started request's jobs go before later requests' (FIFO=1: plain first come, first served). Prints the wall time, throughput and the
// 50th and 99th percentile latency of each round; the same work as
// `frost blur FOLDER/*.jpg --sigma 8 -o 'OUTPUT/%s.webp' --quality 80 --jobs N` (docs/performance.md,
// "Concurrent requests").
import Foundation
import Frost

func request(_ url: URL, into output: URL) async throws(CodecError) {
    let upload: Data
    do { upload = try Data(contentsOf: url) } catch { throw CodecError(.io, "\(error)", file: url.path) }
    let image = try await Image(data: upload)
    let blurred = await image.gaussianBlurred(sigma: 8)
    let webp = try await blurred.encoded(.webp(.lossy(quality: 80)))
    do {
        try webp.write(to: output.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".webp"), options: .atomic)
    } catch {
        throw CodecError(.io, "\(error)", file: url.path)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: frost-requests FOLDER OUTPUT [IN_FLIGHT] [ROUNDS]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[0]), output = URL(fileURLWithPath: arguments[1])
let inFlight = arguments.count > 2 ? Int(arguments[2]) ?? 16 : 16
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
let fifo = ProcessInfo.processInfo.environment["FIFO"] == "1"
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
let uploads = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    .filter { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.path < $1.path }
MemoryPolicy.keepFreedBuffers(upTo: 1 << 30)

for round in 1...rounds {
    let start = ContinuousClock.now
    var latencies: [Duration] = []
    try await withThrowingTaskGroup(of: Duration.self) { group in
        var next = 0
        func issue() {
            let url = uploads[next]
            next += 1
            group.addTask {
                let issued = ContinuousClock.now
                if fifo {
                    try await request(url, into: output)
                } else {
                    try await ComputeBudget.shared.request { try await request(url, into: output) }
                }
                return ContinuousClock.now - issued
            }
        }
        while next < min(inFlight, uploads.count) { issue() }
        while let latency = try await group.next() {
            latencies.append(latency)
            if next < uploads.count { issue() }
        }
    }
    let wall = ContinuousClock.now - start
    func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
    let sorted = latencies.map(ms).sorted()
    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)] }
    print(String(format: "round %d: %d requests, %d in flight: %.0f ms, %.1f requests/s, latency p50 %.0f ms, p99 %.0f ms",
                 round, uploads.count, inFlight, ms(wall), Double(uploads.count) / (ms(wall) / 1000), percentile(0.5), percentile(0.99)))
}
