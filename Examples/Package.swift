// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A package that uses Frost as any other package would: by path, through the `Frost` product
// alone. `make test` builds and runs it. A path dependency is named after its folder, which is
// the checkout's name.
let frost = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "FrostExamples",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "blurred-thumbnails", dependencies: [.product(name: "Frost", package: frost)]),
    ],
    swiftLanguageModes: [.v6]
)
