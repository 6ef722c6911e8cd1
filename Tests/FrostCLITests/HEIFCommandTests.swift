import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

/// AVIF and HEIC from the command line: read by every verb and written.
@Suite struct HEIFCommandTests {
    static func fixture(_ name: String) -> String { Corpus.repository + "/Tests/Fixtures/heif/" + name }

    @Test func heicAndAVIFAreInputsToEveryVerb() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Into a folder each keeps its format.
        let converted = try FrostRun.run(["convert", Self.fixture("coffee.heic"), Self.fixture("rocket-420.avif"), "-o", folder.file("out/")])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(try ImageInfo(contentsOfFile: folder.file("out/coffee.heic")).format == .heic)
        #expect(try ImageInfo(contentsOfFile: folder.file("out/rocket-420.avif")).format == .avif)
        // A filter on each, named outputs in other formats.
        let resized = try FrostRun.run(["resize", Self.fixture("cutout-alpha.heic"), folder.file("small.webp"), "--width", "50"])
        #expect(resized.status == 0, "\(resized.stderr)")
        let small = try Image(contentsOfFile: folder.file("small.webp"))
        #expect(small.width == 50 && small.height == 33 && small.hasAlpha)
        let blurred = try FrostRun.run(["blur", Self.fixture("rocket-irot1-imir0.avif"), folder.file("b.png"), "--sigma", "2"])
        #expect(blurred.status == 0, "\(blurred.stderr)")
        #expect(try ImageInfo(contentsOfFile: folder.file("b.png")).width == 107)   // turned upright
        let info = try FrostRun.run(["info", "--json", Self.fixture("cutout-444-alpha.avif")])
        #expect(info.stdout.contains(#""format": "avif""#) && info.stdout.contains(#""alpha": true"#), "\(info.stdout)")
    }

    @Test(arguments: [ImageFormat.avif, .heic])
    func writtenWithQualityAndEffort(format: ImageFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let source = Corpus.path("photos/coffee.png"), ext = format.fileExtension
        #expect(try FrostRun.run(["convert", source, folder.file("lossless.\(ext)"), "--quality", "100"]).status == 0)
        #expect(identical(try Image(contentsOfFile: folder.file("lossless.\(ext)")), try Image(contentsOfFile: source)))
        #expect(try FrostRun.run(["convert", source, folder.file("q40.\(ext)"), "--quality", "40", "--compression", "0"]).status == 0)
        #expect(try FrostRun.run(["convert", source, folder.file("default.\(ext)")]).status == 0)
        let q40 = try FileIO.read(folder.file("q40.\(ext)")).count, normal = try FileIO.read(folder.file("default.\(ext)")).count
        #expect(q40 < normal, "\(q40) \(normal)")
        let piped = try FrostRun.run(["convert", source, "-", "--format", ext])
        #expect(ImageFormat(sniffing: piped.stdoutBytes) == format)
        let progressive = try FrostRun.run(["convert", source, folder.file("p.\(ext)"), "--progressive"])
        #expect(progressive.status != 0 && progressive.stderr.contains("--progressive does not apply to \(format.displayName) output"))
        let quality = try FrostRun.run(["convert", source, folder.file("q.\(ext)"), "--quality", "0"])
        #expect(quality.status == 64 && quality.stderr.contains("--quality must be between 1 and 100"), "\(quality.stderr)")
    }

    /// A cut file is one input's failure: the others still finish.
    @Test func aBrokenFileFailsAloneInABatch() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bytes = try FileIO.read(Self.fixture("coffee.heic"))
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try FileIO.writeAtomically(Array(bytes.prefix(bytes.count / 2)), to: folder.file("in/cut.heic"))
        try FileIO.writeAtomically(try FileIO.read(Self.fixture("rocket-420.avif")), to: folder.file("in/ok.avif"))
        let run = try FrostRun.run(["convert", folder.file("in"), "-o", folder.file("out/"), "--format", "png"])
        #expect(run.status == 1 && run.errorLines.count == 1 && run.errorLines[0].hasPrefix("frost: \(folder.file("in/cut.heic")): "), "\(run.stderr)")
        #expect(try ImageInfo(contentsOfFile: folder.file("out/ok.png")).format == .png)
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/cut.png")))
    }
}
