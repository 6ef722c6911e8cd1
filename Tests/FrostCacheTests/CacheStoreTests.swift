@testable import FrostCache
import FrostCodecs
import FrostCore
import FrostCrossfade
import FrostEffects
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

@Suite struct CacheStoreTests {
    static let source = Corpus.path("pillow/jpeg/hopper.jpg")

    /// FIPS 180-4 example vectors, through the Swift reference and (where the CPU has them) the SHA
    /// extensions.
    @Test(arguments: SHA256.hasExtensions ? [false, true] : [false])
    func sha256MatchesFIPSVectors(extensions: Bool) {
        func hex(_ bytes: [UInt8]) -> String {
            var hasher = SHA256(usingExtensions: extensions)
            hasher.update(bytes)
            return hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The SHA extensions and the Swift reference agree on random data fed in uneven pieces (the
    /// buffered partial block, then whole blocks, then a tail).
    @Test(.enabled(if: SHA256.hasExtensions, "this CPU has no SHA extensions"))
    func sha256ExtensionsMatchTheReference() {
        var generator = SystemRandomNumberGenerator()
        for length in [1, 63, 64, 65, 127, 128, 1000, 4096 + 17, 100_003] {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var hardware = SHA256(usingExtensions: true), reference = SHA256(usingExtensions: false)
            var start = 0
            for piece in [5, 64, 130, length].map({ min($0, length - start) }) where piece > 0 {
                let end = min(length, start + piece)
                hardware.update(Array(data[start..<end]))
                reference.update(Array(data[start..<end]))
                start = end
            }
            #expect(start == length)
            #expect(hardware.finalize() == reference.finalize(), "length \(length)")
        }
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
        #expect(manifest.format == "frost-blur-cache" && manifest.version == 2)
        #expect(manifest.levels.map(\.margin) == [0, 0, 1, 1, 1])
        #expect(manifest.levels[4].placement == CacheManifest.Placement(factor: 4, margin: 1, storedWidth: 34, storedHeight: 34))
        #expect(manifest.levels[4].geometry.x == -4 && manifest.levels[4].geometry.width == 136)
        #expect(manifest.levels.map(\.factor) == [1, 1, 2, 2, 4])   // σ 5.33, 8 (raised onto the threshold), 10.7, 16
        #expect(manifest.levels[4].width == 128 / 4 + 2)   // one block of margin each side
        #expect(CacheStore.isComplete(folder.path, sourceSHA256: manifest.source.sha256, options: options))
        var other = options
        other.blur.levels = 5
        #expect(!CacheStore.isComplete(folder.path, sourceSHA256: manifest.source.sha256, options: other))
    }

    /// Version 1 manifests (no margin, no placement) still load, with the same geometry; a batch
    /// rebuilds them.
    @Test func versionOneCachesStillLoad() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(levels: 4, maxSigma: 16)
        let manifest = try CacheStore.build(sourcePath: Self.source, into: folder.path, options: options, threads: 1)
        let path = folder.file("manifest.json")
        let json = try JSONSerialization.jsonObject(with: Data(try FileIO.read(path))) as! [String: Any]
        var old = json
        old["version"] = 1
        old["levels"] = (json["levels"] as! [[String: Any]]).map { level in
            level.filter { $0.key != "margin" && $0.key != "placement" }
        }
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path))
        let loaded = try CacheStore.load(folder.path)
        #expect(loaded.manifest.version == 1 && loaded.manifest.levels.allSatisfy { $0.placement == nil })
        #expect(loaded.manifest.levels.map(\.geometry) == manifest.levels.map(\.geometry))
        #expect(!CacheStore.isComplete(folder.path, sourceSHA256: manifest.source.sha256, options: options))
        old["version"] = 4
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: path))
        #expect(throws: CodecError(.unsupported, "cache version 4 is not supported (this frost reads 1 to 3)")) {
            try CacheStore.load(folder.path)
        }
    }

    /// The manifest's placement is all a client needs: each stored level drawn over its
    /// placement by an independent bilinear sampler (the resizer's, pixel centers aligned) and
    /// cut to the source's rectangle is the level `frost fade` shows, within one level.
    @Test func placementDrawsLevelsAsFadeDoes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try CacheStore.build(sourcePath: Corpus.path("photos/astronaut.png"), into: folder.path,
                             options: CacheOptions(levels: 6, maxSigma: 40), threads: 1)
        let loaded = try CacheStore.load(folder.path)
        let cache = CrossfadeCache(loaded)
        for (i, level) in loaded.manifest.levels.enumerated() where level.factor > 1 {
            let g = level.geometry
            let drawn = loaded.levels[i]!.resampled(over: Rect(x: g.x, y: g.y, width: g.width, height: g.height),
                                                    region: PixelBounds(x: 0, y: 0, width: 512, height: 512))
            let difference = PixelDifference(drawn, cache.level(i))
            #expect(difference.max <= 1, "level \(i), factor \(level.factor): \(difference)")
        }
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

    /// A frame needs one or two levels: only those are decoded, and every level is still verified.
    @Test func loadingSomeLevelsVerifiesTheOthers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(levels: 4, maxSigma: 16)
        try CacheStore.build(sourcePath: Self.source, into: folder.path, options: options, threads: 1)
        let all = try CacheStore.load(folder.path)
        let some = try CacheStore.load(folder.path, only: { _ in [1, 3] })
        #expect(some.levels.map { $0 != nil } == [false, true, false, true, false])
        #expect(some.levels[1] == all.levels[1] && some.levels[3] == all.levels[3])

        // A level not decoded still fails on its hash, and on a size its header contradicts.
        let manifestPath = folder.file("manifest.json")
        let original = try String(contentsOfFile: manifestPath, encoding: .utf8)
        let manifest = try CacheStore.readManifest(folder.path)
        let height = manifest.levels[4].height   // level 4 alone is this high
        let wrongHeight = original.replacingOccurrences(of: "\"height\" : \(height),", with: "\"height\" : \(height + 1),")
        #expect(wrongHeight != original)
        try wrongHeight.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        #expect { try CacheStore.load(folder.path, only: { _ in [1] }) } throws: { "\($0)".contains("the manifest says") }
        try original.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        var bytes = try FileIO.read(folder.file("level-02.png"))
        bytes[bytes.count / 2] ^= 0xFF
        try FileIO.writeAtomically(bytes, to: folder.file("level-02.png"))
        #expect { try CacheStore.load(folder.path, only: { _ in [1] }) } throws: { "\($0)".contains("level-02.png does not match its SHA-256") }
    }

    /// Level 0 of a PNG source is the source file itself, copied: loading it gives the pixels the
    /// levels were rendered from. A tinted level 0 (Twitter's set), a JPEG source and a PNG the
    /// EXIF orientation turns are encoded as before.
    @Test(arguments: [
        ("pngsuite/basn6a08.png", CacheOptions(levels: 2, maxSigma: 6), true),
        ("pngsuite/basn6a08.png", CacheOptions(preset: .twitter), false),
        ("pillow/jpeg/hopper.jpg", CacheOptions(levels: 2, maxSigma: 6), false),
        ("image-png/bugfixes/F-exif-chunk-early.png", CacheOptions(levels: 2, maxSigma: 6), false),
    ])
    func levelZeroOfAPNGIsTheSourceFile(file: String, options: CacheOptions, copied: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = try FileIO.read(Corpus.path(file))
        let manifest = try CacheStore.build(sourcePath: Corpus.path(file), into: folder.path, options: options, threads: 1)
        #expect((try FileIO.read(folder.file("level-00.png")) == source) == copied, "\(file)")
        #expect((manifest.levels[0].sha256 == manifest.source.sha256) == copied)
        let loaded = try CacheStore.load(folder.path)
        let decoded = try Image(decoding: source)
        #expect(loaded.levels[0]!.width == decoded.width && loaded.levels[0]!.height == decoded.height)
        if copied { #expect(loaded.levels[0] == decoded.premultiplied()) }
    }

    /// JPEG levels of a transparent source are its levels drawn over a background (white, or
    /// `background`): the manifest says so, and the pixels are the flattened source's levels.
    @Test func jpegLevelsFlattenTransparencyAndSaySo() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cutout = Corpus.repository + "/SampleImages/coffee-cutout.png"
        let white = try CacheStore.build(sourcePath: cutout, into: folder.file("white"), options: CacheOptions(levels: 1, format: .jpeg), threads: 1)
        #expect(white.flattenedOnto == Color.white && white.levels.map(\.file) == ["level-00.jpg", "level-01.jpg"])
        var black = CacheOptions(levels: 1, format: .png)
        black.background = Color(white: 0, alpha: 1)
        let onBlack = try CacheStore.build(sourcePath: cutout, into: folder.file("black"), options: black, threads: 1)
        #expect(onBlack.flattenedOnto == Color(white: 0, alpha: 1) && onBlack.parameters.background == Color(white: 0, alpha: 1))
        let level0 = try #require(try CacheStore.load(folder.file("black")).levels[0])
        let expected = try Image(contentsOfFile: cutout).flattened(onto: Color(white: 0, alpha: 1))
        #expect(level0.pixels == expected.premultiplied().pixels)
        let opaque = try CacheStore.build(sourcePath: Self.source, into: folder.file("opaque"), options: CacheOptions(levels: 2, format: .jpeg, quality: 80), threads: 1)
        #expect(opaque.flattenedOnto == nil)
    }

    /// Without its source level a cache is version 3: its levels begin at 1, it loads (level 0
    /// nil, refused when asked for), and level files named by content change with it.
    @Test func aCacheWithoutItsSourceLevelIsVersionThree() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let web = CacheOptions.web(BlurCacheSpec(levels: 3, maxSigma: 12))
        let manifest = try CacheStore.build(sourcePath: Self.source, into: folder.file("c"), options: web, threads: 1)
        #expect(manifest.version == 3 && manifest.levels.map(\.index) == [1, 2, 3] && manifest.parameters.format == .webp)
        for level in manifest.levels {
            #expect(level.file == String(format: "level-%02d-", level.index) + level.sha256.prefix(8) + ".webp")
            #expect(level.bytes == (try FileIO.read(folder.file("c/" + level.file))).count)
        }
        let loaded = try CacheStore.load(folder.file("c"), only: { _ in [1, 3] })
        #expect(loaded.levels[0] == nil && loaded.levels[1] != nil && loaded.fileBytes[0] == 0)
        #expect(throws: CodecError.self) { try CacheStore.load(folder.file("c")) }
        #expect(try CacheCheck(folder: folder.file("c")).isSound)
        #expect(try CacheStore.completeManifest(folder.file("c"), options: web) != nil)
        // Another quality: other bytes, other names; the old names are gone with the old cache.
        var other = web
        other.webpQuality = 60
        let rebuilt = try CacheStore.build(sourcePath: Self.source, into: folder.file("c"), options: other, threads: 1)
        #expect(Set(rebuilt.levels.map(\.file)).isDisjoint(with: manifest.levels.map(\.file)))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("c"))
        #expect(folder.contents() == ["c"] && Set(files) == Set(rebuilt.levels.map(\.file) + ["manifest.json"]))
    }

    /// A complete cache is told from its manifest and a stat of each level: a level of another
    /// size, or missing, makes it incomplete; the source's stamp is recorded.
    @Test func completenessIsToldWithoutReadingTheLevels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(levels: 2, maxSigma: 6)
        let manifest = try CacheStore.build(sourcePath: Self.source, into: folder.path, options: options, threads: 1)
        let source = try #require(try Storage.info(Self.source))
        #expect(manifest.source.identity == source.identity)
        #expect(manifest.source.isSource(source))
        #expect(manifest.source.identity?.hasPrefix("inode:") == true && manifest.source.identity?.contains("/mtime:") == true)
        #expect(try CacheStore.completeManifest(folder.path, options: options) == manifest)
        // The folder swapped in is readable by others, as a plain mkdir makes it (a web server
        // serves it), not mkdtemp's 0700.
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as! Int
        #expect(mode & 0o005 == 0o005, "mode \(String(mode, radix: 8))")
        try FileIO.writeAtomically([1, 2, 3], to: folder.file("level-01.png"))
        #expect(try CacheStore.completeManifest(folder.path, options: options) == nil)
        #expect(ObjectInfo.fileIdentity(inode: 12, seconds: 1_700_000_000, nanoseconds: 5_000) == "inode:12/mtime:1700000000.000005000")
    }

    /// A level or manifest whose lookup fails (here a symbolic link loop, ELOOP: root passes
    /// permission checks) is an error naming it, not an incomplete cache to build again.
    @Test func aLevelThatCannotBeLookedUpIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(levels: 2, maxSigma: 6)
        try CacheStore.build(sourcePath: Self.source, into: folder.path, options: options, threads: 1)
        for name in ["level-01.png", "manifest.json"] {
            let path = folder.file(name), kept = folder.file(name + ".kept")
            try FileManager.default.moveItem(atPath: path, toPath: kept)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: name)
            let error = try #require(throws: CodecError.self) { try CacheStore.completeManifest(folder.path, options: options) }
            #expect(error.message == "cannot look up \(path): Too many levels of symbolic links", "\(error)")
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: kept, toPath: path)
        }
        #expect(try CacheStore.completeManifest(folder.path, options: options) != nil)
    }

    /// A preset's manifest records the numbers it renders with (Twitter's: linear radii with
    /// saturation 1.5), and reads back as the same options.
    @Test func aPresetsManifestRecordsWhatItRenders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let options = CacheOptions(preset: .twitter, format: .jpeg)
        try CacheStore.build(sourcePath: Self.source, into: folder.path, options: options, threads: 1)
        let json = try JSONSerialization.jsonObject(with: Data(try FileIO.read(folder.file("manifest.json")))) as! [String: Any]
        let parameters = json["parameters"] as! [String: Any]
        #expect(parameters["spacing"] as? String == "linear" && parameters["saturation"] as? Double == 1.5)
        #expect(parameters["maxRadius"] as? Double == 30 && parameters["levels"] as? Int == 10 && parameters["preset"] as? String == "twitter")
        #expect(try CacheStore.completeManifest(folder.path, options: options) != nil)
    }
}
