@testable import FrostCache
import FrostCodecs
import FrostCore
import FrostTestSupport
import Foundation
import Testing

@Suite struct CacheStoreTests {
    static let source = Corpus.path("pillow/jpeg/hopper.jpg")

    @Test func sha256MatchesFIPSVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func buildWritesLevelsAndAManifestThatRoundTrips() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(levels: 4, maxSigma: 16, tint: Color(white: 1, alpha: 0.2), saturation: 1.3, ramp: true)
        let manifest = try CacheStore.build(sourcePath: Self.source, into: folder.path, options: options, threads: 1)
        #expect(folder.contents() == ["level-00.png", "level-01.png", "level-02.png", "level-03.png", "level-04.png", "manifest.json"])
        let loaded = try CacheStore.load(folder.path)
        #expect(loaded.manifest == manifest)
        #expect(loaded.manifest.parameters == options && loaded.plan == options.plan)
        #expect(manifest.source.file == "hopper.jpg" && manifest.source.width == 128)
        #expect(manifest.source.sha256 == SHA256.hex(try FileIO.read(Self.source)))
        #expect(manifest.format == "frost-blur-cache" && manifest.version == 1)
        #expect(manifest.levels.map(\.factor) == [1, 1, 2, 2, 4])   // σ 5.33, 8 (raised onto the threshold), 10.7, 16
        #expect(manifest.levels[4].width == 128 / 4 + 2)   // one block of margin each side
        #expect(CacheStore.isComplete(folder.path, sourceSHA256: manifest.source.sha256, options: options))
        var other = options
        other.levels = 5
        #expect(!CacheStore.isComplete(folder.path, sourceSHA256: manifest.source.sha256, options: other))
    }

    @Test func tamperedCachesAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try CacheStore.build(sourcePath: Self.source, into: folder.path, options: CacheOptions(levels: 2, maxSigma: 6), threads: 1)
        let manifestPath = folder.file("manifest.json")
        let original = try String(contentsOfFile: manifestPath, encoding: .utf8)

        // A changed level file fails its hash.
        var bytes = try FileIO.read(folder.file("level-01.png"))
        bytes[bytes.count / 2] ^= 0xFF
        try FileIO.writeAtomically(bytes, to: folder.file("level-01.png"))
        #expect { try CacheStore.load(folder.path) } throws: { "\($0)".contains("SHA-256") }

        // A file name that leaves the folder.
        try original.replacingOccurrences(of: "\"level-00.png\"", with: "\"..\\/escape.png\"").write(toFile: manifestPath, atomically: true, encoding: .utf8)
        #expect { try CacheStore.load(folder.path) } throws: { "\($0)".contains("outside the cache folder") }

        // Another format, a missing manifest, garbage.
        try original.replacingOccurrences(of: "frost-blur-cache", with: "other").write(toFile: manifestPath, atomically: true, encoding: .utf8)
        #expect { try CacheStore.load(folder.path) } throws: { "\($0)".contains("not a cache") }
        try "{".write(toFile: manifestPath, atomically: true, encoding: .utf8)
        #expect { try CacheStore.load(folder.path) } throws: { "\($0)".contains("not a valid manifest") }
        try FileManager.default.removeItem(atPath: manifestPath)
        #expect { try CacheStore.load(folder.path) } throws: { "\($0)".contains("no manifest.json") }
    }

    @Test func jpegLevelsRefuseAlpha() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: CodecError.self) {
            try CacheStore.build(sourcePath: Corpus.repository + "/SampleImages/coffee-cutout.png", into: folder.path,
                                 options: CacheOptions(levels: 1, format: .jpeg), threads: 1)
        }
        try CacheStore.build(sourcePath: Self.source, into: folder.path, options: CacheOptions(levels: 2, format: .jpeg, quality: 80), threads: 1)
        #expect(try CacheStore.load(folder.path).manifest.levels[0].file == "level-00.jpg")
    }
}
