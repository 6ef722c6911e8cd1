// swift-tools-version: 6.0
import PackageDescription

// Layout and import rules: docs/design.md, Modules. Lower modules never import higher ones.
let package = Package(
    name: "Frost",
    // `Frost` is the front door (one import); the areas stay importable one by one. The C shims,
    // the bench cases and the fuzz targets are not products: Benchmarks/ builds its own copy of
    // FrostBench from these sources (a symbolic link) over `Frost`.
    products: [
        .library(name: "Frost", targets: ["Frost"]),
        .library(name: "FrostCore", targets: ["FrostCore"]),
        .library(name: "FrostColor", targets: ["FrostColor"]),
        .library(name: "FrostCodecs", targets: ["FrostCodecs"]),
        .library(name: "FrostStorage", targets: ["FrostStorage"]),
        .library(name: "FrostFiles", targets: ["FrostFiles"]),
        .library(name: "FrostEffects", targets: ["FrostEffects"]),
        .library(name: "FrostCache", targets: ["FrostCache"]),
        .library(name: "FrostCrossfade", targets: ["FrostCrossfade"]),
        .library(name: "FrostClients", targets: ["FrostClients"]),
        .library(name: "FrostCompose", targets: ["FrostCompose"]),
        .library(name: "FrostMotion", targets: ["FrostMotion"]),
        .library(name: "FrostStream", targets: ["FrostStream"]),
        .library(name: "FrostService", targets: ["FrostService"]),
        // For Server/'s tests: the corpus, the CLI runner and the S3 test server, as the engine's tests have them.
        .library(name: "FrostTestSupport", targets: ["FrostTestSupport"]),
        .executable(name: "frost", targets: ["frost"]),
    ],
    // Exact versions: the container image and CI build what was tested (Package.resolved is not kept).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // `make docs`: the Frost module's DocC catalog as a static site.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        // The only code that touches libpng / libjpeg / libdeflate / libwebp / libavif / libheif / giflib / libimagequant;
        // every setjmp/longjmp stays in here. libavif and libheif are opened on first use (lazy_library.h).
        .target(
            name: "CFrostCodecs",
            dependencies: ["CFrostSystem"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("deflate"),
                            .linkedLibrary("webp"), .linkedLibrary("webpmux"), .linkedLibrary("webpdemux"),
                            .linkedLibrary("gif"), .linkedLibrary("imagequant")]
        ),
        // Allocator policy for the tool and benchmarks (glibc mallopt); vector operations and the
        // prefetch Swift lacks.
        .target(name: "CFrostSystem"),
        .target(name: "FrostCore", dependencies: ["CFrostSystem"]),
        // Colour: ICC profiles read and pixels converted by lcms2 (opened on first use, colour.c).
        .target(name: "FrostColor", dependencies: ["FrostCore", "CFrostCodecs"], exclude: ["Profiles/README.md"],
                resources: [.embedInCode("Profiles/default-cmyk-fogra39.icc")]),
        .target(name: "FrostCodecs", dependencies: ["FrostCore", "FrostColor", "CFrostCodecs", "CFrostSystem"]),
        // HTTP through libcurl (Debian's libcurl4-openssl-dev) for the S3 store: one typed request call.
        .target(name: "CFrostCurl", linkerSettings: [.linkedLibrary("curl")]),
        // Object storage: a local folder and an S3 bucket behind one set of calls (docs/storage.md).
        .target(name: "FrostStorage", dependencies: ["FrostCore", "FrostCodecs", "CFrostCurl", "CFrostSystem"]),
        // Files: whole reads, atomic writes, images and animations by path, many-file batches.
        .target(name: "FrostFiles", dependencies: ["FrostCore", "FrostCodecs", "FrostStorage"]),
        .target(name: "FrostEffects", dependencies: ["FrostCore", "CFrostSystem"]),
        .target(name: "FrostCache", dependencies: ["FrostCore", "FrostColor", "FrostEffects", "FrostCodecs", "FrostFiles", "FrostStream", "CFrostSystem"]),
        .target(name: "FrostCrossfade", dependencies: ["FrostCore", "FrostEffects", "FrostCache"]),
        // What a client needs to show a cache or a picture still loading: the web page, BlurHash, ThumbHash.
        .target(name: "FrostClients", dependencies: ["FrostCore", "FrostColor", "FrostEffects", "FrostCache", "FrostCrossfade"]),
        // Decode → operations → encode as a pipeline over strips of rows on every core (docs/design.md, Streaming).
        .target(name: "FrostStream", dependencies: ["FrostCore", "FrostColor", "FrostEffects", "FrostCodecs", "FrostFiles", "CFrostSystem"]),
        // FreeType 2 for text (Debian libfreetype-dev; flags from freetype2.pc).
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "FrostCompose", dependencies: ["FrostCore", "FrostColor", "FrostEffects", "FrostCodecs", "FrostFiles", "CFreeType"]),
        .target(name: "FrostMotion", dependencies: ["FrostCore", "FrostCodecs", "FrostFiles", "FrostEffects", "FrostCache", "FrostCrossfade", "FrostCompose"]),
        .target(name: "Frost", dependencies: ["FrostCore", "FrostColor", "FrostCodecs", "FrostStorage", "FrostFiles", "FrostEffects", "FrostCache", "FrostCrossfade", "FrostClients",
                                              "FrostCompose", "FrostMotion", "FrostStream"]),
        // imgproxy's URLs on the library (docs/serve.md): parsing, signing, options, processing;
        // `frost serve` (Server/) puts it behind HTTP.
        .target(name: "FrostService", dependencies: ["FrostCore", "FrostColor", "FrostCodecs", "FrostFiles", "FrostEffects", "FrostCache", "FrostCrossfade",
                                                     "FrostClients", "FrostStream"]),
        // What the fuzzers (`make fuzz`) and the replay of their findings feed bytes to, and the
        // fuzzer's binary: with libFuzzer under `make fuzz` (FROST_LIBFUZZER), else a replay tool.
        .target(name: "FrostFuzz", dependencies: ["Frost", "FrostService"]),
        .executableTarget(name: "frost-fuzz", dependencies: ["FrostFuzz", "FrostCodecs", "FrostFiles"]),
        // The named benchmark cases, shared by `frost bench` and Benchmarks/.
        .target(name: "FrostBench", dependencies: ["Frost"]),
        .executableTarget(
            name: "frost",
            dependencies: [
                "FrostCore", "FrostColor", "FrostCodecs", "FrostFiles", "FrostEffects", "FrostCache", "FrostCrossfade", "FrostClients", "FrostCompose", "FrostMotion",
                "FrostStream", "FrostService", "FrostBench", "CFrostSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Corpus lookup, CRC-32 and pixel comparisons shared by the test targets.
        .target(name: "FrostTestSupport", dependencies: ["FrostCore", "FrostCodecs", "FrostFiles"], path: "Tests/FrostTestSupport"),
        .testTarget(name: "FrostCoreTests", dependencies: ["FrostCore", "FrostTestSupport"]),
        .testTarget(name: "FrostColorTests", dependencies: ["FrostColor", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostCodecsTests", dependencies: ["FrostCodecs", "FrostColor", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostEffectsTests", dependencies: ["FrostEffects", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostCacheTests", dependencies: ["FrostCache", "FrostCrossfade", "FrostClients", "FrostEffects", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostClientsTests", dependencies: ["FrostClients", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostComposeTests", dependencies: ["FrostCompose", "FrostEffects", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostMotionTests", dependencies: ["FrostMotion", "FrostCore", "FrostCompose", "FrostCrossfade", "FrostCache", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostStreamTests", dependencies: ["FrostStream", "FrostEffects", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostFuzzTests", dependencies: ["FrostFuzz", "FrostCodecs", "FrostFiles", "FrostCompose", "FrostTestSupport"]),
        .testTarget(name: "FrostTests", dependencies: ["Frost", "FrostTestSupport"]),
        .testTarget(name: "FrostServiceTests", dependencies: ["FrostService", "FrostCore", "FrostCodecs", "FrostFiles", "FrostTestSupport"]),
        .testTarget(name: "FrostStorageTests", dependencies: ["FrostStorage", "FrostCore", "FrostTestSupport"]),
        .testTarget(name: "FrostCLITests", dependencies: ["FrostCodecs", "FrostFiles", "FrostCache", "FrostTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
