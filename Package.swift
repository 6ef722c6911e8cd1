// swift-tools-version: 6.0
import PackageDescription

// Layout and import rules: ../shared/DESIGN.md §1. Lower modules never import higher ones.
let package = Package(
    name: "Frost",
    products: [
        .library(name: "FrostCore", targets: ["FrostCore"]),
        .library(name: "FrostCodecs", targets: ["FrostCodecs"]),
        .executable(name: "frost", targets: ["frost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The only code that touches libpng / libjpeg; every setjmp/longjmp stays in here.
        .target(
            name: "CFrostCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        .target(name: "FrostCore"),
        .target(name: "FrostCodecs", dependencies: ["FrostCore", "CFrostCodecs"]),
        .executableTarget(
            name: "frost",
            dependencies: [
                "FrostCore", "FrostCodecs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Corpus lookup, CRC-32 and pixel comparisons shared by the test targets.
        .target(name: "FrostTestSupport", dependencies: ["FrostCore", "FrostCodecs"], path: "Tests/FrostTestSupport"),
        .testTarget(name: "FrostCoreTests", dependencies: ["FrostCore", "FrostTestSupport"]),
        .testTarget(name: "FrostCodecsTests", dependencies: ["FrostCodecs", "FrostTestSupport"]),
        .testTarget(name: "FrostCLITests", dependencies: ["FrostCodecs", "FrostTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
