@testable import FrostCache
@testable import FrostCodecs
import FrostCore
@testable import FrostFiles
import FrostTestSupport
import Foundation
import Testing

@Suite struct BatchTests {
    /// A folder with three good images (one nested) and two bad ones.
    static func catalog() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("nested"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Corpus.path("pillow/jpeg/hopper.jpg"), toPath: folder.file("a.jpg"))
        try FileManager.default.copyItem(atPath: Corpus.path("pngsuite/basn6a08.png"), toPath: folder.file("nested/b.png"))
        try FileManager.default.copyItem(atPath: Corpus.path("photos/coffee.png"), toPath: folder.file("c.PNG"))
        try FileManager.default.copyItem(atPath: Corpus.path("pngsuite/xcsn0g01.png"), toPath: folder.file("broken.png"))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: folder.file("text.jpg")))
        return folder
    }

    static let options = CacheOptions(levels: 3, maxSigma: 10)

    @Test func badInputsFailAloneAndTheRestIsBuilt() throws {
        let input = try Self.catalog(), output = try TemporaryFolder()
        defer { input.remove(); output.remove() }
        var build = BatchBuild(inputs: try FileBatch.inputs(from: input.path), output: output.path, options: Self.options)
        build.jobs = 2
        let outcomes = build.run { _, _, _ in }
        let byName = Dictionary(uniqueKeysWithValues: zip(build.inputs.map(\.relative), outcomes.map(\.status)))
        #expect(byName["a.jpg"] == .built && byName["nested/b.png"] == .built && byName["c.PNG"] == .built)
        #expect(byName["broken.png"] == .failed && byName["text.jpg"] == .failed, "bad inputs must fail: \(byName)")
        #expect(outcomes.allSatisfy { ($0.status == .failed) == ($0.error != nil) })
        #expect(FileManager.default.fileExists(atPath: output.file("nested/b.png.frost/manifest.json")))
        #expect(!FileManager.default.fileExists(atPath: output.file("broken.png.frost/manifest.json")))
    }

    /// An interrupted run (a cache half written, another with a stale manifest) resumes: complete
    /// caches are skipped, the rest rebuilt, and every cache ends complete and valid.
    @Test func resumeAfterAnInterruptedRun() throws {
        let input = try Self.catalog(), output = try TemporaryFolder()
        defer { input.remove(); output.remove() }
        try FileManager.default.removeItem(atPath: input.file("broken.png"))
        try FileManager.default.removeItem(atPath: input.file("text.jpg"))
        let build = BatchBuild(inputs: try FileBatch.inputs(from: input.path), output: output.path, options: Self.options)
        #expect(build.run { _, _, _ in }.map(\.status) == [.built, .built, .built])
        // Interrupt: cache a.jpg loses its manifest mid-rebuild, c.PNG gets a corrupted level and
        // a leftover temporary file. Its source is unchanged (the manifest still vouches for it):
        // the level's size, not the one recorded, is what tells the cache is not complete.
        try FileManager.default.removeItem(atPath: output.file("a.jpg.frost/manifest.json"))
        try FileIO.writeAtomically([1, 2, 3], to: output.file("c.PNG.frost/level-02.png"))
        try Data([0]).write(to: URL(fileURLWithPath: output.file("c.PNG.frost/.level-03.png.frost-AbCdEf")))
        let outcomes = build.run { _, _, _ in }
        let byName = Dictionary(uniqueKeysWithValues: zip(build.inputs.map(\.relative), outcomes.map(\.status)))
        #expect(byName == ["a.jpg": .built, "c.PNG": .built, "nested/b.png": .skipped])
        for input in build.inputs { #expect(throws: Never.self) { _ = try CacheStore.load(build.folder(for: input)) } }
        #expect(!FileManager.default.fileExists(atPath: output.file("c.PNG.frost/.level-03.png.frost-AbCdEf")))
        #expect(build.run { _, _, _ in }.map(\.status) == [.skipped, .skipped, .skipped])
    }

    /// A cache made with the same effective options is complete whatever flags spelled them: the
    /// default σ given or left out (a manifest records `maxSigma` only when given), JPEG's white
    /// background given or left out. A different σ still rebuilds.
    @Test func defaultsGivenOrLeftOutAreTheSameCache() throws {
        let input = try Self.catalog(), output = try TemporaryFolder()
        defer { input.remove(); output.remove() }
        for name in ["broken.png", "text.jpg", "c.PNG", "nested/b.png"] { try FileManager.default.removeItem(atPath: input.file(name)) }
        let inputs = try FileBatch.inputs(from: input.path)
        func statuses(_ options: CacheOptions) -> [BatchBuild.Status] {
            BatchBuild(inputs: inputs, output: output.path, options: options).run { _, _, _ in }.map(\.status)
        }
        #expect(statuses(CacheOptions(levels: 2)) == [.built])
        #expect(statuses(CacheOptions(levels: 2, maxSigma: BlurCacheSpec.defaultMaxSigma)) == [.skipped])
        #expect(statuses(CacheOptions(levels: 2)) == [.skipped])
        #expect(statuses(CacheOptions(levels: 2, maxSigma: 30)) == [.built])
        var jpeg = CacheOptions(levels: 2, format: .jpeg)
        #expect(statuses(jpeg) == [.built])
        jpeg.background = EncodeOptions.defaultBackground
        #expect(statuses(jpeg) == [.skipped])
        jpeg.background = Color(red: 0, green: 0, blue: 0)
        #expect(statuses(jpeg) == [.built])
    }

    @Test func shardsAreDisjointAndComplete() {
        let inputs = (0..<500).map { FileBatch.Input(relative: "photos/\($0 % 7)/img-\($0).jpg", path: "/x/\($0)") }
        for n in [1, 2, 3, 8] {
            let shards = (0..<n).map { FileBatch.shard(inputs, index: $0, of: n) }
            #expect(shards.map(\.count).reduce(0, +) == inputs.count)
            #expect(Set(shards.flatMap { $0.map(\.relative) }).count == inputs.count)
            if n > 1 { #expect(shards.allSatisfy { !$0.isEmpty }) }
        }
        // Deterministic: the FNV-1a hash is fixed, not Swift's per-process seeded hash.
        #expect(FileBatch.fnv1a("a") == 0xaf63dc4c8601ec8c)
    }

    @Test func listFilesNameInputsRelativeToTheList() throws {
        let input = try Self.catalog()
        defer { input.remove() }
        try "# catalog\na.jpg\n\nnested/b.png\n".write(toFile: input.file("list.txt"), atomically: true, encoding: .utf8)
        let inputs = try FileBatch.inputs(from: input.file("list.txt"))
        #expect(inputs.map(\.relative) == ["a.jpg", "nested/b.png"])
        #expect(inputs[1].path == input.file("nested/b.png"))
    }
}
