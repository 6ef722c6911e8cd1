import FrostCodecs
import FrostCore
import FrostFiles
import FrostTestSupport
import Foundation
import Testing

@Suite struct FileIOTests {
    @Test func atomicWriteReplacesAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("a.bin")
        try FileIO.writeAtomically([1, 2, 3], to: path)
        try FileIO.writeAtomically([4, 5], to: path)
        #expect(try FileIO.read(path) == [4, 5])
        #expect(folder.contents() == ["a.bin"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! Int
        #expect(mode & 0o044 != 0, "readable by others like a normal create")
    }

    @Test func writeFailsCleanlyForAMissingFolder() {
        #expect(throws: CodecError.self) { try FileIO.writeAtomically([1], to: "/nonexistent-folder/x.png") }
    }

    @Test func unknownOutputExtensionIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: CodecError.self) { try noiseImage(width: 2, height: 2).write(toFile: folder.file("x.tiff")) }
        #expect(folder.contents().isEmpty)
    }

    @Test func formatFromExtension() {
        #expect(ImageFormat(pathExtension: "a/b.JPG") == .jpeg)
        #expect(ImageFormat(pathExtension: "x.jpeg") == .jpeg)
        #expect(ImageFormat(pathExtension: "x.png") == .png)
        #expect(ImageFormat(pathExtension: "dir.png/file") == nil)
        #expect(ImageFormat(pathExtension: "noext") == nil)
    }
}
