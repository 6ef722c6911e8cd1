// swift-tools-version: 6.1
import PackageDescription

// Regression benchmarks, kept out of the root package so `make test` never builds the harness.
// `make bench` runs them: `swift package benchmark` in this folder. FrostBench (the named cases
// `frost bench` runs too) is not a product of Frost's: Benchmarks/FrostBenchCases is a link to its
// sources, built here over the `Frost` library. A path dependency is named after its folder.
import Foundation
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FrostBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        // The MallocInterposer trait alone: the default traits pull a runtime interposer this
        // machine's package mirror does not carry.
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // A server's load through the library's async calls (docs/performance.md, "Concurrent requests").
        .executableTarget(name: "frost-requests", dependencies: [.product(name: "Frost", package: root)], path: "Requests"),
        // Named apart from the root's FrostBench target: target names are unique across a package graph.
        .target(name: "FrostBenchCases", dependencies: [.product(name: "Frost", package: root)], path: "Benchmarks/FrostBenchCases"),
        .executableTarget(
            name: "FrostBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "Frost", package: root),
                "FrostBenchCases",
            ],
            path: "Benchmarks/FrostBenchmarks",
            swiftSettings: [.unsafeFlags(["-Xcc", "-march=x86-64-v3"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
