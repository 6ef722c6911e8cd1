// swift-tools-version: 6.2
import Foundation
import PackageDescription

// `frost serve` (docs/serve.md): the image service over HTTP, Hummingbird 2 on SwiftNIO. Its own
// package so that the engine's builds (debug, release, sanitizers) never compile the server's
// dependencies; it uses Frost by path, through the `FrostService` product. A path dependency is
// named after its folder, which is the checkout's name.
let frost = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FrostServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
    ],
    targets: [
        .target(name: "CSwiftTaskHook"),
        .target(name: "FrostServer", dependencies: [
            "CSwiftTaskHook",
            .product(name: "FrostService", package: frost),
            .product(name: "FrostCore", package: frost),
            .product(name: "FrostCodecs", package: frost),
            .product(name: "FrostStorage", package: frost),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "frost-serve", dependencies: [
            "FrostServer",
            .product(name: "FrostStorage", package: frost),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "FrostServerTests", dependencies: [
            "FrostServer",
            .product(name: "FrostService", package: frost),
            .product(name: "FrostTestSupport", package: frost),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
