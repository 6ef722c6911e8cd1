// swift-tools-version: 6.0
import Foundation
import PackageDescription

// The libFuzzer binary over FrostFuzz's targets, built by `make fuzz` with
// `--sanitize=fuzzer --sanitize=address` and coverage flags; the target to run comes from
// FROST_FUZZ_TARGET. Its own package so that `swift build` of Frost never links libFuzzer's main.
// FrostFuzz is not a product of Frost's: Sources/FrostFuzz here is a link to its sources, built
// over the `Frost` library.
// A path dependency is named after its folder, which is the checkout's name.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FrostFuzzing",
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FrostFuzz", dependencies: [.product(name: "Frost", package: root)]),
        .executableTarget(
            name: "frost-fuzz",
            dependencies: ["FrostFuzz"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
