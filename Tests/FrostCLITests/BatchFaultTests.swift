import FrostCache
import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `frost cache --batch` under faults: killed at random moments, writes failing midway, nowhere to
/// write, nothing to read. Every cache ends complete or absent, never partial, and no temporary file stays.
@Suite(.serialized) struct BatchFaultTests {
    /// Six inputs: noise PNGs of a few sizes (one in a subfolder) and a JPEG from the corpus.
    static func inputs(in folder: TemporaryFolder) throws -> String {
        let input = folder.file("in")
        try FileManager.default.createDirectory(atPath: input + "/sub", withIntermediateDirectories: true)
        for (i, size) in [(160, 120), (96, 200), (240, 100), (64, 64), (180, 180)].enumerated() {
            try noiseImage(width: size.0, height: size.1, seed: UInt64(i + 3), opaque: i % 2 == 0)
                .write(toFile: input + (i == 4 ? "/sub" : "") + "/n\(i).png")
        }
        try FileManager.default.copyItem(atPath: Corpus.path("pillow/jpeg/hopper.jpg"), toPath: input + "/hopper.jpg")
        return input
    }

    static func temporaries(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.contains(".frost-") }
    }

    static let options = ["--levels", "4", "--max-sigma", "10", "--jobs", "2"]

    @Test func killedAtFiftyRandomMomentsTheBatchStillEndsComplete() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.inputs(in: folder), output = folder.file("out")
        // How long a whole run takes, to spread the kills over it.
        let start = Date()
        let whole = try FrostRun.run(["cache", "--batch", input, "-o", folder.file("timing")] + Self.options)
        #expect(whole.status == 0, "\(whole.stderr)")
        let span = Date().timeIntervalSince(start)
        var random = XorShift64(seed: 0xF405)
        for _ in 0..<50 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FrostRun.binary)
            process.arguments = ["cache", "--batch", input, "-o", output] + Self.options
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(Double(random.next() % 1000) / 1000 * span * 1e6))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let finish = try FrostRun.run(["cache", "--batch", input, "-o", output] + Self.options)
        #expect(finish.status == 0, "\(finish.stderr)")
        #expect(finish.stderr.contains("failed 0"))
        for name in ["n0.png", "n1.png", "n2.png", "n3.png", "sub/n4.png", "hopper.jpg"] {
            let loaded = try CacheStore.load("\(output)/\(name).frost")
            #expect(loaded.levels.count == 5)
        }
        #expect(Self.temporaries(under: output).isEmpty, "\(Self.temporaries(under: output))")
        // Once complete, a rerun skips every cache.
        let again = try FrostRun.run(["cache", "--batch", input, "-o", output] + Self.options)
        #expect(again.stderr.contains("built 0, skipped 6, failed 0"))
    }

    /// A file-size limit (ulimit -f) makes the large input's level files fail to write: it is
    /// reported and leaves no cache folder; the small inputs complete; the exit status is 1: a write
    /// the machine refused is not the input's bytes' fault (a rerun elsewhere may do it), not 3.
    @Test func aWriteFailingMidwayCostsOnlyItsInput() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = folder.file("in"), output = folder.file("out")
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
        for i in 0..<3 { try noiseImage(width: 24, height: 24, seed: UInt64(i + 1), opaque: true).write(toFile: "\(input)/small\(i).png") }
        try noiseImage(width: 400, height: 400, seed: 99, opaque: true).write(toFile: "\(input)/large.png")   // 480 KB of noise
        let run = try FrostRun.run(["-c", "ulimit -f 100 && exec \"$0\" cache --batch \"$1\" -o \"$2\" --levels 2 --max-sigma 4",
                                    FrostRun.binary, input, output], executable: "/bin/sh")
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("frost: \(input)/large.png: cannot write: File too large"), "\(run.stderr)")
        #expect(run.stderr.contains("built 3, skipped 0, failed 1"))
        #expect(!FileManager.default.fileExists(atPath: "\(output)/large.png.frost"))
        for i in 0..<3 { #expect(try CacheStore.load("\(output)/small\(i).png.frost").levels.count == 3) }
        #expect(Self.temporaries(under: output).isEmpty)
    }

    @Test func nowhereToWriteAndNothingToReadAreOneLineEach() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try Self.inputs(in: folder)
        let missing = try FrostRun.run(["cache", "--batch", folder.file("absent"), "-o", folder.file("out")])
        #expect(missing.status == 1)
        #expect(missing.stderr == "frost: \(folder.file("absent")): cannot open: No such file or directory\n")
        let blocked = folder.file("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocked))
        let notAFolder = try FrostRun.run(["cache", "--batch", input, "-o", blocked])
        #expect(notAFolder.status == 1 && notAFolder.stderr == "frost: \(blocked): exists and is not a folder\n")
        // A read-only file system (a tmpfs mounted read-only: root ignores permission bits).
        let mountPoint = folder.file("ro")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        guard mount("tmpfs", mountPoint, "tmpfs", UInt(MS_RDONLY), "size=1m") == 0 else {
            print("cannot mount a read-only tmpfs here (\(String(cString: strerror(errno)))): the read-only case was not run")
            return
        }
        defer { umount(mountPoint) }
        for out in [mountPoint, mountPoint + "/deeper/out"] {
            let run = try FrostRun.run(["cache", "--batch", input, "-o", out] + Self.options)
            #expect(run.status == 1)
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("frost: \(out): cannot create") && run.stderr.contains("ead-only"), "\(run.stderr)")
        }
    }
}
