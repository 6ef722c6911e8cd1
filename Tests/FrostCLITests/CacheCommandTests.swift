import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// `frost cache`, `fade` and `sheet` as a user runs them.
@Suite struct CacheCommandTests {
    static let photo = Corpus.path("pillow/jpeg/hopper.jpg")

    @Test func cacheFadeAndSheet() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = folder.file("c")
        let built = try FrostRun.run(["cache", Self.photo, "-o", cache, "--levels", "5", "--max-sigma", "12"])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("6 levels of 128x128"))
        let fade = try FrostRun.run(["fade", cache, "--fraction", "0.37", "-o", folder.file("f.png")])
        #expect(fade.status == 0, "\(fade.stderr)")
        #expect(try Image(contentsOfFile: folder.file("f.png")).width == 128)
        for mode in ["nearest", "alpha"] {
            let run = try FrostRun.run(["fade", cache, "--offset", "30", "--start", "0", "--end", "100", "--ease", "--mode", mode, "-o", folder.file("\(mode).jpg")])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let frames = try FrostRun.run(["fade", cache, "--frames", "5", "-o", folder.file("sweep")])
        #expect(frames.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("sweep")).sorted() == (0..<5).map { String(format: "frame-%04d.png", $0) })
        let sheet = try FrostRun.run(["sheet", cache, "-o", folder.file("sheet.png"), "--columns", "3", "--cell-width", "64", "--no-labels"])
        #expect(sheet.status == 0, "\(sheet.stderr)")
        let info = try ImageInfo(contentsOfFile: folder.file("sheet.png"))
        #expect(info.width == 3 * 64 + 4 * 8 && info.height == 2 * 64 + 3 * 8)
    }

    /// A labelled sheet has a band of text under each cell: light gray pixels on the background,
    /// a different picture for each level's different words, and the cells themselves the
    /// unlabelled sheet's.
    @Test func sheetLabelsEachCell() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = folder.file("c")
        #expect(try FrostRun.run(["cache", Corpus.path("photos/astronaut.png"), "-o", cache, "--levels", "3", "--max-sigma", "12"]).status == 0)
        for labels in ["--labels", "--no-labels"] {
            let run = try FrostRun.run(["sheet", cache, "-o", folder.file("\(labels).png"), "--columns", "2", "--cell-width", "256", labels])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let plain = try Image(contentsOfFile: folder.file("--no-labels.png"))
        let labelled = try Image(contentsOfFile: folder.file("--labels.png"))
        let band = (labelled.height - plain.height) / 2, cell = (plain.width - 3 * 8) / 2
        #expect(cell == 256 && labelled.width == plain.width && band >= 25 && band <= 40, "cell \(cell), band \(band)")
        // Cell k sits at (8 + (k % 2)·264, 8 + (k / 2)·(h + band + 8)), its label under it.
        let h = (plain.height - 3 * 8) / 2
        func region(_ image: Image, _ k: Int, label: Bool = false) -> [UInt8] {
            let row = h + (image.height > plain.height ? band : 0) + 8
            let x = 8 + (k % 2) * (cell + 8), y = 8 + (k / 2) * row + (label ? h : 0)
            return image.cropped(to: PixelBounds(x: x, y: y, width: cell, height: label ? band : h)).pixels
        }
        for k in 0..<4 {
            let same = region(labelled, k) == region(plain, k)
            #expect(same, "cell \(k) moved or changed")
            let text = region(labelled, k, label: true)
            let red = stride(from: 0, to: text.count, by: 4).map { text[$0] }
            let lit = red.filter { $0 > 120 }.count
            #expect(lit > 150 && (red.max() ?? 0) <= 220, "label \(k): \(lit) light pixels, brightest \(red.max() ?? 0)")
        }
        let differ = region(labelled, 1, label: true) != region(labelled, 2, label: true)
        #expect(differ, "two levels' labels are the same picture")
    }

    @Test func infoOnACacheListsAndChecksItsLevels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = folder.file("c")
        #expect(try FrostRun.run(["cache", Self.photo, "-o", cache, "--levels", "3", "--max-sigma", "12", "--format", "webp"]).status == 0)
        let text = try FrostRun.run(["info", cache, Self.photo])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 1 + 4 + 1)
        #expect(lines[0].hasPrefix("\(cache): frost blur cache v2 of hopper.jpg 128x128, 4 levels, gaussian to σ 12, webp, "))
        #expect(lines[4].hasPrefix("  level 3  σ 12  ") && lines[4].contains(" 1/2 ") && lines[1...4].allSatisfy { $0.hasSuffix("webp  ok") })
        #expect(lines[5].hasPrefix("\(Self.photo): jpeg 128x128"))

        let json = try FrostRun.run(["info", "--json", cache])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        let levels = object["levels"] as! [[String: Any]]
        #expect(object["ok"] as? Bool == true && object["version"] as? Int == 2 && levels.count == 4)
        let total = try (0..<4).map { try FileIO.read(folder.file("c/level-0\($0).webp")).count }
        #expect(levels.map { $0["bytes"] as? Int } == total && object["bytes"] as? Int == total.reduce(0, +))
        #expect(levels[3]["factor"] as? Int == 2 && levels[3]["margin"] as? Int == 1 && levels[3]["problem"] is NSNull)

        var bytes = try FileIO.read(folder.file("c/level-01.webp"))
        bytes[bytes.count / 2] ^= 0x10
        try FileIO.writeAtomically(bytes, to: folder.file("c/level-01.webp"))
        try FileManager.default.removeItem(atPath: folder.file("c/level-02.webp"))
        let broken = try FrostRun.run(["info", cache])
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("frost: \(cache): level-01.webp does not match its SHA-256 in the manifest\nfrost: \(cache): level-02.webp: "))
        #expect(broken.stdout.contains(", BROKEN\n") && broken.stdout.contains("webp  ok\n  level 1 "))

        // A folder of caches and images (a batch's output): each listed, the broken cache failing the run.
        #expect(try FrostRun.run(["cache", Self.photo, "-o", folder.file("more/d"), "--levels", "2", "--max-sigma", "6"]).status == 0)
        try FileIO.writeAtomically(try FileIO.read(Self.photo), to: folder.file("more/e.jpg"))
        let all = try FrostRun.run(["info", folder.path])
        #expect(all.status == 1 && all.stderr.hasPrefix("frost: \(cache): level-01.webp"))
        let heads = all.stdout.split(separator: "\n").filter { !$0.hasPrefix("  ") }.map { String($0.prefix(while: { $0 != ":" })) }
        #expect(heads == [cache, folder.file("more/d"), folder.file("more/e.jpg")])
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let nothing = try FrostRun.run(["info", empty, Self.photo])
        #expect(nothing.status == 1 && nothing.stderr == "frost: \(empty): no caches or images in this folder\n")
        #expect(nothing.stdout.hasPrefix("\(Self.photo): jpeg 128x128"))
    }

    @Test func presetsAndTwoImageFade() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for preset in ["twitter", "secret"] {
            let run = try FrostRun.run(["cache", Self.photo, "-o", folder.file(preset), "--preset", preset, "--format", "jpg", "--quality", "85"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let twitter = try String(contentsOfFile: folder.file("twitter/manifest.json"), encoding: .utf8)
        #expect(twitter.contains("\"imageEffects\"") && twitter.contains("level-10.jpg"))
        let blend = try FrostRun.run(["fade", Self.photo, Corpus.path("pillow/jpeg/hopper_gray.jpg"), "--fraction", "0.5", "-o", folder.file("mix.png")])
        #expect(blend.status == 0, "\(blend.stderr)")
        let mismatch = try FrostRun.run(["fade", Self.photo, Corpus.path("photos/coffee.png"), "--fraction", "0.5", "-o", folder.file("no.png")])
        #expect(mismatch.status == 1 && mismatch.stderr.contains("blending needs one size"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("no.png")))
    }

    @Test func usageAndCacheErrors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let both = try FrostRun.run(["cache", Self.photo, "-o", folder.file("x"), "--max-sigma", "3", "--max-radius", "3"])
        #expect(both.status != 0 && both.status != 1 && both.stderr.contains("--max-radius"))
        let notACache = try FrostRun.run(["fade", folder.path, "--fraction", "0.5", "-o", folder.file("o.png")])
        #expect(notACache.status == 1)
        #expect(notACache.stderr == "frost: \(folder.path): not a cache (no manifest.json)\n")
        let badShard = try FrostRun.run(["cache", "--batch", folder.path, "-o", folder.file("out"), "--shard", "4/4"])
        #expect(badShard.status != 0 && badShard.stderr.contains("--shard"))
    }

    @Test func batchReportsFailuresAndSummarises() throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        defer { input.remove(); output.remove() }
        try FileManager.default.copyItem(atPath: Self.photo, toPath: input.file("good.jpg"))
        try Data("junk".utf8).write(to: URL(fileURLWithPath: input.file("bad.png")))
        let run = try FrostRun.run(["cache", "--batch", input.path, "-o", output.path, "--levels", "2", "--jobs", "2"])
        #expect(run.status == 3)   // done, with an input that failed
        #expect(run.stderr.contains("frost: \(input.file("bad.png")): not a PNG, JPEG, WebP, AVIF, HEIC or GIF file"))
        #expect(run.stderr.contains("built 1, skipped 0, failed 1"))
        let again = try FrostRun.run(["cache", "--batch", input.path, "-o", output.path, "--levels", "2"])
        #expect(again.stderr.contains("built 0, skipped 1, failed 1"))
        // Two shards cover the catalog once.
        let shard0 = try FrostRun.run(["cache", "--batch", input.path, "-o", output.path, "--levels", "2", "--shard", "0/2", "--force"])
        let shard1 = try FrostRun.run(["cache", "--batch", input.path, "-o", output.path, "--levels", "2", "--shard", "1/2", "--force"])
        let lines = (shard0.stderr + shard1.stderr).split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(lines.count == 2)
    }

    /// kill -9 at several moments of a batch, then a rerun: every cache ends complete and valid.
    @Test(arguments: [0.05, 0.2, 0.5])
    func killedBatchResumes(after seconds: Double) throws {
        let input = try TemporaryFolder(), output = try TemporaryFolder()
        defer { input.remove(); output.remove() }
        for i in 0..<6 { try FileManager.default.copyItem(atPath: Corpus.path("pillow/jpeg/hopper.jpg"), toPath: input.file("p\(i).png")) }
        let args = ["cache", "--batch", input.path, "-o", output.path, "--levels", "4", "--max-sigma", "16"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FrostRun.binary)
        process.arguments = args
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: seconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let rerun = try FrostRun.run(args)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        for i in 0..<6 {
            let verify = try FrostRun.run(["fade", output.file("p\(i).png.frost"), "--fraction", "1", "-o", output.file("check\(i).png")])
            #expect(verify.status == 0, "cache \(i): \(verify.stderr)")
        }
    }

    /// A rebuild into the same folder with fewer levels, in another format, leaves exactly the new
    /// cache: no level file of the old one.
    @Test func aRebuildLeavesNoStaleLevels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let cache = folder.file("c")
        #expect(try FrostRun.run(["cache", Self.photo, "-o", cache, "--levels", "4", "--max-sigma", "6"]).status == 0)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: cache + "/level-notes.txt"))
        let again = try FrostRun.run(["cache", Self.photo, "-o", cache, "--levels", "2", "--max-sigma", "6", "--format", "webp"])
        #expect(again.status == 0, "\(again.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        #expect(files == ["level-00.webp", "level-01.webp", "level-02.webp", "level-notes.txt", "manifest.json"], "\(files)")
        #expect(try FrostRun.run(["info", cache]).status == 0)
    }

    /// The sheet of a cache whose source has an ICC profile carries that profile (its colours are
    /// the source's colours).
    @Test func theSheetKeepsTheSourcesICCProfile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.path("image-png/bugfixes/F-exif-chunk-early.png")
        let profile = try #require(try Image(contentsOfFile: source).iccProfile)
        #expect(try FrostRun.run(["cache", source, "-o", folder.file("c"), "--levels", "2", "--max-sigma", "4"]).status == 0)
        for name in ["sheet.png", "sheet.jpg"] {
            let sheet = try FrostRun.run(["sheet", folder.file("c"), "-o", folder.file(name), "--no-labels"])
            #expect(sheet.status == 0, "\(sheet.stderr)")
            #expect(try Image(contentsOfFile: folder.file(name)).iccProfile == profile, "\(name)")
        }
    }
}
