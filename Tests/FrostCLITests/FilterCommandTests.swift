import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// The filters as Unix tools: pipes, negative values, many files, patterns, chains, WebP, resize.
@Suite struct FilterCommandTests {
    static let photo = Corpus.path("photos/coffee.png")
    static let jpeg = Corpus.path("photos/rocket.jpg")
    static let cutout = Corpus.repository + "/SampleImages/coffee-cutout.png"

    static func image(_ bytes: [UInt8]) throws -> Image { try Image(decoding: bytes) }

    @Test func pipesBothWays() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let jpegBytes = try FileIO.read(Self.jpeg)
        // File in, file out: the reference.
        #expect(try FrostRun.run(["blur", Self.jpeg, folder.file("ref.png"), "--sigma", "3"]).status == 0)
        let reference = try Image(contentsOfFile: folder.file("ref.png"))
        // Standard input to a file.
        let fromPipe = try FrostRun.run(["blur", "-", folder.file("pipe.png"), "--sigma", "3"], stdin: Data(jpegBytes))
        #expect(fromPipe.status == 0 && fromPipe.stdout.isEmpty, "\(fromPipe.stderr)")
        #expect(identical(try Image(contentsOfFile: folder.file("pipe.png")), reference))
        // Standard input to standard output: the input's format (JPEG) unless --format says otherwise.
        let both = try FrostRun.run(["blur", "-", "-", "--sigma", "3", "--format", "png"], stdin: Data(jpegBytes))
        #expect(both.status == 0 && both.stderr.isEmpty)
        #expect(ImageFormat(sniffing: both.stdoutBytes) == .png)
        #expect(identical(try Self.image(both.stdoutBytes), reference))
        let kept = try FrostRun.run(["convert", "-", "-"], stdin: Data(jpegBytes))
        #expect(ImageFormat(sniffing: kept.stdoutBytes) == .jpeg)
        let webp = try FrostRun.run(["convert", Self.photo, "-", "--format", "webp", "--lossless"])
        #expect(ImageFormat(sniffing: webp.stdoutBytes) == .webp)
        #expect(identical(try Self.image(webp.stdoutBytes), (try Image(contentsOfFile: Self.photo))))
        // A failure writes nothing to standard output and one line to standard error.
        let bad = try FrostRun.run(["blur", "-", "-", "--sigma", "3"], stdin: Data("not an image".utf8))
        #expect(bad.status == 1 && bad.stdoutBytes.isEmpty)
        #expect(bad.stderr == "frost: <stdin>: not a PNG, JPEG, WebP, AVIF, HEIC or GIF file\n")
        let empty = try FrostRun.run(["adjust", "-", "-", "--gamma", "2"], stdin: Data())
        #expect(empty.status == 1 && empty.stdoutBytes.isEmpty && empty.stderr == "frost: <stdin>: empty file\n")
        let twice = try FrostRun.run(["convert", "-", "-", "-o", folder.file("x.png")])
        #expect(twice.status != 0 && twice.status != 1 && twice.stderr.contains("standard input"))
    }

    @Test func negativeValuesAreValues() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let spaced = try FrostRun.run(["adjust", Self.photo, folder.file("a.png"), "--brightness", "-0.2", "--contrast", "1.1"])
        let joined = try FrostRun.run(["adjust", Self.photo, folder.file("b.png"), "--brightness=-0.2", "--contrast", "1.1"])
        #expect(spaced.status == 0 && joined.status == 0, "\(spaced.stderr)")
        let a = try Image(contentsOfFile: folder.file("a.png")), source = try Image(contentsOfFile: Self.photo)
        #expect(identical(a, (try Image(contentsOfFile: folder.file("b.png")))))
        #expect(a.pixels.reduce(0) { $0 + Int($1) } < source.pixels.reduce(0) { $0 + Int($1) })  // darker
        #expect(try FrostRun.run(["effect", Self.photo, folder.file("e.png"), "--radius", "2", "--saturation", "-1"]).status == 0)
        let outOfRange = try FrostRun.run(["adjust", Self.photo, folder.file("c.png"), "--brightness", "-1.5"])
        #expect(outOfRange.status != 0 && outOfRange.status != 1 && outOfRange.stderr.contains("--brightness must be between -1 and 1"))
        let help = try FrostRun.run(["adjust", "--help"])
        #expect(help.stdout.contains("-1 to 1") && help.stdout.contains("0.1 to 10"))
        // Offsets of a fade are signed as well (an overscroll above the top).
        #expect(try FrostRun.run(["cache", Self.photo, "-o", folder.file("c.frost"), "--levels", "3", "--max-sigma", "4"]).status == 0)
        let fade = try FrostRun.run(["fade", folder.file("c.frost"), "--offset", "-40", "--start", "-100", "--end", "-20", "-o", folder.file("f.png")])
        #expect(fade.status == 0, "\(fade.stderr)")
    }

    /// A folder tree with a bad file among the images.
    static func catalog() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in/nested"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: photo, toPath: folder.file("in/coffee.png"))
        try FileManager.default.copyItem(atPath: jpeg, toPath: folder.file("in/nested/rocket.jpg"))
        try Data(try Image(contentsOfFile: cutout).encoded(as: .webp)).write(to: URL(fileURLWithPath: folder.file("in/nested/cutout.webp")))
        try Data("broken".utf8).write(to: URL(fileURLWithPath: folder.file("in/broken.png")))
        return folder
    }

    @Test func manyFilesIntoAFolderMirrorPathsAndSurviveABadFile() throws {
        let folder = try Self.catalog()
        defer { folder.remove() }
        let run = try FrostRun.run(["blur", folder.file("in"), "-o", folder.file("out/"), "--sigma", "2", "--jobs", "2"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["frost: \(folder.file("in/broken.png")): not a PNG, JPEG, WebP, AVIF, HEIC or GIF file"])
        #expect(run.stderr.hasSuffix("wrote 3, failed 1\n"), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "standard output is for image data")
        for name in ["coffee.png", "nested/rocket.jpg", "nested/cutout.webp"] {
            let written = try Image(contentsOfFile: folder.file("out/" + name))
            let alone = try FrostRun.run(["blur", folder.file("in/" + name), folder.file("alone-" + (name as NSString).lastPathComponent), "--sigma", "2"])
            #expect(alone.status == 0)
            #expect(identical(written, (try Image(contentsOfFile: folder.file("alone-" + (name as NSString).lastPathComponent)))), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/broken.png")))
        // --format changes every output's extension; a list file names inputs too.
        try Data("coffee.png\n# a comment\nnested/rocket.jpg\n".utf8).write(to: URL(fileURLWithPath: folder.file("in/list.txt")))
        let listed = try FrostRun.run(["convert", "--inputs-from", folder.file("in/list.txt"), "-o", folder.file("webp/"), "--format", "webp"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("webp/coffee.webp")) && FileManager.default.fileExists(atPath: folder.file("webp/nested/rocket.webp")))
    }

    @Test func patternsNameOutputsAndCollisionsAreRefused() throws {
        let folder = try Self.catalog()
        defer { folder.remove() }
        let run = try FrostRun.run(["adjust", folder.file("in/coffee.png"), folder.file("in/nested/rocket.jpg"),
                                    "-o", folder.file("p/%s-dark.webp"), "--brightness", "-0.1", "--quality", "80"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(folder.contents().contains("p"))
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.file("p"))).sorted() == ["coffee-dark.webp", "rocket-dark.webp"])
        #expect(try ImageInfo(contentsOfFile: folder.file("p/rocket-dark.webp")).colorModel == "lossy")
        // Without an extension in the pattern each output keeps its input's format.
        #expect(try FrostRun.run(["convert", folder.file("in/coffee.png"), folder.file("in/nested/rocket.jpg"), "-o", folder.file("q/%s")]).status == 0)
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.file("q"))).sorted() == ["coffee.png", "rocket.jpg"])
        try FileManager.default.copyItem(atPath: Self.photo, toPath: folder.file("in/nested/coffee.png"))
        let clash = try FrostRun.run(["convert", folder.file("in/coffee.png"), folder.file("in/nested/coffee.png"), "-o", folder.file("r/%s.png")])
        #expect(clash.status != 0 && clash.stderr.contains("would both write") && !FileManager.default.fileExists(atPath: folder.file("r")))
        let many = try FrostRun.run(["convert", folder.file("in/coffee.png"), folder.file("in/nested/rocket.jpg"), folder.file("one.png")])
        #expect(many.status != 0 && many.stderr.contains("2 inputs need -o FOLDER/"))
    }

    @Test func shardsSplitTheInputsAndJobsChangeNothing() throws {
        let folder = try Self.catalog()
        defer { folder.remove() }
        try FileManager.default.removeItem(atPath: folder.file("in/broken.png"))
        var written: [String] = []
        for k in 0..<2 {
            let run = try FrostRun.run(["resize", folder.file("in"), "-o", folder.file("s\(k)/"), "--width", "100", "--shard", "\(k)/2"])
            #expect(run.status == 0)
            written += (FileManager.default.subpaths(atPath: folder.file("s\(k)")) ?? []).filter { $0.contains(".") }
        }
        #expect(written.sorted() == ["coffee.png", "nested/cutout.webp", "nested/rocket.jpg"])
        #expect(try FrostRun.run(["resize", folder.file("in"), "-o", folder.file("j1/"), "--width", "100"]).status == 0)
        #expect(try FrostRun.run(["resize", folder.file("in"), "-o", folder.file("j2/"), "--width", "100", "--jobs", "2"]).status == 0)
        for name in written {
            #expect(try FileIO.read(folder.file("j1/" + name)) == (try FileIO.read(folder.file("j2/" + name))), "\(name)")
        }
    }

    /// `frost run` equals the single commands one after another through lossless PNG files.
    @Test func chainsEqualSingleStepsThroughPNG() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let steps: [(chain: String, single: [String])] = [
            ("blur:sigma=4", ["blur", "--sigma", "4"]),
            ("adjust:brightness=-0.1,gamma=1.2", ["adjust", "--brightness", "-0.1", "--gamma", "1.2"]),
            ("effect:preset=light", ["effect", "--preset", "light"]),
            ("resize:width=300", ["resize", "--width", "300"]),
            ("blur:box=3,axes=horizontal", ["blur", "--box", "3", "--axes", "horizontal"]),
        ]
        for (n, source) in [Self.jpeg, Self.cutout].enumerated() {
            var current = source
            for (i, step) in steps.enumerated() {
                let next = folder.file("s\(n)-\(i).png")
                let run = try FrostRun.run([step.single[0], current, next] + step.single.dropFirst())
                #expect(run.status == 0, "\(step.single): \(run.stderr)")
                current = next
            }
            let chained = folder.file("chain\(n).png")
            let run = try FrostRun.run(["run", source, chained] + steps.map(\.chain))
            #expect(run.status == 0, "\(run.stderr)")
            let a = try Image(contentsOfFile: chained), b = try Image(contentsOfFile: current)
            #expect(a.width == 300 && a.width == b.width && a.height == b.height)
            #expect(identical(a, b), "\(source): \(PixelDifference(a, b))")
        }
        let unknown = try FrostRun.run(["run", Self.photo, folder.file("x.png"), "blur:sigma=4,radius=3"])
        #expect(unknown.status != 0 && unknown.status != 1 && unknown.stderr.contains("blur:sigma=4,radius=3"), "\(unknown.stderr)")
        let none = try FrostRun.run(["run", Self.photo, folder.file("x.png")])
        #expect(none.status != 0 && none.stderr.contains("at least one step"))
        let range = try FrostRun.run(["run", Self.photo, folder.file("x.png"), "adjust:gamma=20"])
        #expect(range.status != 0 && range.stderr.contains("--gamma must be between 0.1 and 10"))
    }

    @Test func resizeFitsAndValidates() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // 600×400 into 300×300: contain 300×200, cover and fill 300×300.
        for (fit, size) in [("contain", (300, 200)), ("cover", (300, 300)), ("fill", (300, 300))] {
            let run = try FrostRun.run(["resize", Self.photo, folder.file(fit + ".png"), "--width", "300", "--height", "300", "--fit", fit])
            #expect(run.status == 0)
            let info = try ImageInfo(contentsOfFile: folder.file(fit + ".png"))
            #expect(info.width == size.0 && info.height == size.1, "\(fit)")
        }
        #expect(try FrostRun.run(["resize", Self.photo, folder.file("h.png"), "--height", "100"]).status == 0)
        #expect(try ImageInfo(contentsOfFile: folder.file("h.png")).width == 150)
        let none = try FrostRun.run(["resize", Self.photo, folder.file("n.png")])
        #expect(none.status != 0 && none.status != 1 && none.stderr.contains("--width"))
    }

    /// `--kernel`: each filter gives its own pixels, `box` is `area`, the default is lanczos3, and
    /// a `run` step takes it as a key; an unknown name is a usage error listing the names.
    @Test func resizeKernels() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var images: [String: Image] = [:]
        for kernel in ["nearest", "linear", "cubic", "mitchell", "lanczos3", "area", "box"] {
            let run = try FrostRun.run(["resize", Self.photo, folder.file(kernel + ".png"), "--width", "170", "--kernel", kernel])
            #expect(run.status == 0, "\(kernel): \(run.stderr)")
            images[kernel] = try Image(contentsOfFile: folder.file(kernel + ".png"))
        }
        #expect(identical(images["box"]!, images["area"]!))
        for (a, b) in [("nearest", "linear"), ("linear", "cubic"), ("cubic", "mitchell"), ("mitchell", "lanczos3"), ("lanczos3", "area")] {
            #expect(!identical(images[a]!, images[b]!), "\(a) and \(b) gave the same pixels")
        }
        #expect(try FrostRun.run(["resize", Self.photo, folder.file("d.png"), "--width", "170"]).status == 0)
        #expect(identical(try Image(contentsOfFile: folder.file("d.png")), images["lanczos3"]!))
        #expect(try FrostRun.run(["run", Self.photo, folder.file("r.png"), "resize:width=170,kernel=box"]).status == 0)
        #expect(identical(try Image(contentsOfFile: folder.file("r.png")), images["area"]!))
        let unknown = try FrostRun.run(["resize", Self.photo, folder.file("u.png"), "--width", "170", "--kernel", "lanczos"])
        #expect(unknown.status == 64 && unknown.stderr.contains("lanczos3"), "\(unknown.stderr)")
    }
}

/// The completion scripts come from the same definitions as the help: every verb and option.
@Suite struct CompletionTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func scriptsKnowTheVerbsAndOptions(shell: String) throws {
        let run = try FrostRun.run(["--generate-completion-script", shell])
        #expect(run.status == 0 && run.stdout.count > 2000)
        for word in ["resize", "run", "blur", "animate", "fit", "jobs", "shard", "format"] {
            #expect(run.stdout.contains(word), "\(shell) script lacks \(word)")
        }
    }
}
