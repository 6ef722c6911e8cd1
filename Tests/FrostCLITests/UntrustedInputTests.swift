import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// Files from others never steer frost: a file's bytes are only ever decoded as an image (never read
/// as a list of paths), lists are read only through --inputs-from, nothing is written outside the
/// folder or pattern -o names, and the exit status says what happened (0 all written, 1 inputs
/// failed, 64 a command line that cannot be understood).
@Suite struct UntrustedInputTests {
    /// Every regular file under `root` (relative path → bytes), the output folders left out.
    static func snapshot(_ root: String, except skipped: [String] = []) -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)!
        while let relative = walker.nextObject() as? String {
            if skipped.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                files[relative] = FileManager.default.contents(atPath: root + "/" + relative)
            }
        }
        return files
    }

    /// A small image that no test input is: were it read, its size would show in an output.
    static func bait(in folder: TemporaryFolder) throws -> String {
        let path = folder.file("bait/photo.png")
        try FileManager.default.createDirectory(atPath: folder.file("bait"), withIntermediateDirectories: true)
        try Image(width: 7, height: 5, pixels: [UInt8](repeating: 200, count: 7 * 5 * 4)).write(toFile: path)
        return path
    }

    /// A progressive JPEG whose last scan repeats 2000 times (6 s of CPU on 2048² before) is
    /// refused by every verb that decodes it, in one line; the streamed path too.
    @Test func jpegsPastTheScanLimitAreRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data(try repeatedScansJPEG(width: 512, extra: 2000)).write(to: URL(fileURLWithPath: folder.file("bomb.jpg")))
        for arguments in [["convert", folder.file("bomb.jpg"), folder.file("out.png")],
                          ["blur", folder.file("bomb.jpg"), folder.file("out.jpg"), "--sigma", "2"],
                          ["resize", folder.file("bomb.jpg"), folder.file("out.webp"), "--width", "64"]] {
            let run = try FrostRun.run(arguments)
            #expect(run.status == 1 && run.errorLines.count == 1 && run.stderr.contains("more than 100 scans"), "\(arguments[0]): \(run.stderr)")
        }
        #expect(folder.contents() == ["bomb.jpg"], "no output written")
    }

    /// 1500 byte-damaged PNGs and JPEGs without extensions, a tenth of them starting with the path
    /// of a real image (as a list would name it): each is decoded as an image or refused as one,
    /// never exits 64, never reads the image its bytes name.
    @Test func damagedFilesAreImagesNeverLists() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bait = try Self.bait(in: folder)
        let sources = (Corpus.files(format: "png", expected: "valid") + Corpus.files(format: "jpeg", expected: "valid"))
            .filter { (try? FileManager.default.attributesOfItem(atPath: Corpus.path($0))[.size] as? Int).flatMap { $0 } ?? .max < 40_000 }
        #expect(sources.count > 300)
        try FileManager.default.createDirectory(atPath: folder.file("m"), withIntermediateDirectories: true)
        var random = SplitMix64(seed: 37)
        var names: [String] = []
        for i in 0..<1500 {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Corpus.path(sources[Int(random.next() % UInt64(sources.count))]))))
            switch i % 10 {
            case 0: bytes = Array((bait + "\n").utf8) + bytes                      // a path first, as a list would hold
            case 1: bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))   // truncated
            default:                                                                 // bytes changed anywhere, the header too
                for _ in 0..<(1 + Int(random.next() % 8)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            let name = folder.file("m/m\(i)")
            try Data(bytes).write(to: URL(fileURLWithPath: name))
            names.append(name)
        }
        // One process for all of them (as a batch), and a hundred on their own as `convert mNNN out.png`.
        let batch = try FrostRun.run(["convert"] + names + ["-o", folder.file("out/%s.png")])
        #expect(batch.status == 0 || batch.status == 1, "\(batch.stderr.prefix(500))")
        for line in batch.stderr.split(separator: "\n") where !line.hasPrefix("[") && !line.hasPrefix("wrote ") {
            #expect(line.hasPrefix("frost: \(folder.file("m/m"))"), "\(line)")
        }
        for i in stride(from: 0, to: 1500, by: 15) {
            let run = try FrostRun.run(["convert", names[i], folder.file("alone.png")])
            #expect(run.status == 0 || run.status == 1, "m\(i): \(run.status) \(run.stderr)")
            #expect(run.status == 0 || run.stderr.hasPrefix("frost: \(names[i]): "), "m\(i): \(run.stderr)")
            if i % 10 == 0 {   // the files that begin with a path are not images at all
                #expect(run.status == 1 && run.stderr == "frost: \(names[i]): not a PNG, JPEG, WebP, AVIF, HEIC or GIF file\n", "m\(i): \(run.stderr)")
            }
        }
        for output in (try? FileManager.default.contentsOfDirectory(atPath: folder.file("out"))) ?? [] {
            let info = try ImageInfo(contentsOfFile: folder.file("out/" + output))
            #expect(!(info.width == 7 && info.height == 5), "\(output) is the image a file's bytes named")
        }
    }

    /// A list's lines may name files anywhere (the user chose the list), but its outputs stay in
    /// the folder: `..` and absolute lines are refused for a mirrored folder, fine for a pattern.
    @Test func listsNeverWriteOutsideTheFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("a/b/lists"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Corpus.path("photos/rocket.jpg"), toPath: folder.file("a/rocket.jpg"))
        try FileManager.default.copyItem(atPath: Corpus.path("photos/coffee.png"), toPath: folder.file("a/b/lists/coffee.png"))
        try FileManager.default.copyItem(atPath: Corpus.path("photos/coffee.png"), toPath: folder.file("a/b/coffee.png"))
        let list = folder.file("a/b/lists/l.txt")
        try "coffee.png\n../../rocket.jpg\n\(folder.file("a/b/coffee.png"))\n./../coffee.png\n".write(toFile: list, atomically: true, encoding: .utf8)
        let before = Self.snapshot(folder.path)

        let mirrored = try FrostRun.run(["convert", "--inputs-from", list, "-o", folder.file("a/b/out/")])
        #expect(mirrored.status == 1)
        #expect(mirrored.stderr.contains("../../rocket.jpg would be written outside \(folder.file("a/b/out"))/ (a .. segment)"), "\(mirrored.stderr)")
        #expect(mirrored.stderr.contains("(an absolute path)"))
        #expect(mirrored.errorLines.count == 3, "\(mirrored.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("a/b/out")) == ["coffee.png"])
        #expect(Self.snapshot(folder.path, except: ["a/b/out"]) == before, "something outside the output folder changed")

        // A pattern takes only each input's name: every line may be used.
        try "coffee.png\n../../rocket.jpg\n".write(toFile: list, atomically: true, encoding: .utf8)
        let patterned = try FrostRun.run(["convert", "--inputs-from", list, "-o", folder.file("p/%s.webp")])
        #expect(patterned.status == 0, "\(patterned.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("p")).sorted() == ["coffee.webp", "rocket.webp"])

        // A list is never taken for an image, nor an image for a list.
        let notImage = try FrostRun.run(["convert", list, folder.file("x.png")])
        #expect(notImage.status == 1 && notImage.stderr == "frost: \(list): not a PNG, JPEG, WebP, AVIF, HEIC or GIF file\n")
        let notList = try FrostRun.run(["convert", "--inputs-from", folder.file("a/rocket.jpg"), "-o", folder.file("y/")])
        #expect(notList.status == 1 && notList.stderr == "frost: \(folder.file("a/rocket.jpg")): an image, not a list of paths\n", "\(notList.stderr)")
        // A list from standard input, relative to the working folder.
        let piped = try FrostRun.run(["resize", "--inputs-from", "-", "-o", folder.file("s/"), "--width", "16"],
                                     stdin: Data("\(folder.file("a/rocket.jpg"))\n".utf8))
        #expect(piped.status == 1 && piped.stderr.contains("(an absolute path)"), "\(piped.stderr)")
        let pipedRelative = try FrostRun.run(["resize", "--inputs-from", "-", "-o", folder.file("t/%s.png"), "--width", "16"],
                                             stdin: Data("\(folder.file("a/rocket.jpg"))\n".utf8))
        #expect(pipedRelative.status == 0 && FileManager.default.fileExists(atPath: folder.file("t/rocket.png")), "\(pipedRelative.stderr)")
    }

    /// Links inside an input folder are not followed out of it, and a link inside the output folder
    /// is not written through.
    @Test func symbolicLinksNeitherLeakInputsNorRedirectOutputs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder.file("in/real"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: folder.file("outside"), withIntermediateDirectories: true)
        try fm.copyItem(atPath: Corpus.path("photos/rocket.jpg"), toPath: folder.file("in/real/a.jpg"))
        _ = try Self.bait(in: folder)
        try fm.createSymbolicLink(atPath: folder.file("in/leak.png"), withDestinationPath: "../bait/photo.png")
        try fm.createSymbolicLink(atPath: folder.file("in/real/away"), withDestinationPath: "../../bait")
        try fm.createSymbolicLink(atPath: folder.file("in/alias.jpg"), withDestinationPath: "real/a.jpg")
        try fm.createSymbolicLink(atPath: folder.file("in/again"), withDestinationPath: "real")
        try fm.createSymbolicLink(atPath: folder.file("in/dangling.jpg"), withDestinationPath: "real/gone.jpg")
        let run = try FrostRun.run(["resize", folder.file("in"), "-o", folder.file("out/"), "--width", "32"])
        #expect(run.status == 1)
        #expect(run.errorLines.sorted() == [
            "frost: \(folder.file("in/dangling.jpg")): a symbolic link to nothing",
            "frost: \(folder.file("in/leak.png")): a symbolic link out of \(folder.file("in")) (not followed)",
            "frost: \(folder.file("in/real/away")): a symbolic link out of \(folder.file("in")) (not followed)",
        ], "\(run.stderr)")
        #expect(Self.snapshot(folder.file("out")).keys.sorted() == ["alias.jpg", "real/a.jpg"])

        // An output folder whose subfolder links elsewhere: nothing is written through the link.
        try fm.createDirectory(atPath: folder.file("out2"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder.file("out2/real"), withDestinationPath: "../outside")
        let nested = try FrostRun.run(["resize", folder.file("in"), "-o", folder.file("out2/"), "--width", "32"])
        #expect(nested.status == 1 && nested.stderr.contains("real/a.jpg would be written outside \(folder.file("out2"))/ (\(folder.file("out2/real")) is a symbolic link)"), "\(nested.stderr)")
        #expect(!fm.fileExists(atPath: folder.file("outside/a.jpg")))
    }

    @Test func exitStatusesMeanSomething() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = Corpus.path("photos/coffee.png")
        #expect(try FrostRun.run(["blur", photo, folder.file("ok.png"), "--sigma", "1"]).status == 0)
        #expect(try FrostRun.run(["blur", photo, folder.file("ok.png"), "--sigmaa", "1"]).status == 64)
        #expect(try FrostRun.run(["blur", photo, photo, folder.file("one.png")]).status == 64)
        #expect(try FrostRun.run(["blur", folder.file("missing.png"), folder.file("no.png"), "--sigma", "1"]).status == 1)
        #expect(try FrostRun.run(["blur", photo, folder.file("missing.png"), "-o", folder.file("d/"), "--sigma", "1"]).status == 1)
        #expect(FileManager.default.fileExists(atPath: folder.file("d/coffee.png")))
    }

    /// The limits for untrusted input: pixels, file size, and the folder a scene's files must be in.
    @Test func limitsForUntrustedInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let photo = Corpus.path("photos/rocket.jpg")   // 112,525 bytes
        let small = try FrostRun.run(["convert", photo, folder.file("a.png"), "--max-file-size", "100k"])
        #expect(small.status == 1 && small.stderr == "frost: \(photo): file is 112525 bytes, more than the limit of 102400 bytes (see --max-file-size)\n")
        #expect(try FrostRun.run(["convert", photo, folder.file("a.png"), "--max-file-size", "110k"]).status == 0)
        let piped = try FrostRun.run(["convert", "-", folder.file("b.png"), "--max-file-size", "100000"], stdin: try Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(piped.status == 1 && piped.stderr.contains("more than the limit of 100000 bytes"), "\(piped.stderr)")
        #expect(try FrostRun.run(["convert", photo, folder.file("a.png"), "--max-file-size", "lots"]).status == 64)

        // A scene that names a file outside its assets folder, directly or through a link.
        try FileManager.default.createDirectory(atPath: folder.file("scene"), withIntermediateDirectories: true)
        _ = try Self.bait(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.file("scene/linked.png"), withDestinationPath: "../bait/photo.png")
        try FileManager.default.copyItem(atPath: Corpus.path("photos/coffee.png"), toPath: folder.file("scene/coffee.png"))
        for (file, refused) in [("../bait/photo.png", true), ("linked.png", true), (folder.file("bait/photo.png"), true), ("coffee.png", false)] {
            let scene = #"{"width": 40, "height": 30, "layers": [{"type": "image", "file": "\#(file)"}]}"#
            try scene.write(toFile: folder.file("scene/s.json"), atomically: true, encoding: .utf8)
            let open = try FrostRun.run(["compose", folder.file("scene/s.json"), "-o", folder.file("s.png")])
            #expect(open.status == 0, "\(open.stderr)")
            let confined = try FrostRun.run(["compose", folder.file("scene/s.json"), "-o", folder.file("s.png"), "--assets-root", folder.file("scene")])
            if refused {
                #expect(confined.status == 1 && confined.stderr == "frost: \(folder.file("scene/s.json")): layers[0].file: \(file) is outside the assets folder \(folder.file("scene"))\n", "\(confined.stderr)")
            } else {
                #expect(confined.status == 0, "\(confined.stderr)")
            }
        }
    }

    @Test func cacheBatchAndInfoFollowTheSameRules() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("lists"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Corpus.path("pillow/jpeg/hopper.jpg"), toPath: folder.file("hopper.jpg"))
        try FileManager.default.copyItem(atPath: Corpus.path("pillow/jpeg/hopper.jpg"), toPath: folder.file("lists/hopper.jpg"))
        try "hopper.jpg\n../hopper.jpg\n".write(toFile: folder.file("lists/l.txt"), atomically: true, encoding: .utf8)
        let before = Self.snapshot(folder.path)
        let batch = try FrostRun.run(["cache", "--batch", folder.file("lists/l.txt"), "-o", folder.file("caches"), "--levels", "2", "--max-sigma", "4"])
        #expect(batch.status == 3, "an input failed, the others done")
        #expect(batch.errorLines == ["frost: \(folder.file("lists/../hopper.jpg")): ../hopper.jpg.frost would be written outside \(folder.file("caches"))/ (a .. segment)"], "\(batch.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("caches")) == ["hopper.jpg.frost"])
        #expect(Self.snapshot(folder.path, except: ["caches"]) == before)
        let image = try FrostRun.run(["cache", "--batch", folder.file("hopper.jpg"), "-o", folder.file("c2")])
        #expect(image.status == 1 && image.stderr == "frost: \(folder.file("hopper.jpg")): an image, not a list of paths\n")

        let info = try FrostRun.run(["info", "--inputs-from", folder.file("lists/l.txt")])
        #expect(info.status == 0 && info.stdout.split(separator: "\n").count == 2, "\(info.stderr)")
        let notList = try FrostRun.run(["info", folder.file("lists/l.txt")])
        #expect(notList.status == 1 && notList.stderr == "frost: \(folder.file("lists/l.txt")): not a PNG, JPEG, WebP, AVIF, HEIC or GIF file\n")
    }
}

/// Steele, Lea and Flood's SplitMix64: a seeded generator, so the damaged files are the same every run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
