// swift-tools-version: 6.1
import PackageDescription

// Regression benchmarks, kept out of the root package so `make test` never builds the harness.
// `make bench` runs them: `swift package benchmark` in this folder.
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
        .executableTarget(
            name: "FrostBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "FrostCore", package: "main"),
                .product(name: "FrostCodecs", package: "main"),
                .product(name: "FrostBench", package: "main"),
                .product(name: "CFrostSystem", package: "main"),
            ],
            path: "Benchmarks/FrostBenchmarks",
            swiftSettings: [.unsafeFlags(["-Xcc", "-march=x86-64-v3"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
