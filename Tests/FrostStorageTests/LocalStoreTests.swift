import Foundation
import FrostCodecs
import FrostStorage
import FrostTestSupport
import Testing

/// A local file's lookup tells "none there" from "the lookup failed", as an object's HEAD tells a
/// 404 from a 503.
@Suite struct LocalStoreTests {
    /// No such name, a file standing where a folder should (ENOTDIR) and a folder are "none";
    /// a symbolic link loop (ELOOP) and a name past NAME_MAX (ENAMETOOLONG) are errors that name
    /// the path and errno's words, as they are even for root (who passes permission checks).
    @Test func aLookupThatFailsIsNotAnAbsence() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.file("a.jpg")))
        #expect(try Storage.info(folder.file("a.jpg"))?.size == 3)
        #expect(try Storage.info(folder.file("missing.jpg")) == nil)
        #expect(try Storage.info(folder.file("a.jpg/b.jpg")) == nil)
        #expect(try Storage.info(folder.path) == nil)
        #expect(try Storage.readIfPresent(folder.file("missing.jpg")) == nil)

        try FileManager.default.createSymbolicLink(atPath: folder.file("loop"), withDestinationPath: "loop")
        let looped = folder.file("loop/a.jpg"), long = folder.file(String(repeating: "x", count: 300) + ".jpg")
        for (path, words) in [(looped, "Too many levels of symbolic links"), (long, "File name too long")] {
            var st = stat()
            #expect(stat(path, &st) == -1 && errno == (path == looped ? ELOOP : ENAMETOOLONG))
            let error = try #require(throws: CodecError.self) { try Storage.info(path) }
            #expect(error.kind == .io && error.message == "cannot look up \(path): \(words)", "\(error)")
            #expect(throws: CodecError.self) { try Storage.readIfPresent(path) }
        }
    }

    /// An atomic write's temporary file is not inherited by a child process (ffmpeg, started by
    /// another thread while the file is written): its descriptor is close-on-exec from creation.
    @Test func aWritesTemporaryFileIsClosedOnExec() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try AtomicFile(folder.file("out.png"))
        try sink.append([1, 2, 3])
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        let held = descriptors.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))?.hasPrefix(folder.file(".out.png.frost-")) == true
        }
        #expect(held.count == 1, "\(descriptors)")
        for fd in held {
            // fdinfo's flags are the open flags in octal; O_CLOEXEC is 02000000.
            let info = try String(contentsOfFile: "/proc/self/fdinfo/" + fd, encoding: .utf8)
            let flags = try #require(info.split(separator: "\n").first { $0.hasPrefix("flags:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) })
            #expect(flags & 0o2000000 != 0, "\(info)")
        }
        try sink.commit()
        #expect(try Storage.read(folder.file("out.png")) == [1, 2, 3])
    }
}
