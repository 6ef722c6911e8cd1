@testable import FrostCache
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `CacheCheck`, what `frost info DIR` prints: every level examined, each fault named on its level.
@Suite struct CacheCheckTests {
    /// Rewrites the cache's manifest with its `levels` array edited.
    static func editLevels(_ folder: TemporaryFolder, _ edit: (inout [[String: Any]]) -> Void) throws {
        let path = folder.file("manifest.json")
        var json = try JSONSerialization.jsonObject(with: Data(try FileIO.read(path))) as! [String: Any]
        var levels = json["levels"] as! [[String: Any]]
        edit(&levels)
        json["levels"] = levels
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
    }

    @Test func aSoundCacheReportsItsFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let manifest = try CacheStore.build(sourcePath: Corpus.path("pillow/jpeg/hopper.jpg"), into: folder.path,
                                            options: CacheOptions(levels: 4, maxSigma: 16, format: .webp), threads: 1)
        let check = try CacheCheck(folder: folder.path)
        #expect(check.isSound && check.manifest == manifest)
        let sizes = try manifest.levels.map { try FileIO.read(folder.file($0.file)).count }
        #expect(check.levels.map(\.bytes) == sizes && check.totalBytes == sizes.reduce(0, +))
        #expect(check.levels.allSatisfy { $0.format == .webp && $0.problem == nil })
    }

    /// Six levels broken six ways at once: each is reported on its own level, the seventh is sound.
    @Test func everyBrokenLevelIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try CacheStore.build(sourcePath: Corpus.path("photos/astronaut.png"), into: folder.path,
                             options: CacheOptions(levels: 6, maxSigma: 24), threads: 1)
        var flipped = try FileIO.read(folder.file("level-01.png"))
        flipped[flipped.count / 2] ^= 0x40
        try FileIO.writeAtomically(flipped, to: folder.file("level-01.png"))
        try FileManager.default.removeItem(atPath: folder.file("level-02.png"))
        // Level 5 stored as a JPEG whose hash the manifest carries: sound bytes, wrong format.
        let jpeg = try Image(contentsOfFile: folder.file("level-05.png")).encoded(as: .jpeg)
        try FileIO.writeAtomically(jpeg, to: folder.file("level-05.png"))
        try Self.editLevels(folder) { levels in
            levels[0]["file"] = "../level-00.png"
            levels[3]["width"] = (levels[3]["width"] as! Int) + 1
            levels[4]["sigma"] = (levels[4]["sigma"] as! Double) + 0.5
            levels[5]["sha256"] = SHA256.hex(jpeg)
        }

        let check = try CacheCheck(folder: folder.path)
        let problems = check.levels.map(\.problem)
        #expect(!check.isSound)
        #expect(problems[0] == "level file '../level-00.png' is outside the cache folder")
        #expect(problems[1] == "level-01.png does not match its SHA-256 in the manifest")
        #expect(problems[2]?.hasPrefix("level-02.png: ") == true && problems[2]?.contains("No such file") == true)
        #expect(problems[3]?.hasPrefix("level-03.png is ") == true && problems[3]?.contains(", the manifest says ") == true)
        #expect(problems[4]?.hasPrefix("level 4 (σ ") == true && problems[4]?.contains("is not the plan's level 4") == true)
        #expect(problems[5] == "level-05.png is jpeg, the cache's levels are png")
        #expect(problems[6] == nil && check.levels[6].format == .png)
        #expect(check.levels[0].bytes == nil && check.levels[1].bytes == flipped.count && check.levels[2].bytes == nil)
    }

    @Test func aPlacementThatContradictsTheFactorIsNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try CacheStore.build(sourcePath: Corpus.path("pillow/jpeg/hopper.jpg"), into: folder.path,
                             options: CacheOptions(levels: 3, maxSigma: 16), threads: 1)
        try Self.editLevels(folder) { levels in
            var placement = levels[3]["placement"] as! [String: Any]
            placement["x"] = 0
            levels[3]["placement"] = placement
        }
        let check = try CacheCheck(folder: folder.path)
        #expect(check.levels.map(\.problem) == [nil, nil, nil, "level 3's placement does not follow from its factor, margin and size"])
    }
}
