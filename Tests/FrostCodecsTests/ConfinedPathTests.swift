import FrostCodecs
import FrostFiles
import Testing

/// `FileIO.confined` reads paths as the file system does, byte by byte.
@Suite struct ConfinedPathTests {
    @Test(arguments: ["a.jpg", "d/./e.jpg", "x/\u{301}y.png", "\u{488}ebp"])
    func insideStaysInside(_ relative: String) throws {
        let path = try FileIO.confined(relative, under: "out")
        #expect(path.utf8.starts(with: "out/".utf8) && !path.utf8.split(separator: UInt8(ascii: "/")).contains { $0.elementsEqual("..".utf8) })
    }

    /// "/" followed by a combining mark is one Swift Character: a split by Character would have
    /// let "../\u{301}x" through, which the file system reads as a climb out of the folder.
    @Test(arguments: ["../x.jpg", "../\u{301}x.jpg", "a/../../\u{488}b", "/abs.png", ".", "./", ""])
    func escapesAreRefused(_ relative: String) {
        #expect(throws: CodecError.self) { try FileIO.confined(relative, under: "out") }
    }
}
