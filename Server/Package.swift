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
    // Exact versions, the packages' own dependencies too (listed after the used ones): the
    // container image and CI build what was tested, since Package.resolved is not kept.
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-algorithms.git", exact: "1.2.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", exact: "1.1.4"),
        .package(url: "https://github.com/apple/swift-atomics.git", exact: "1.3.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", exact: "1.4.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", exact: "1.7.3"),
        .package(url: "https://github.com/apple/swift-http-structured-headers.git", exact: "1.7.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", exact: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", exact: "1.28.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", exact: "1.1.1"),
        .package(url: "https://github.com/apple/swift-service-context.git", exact: "1.5.1"),
        .package(url: "https://github.com/apple/swift-system", exact: "1.8.1"),
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
            .product(name: "HummingbirdCore", package: "hummingbird"),
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
            .product(name: "FrostCore", package: frost),
            .product(name: "FrostService", package: frost),
            .product(name: "FrostTestSupport", package: frost),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
