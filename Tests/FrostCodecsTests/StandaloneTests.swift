import Foundation
import FrostTestSupport
import Testing

/// The repository stands alone: a clone with nothing beside it builds, tests and runs. No tracked
/// file names a place outside the clone, every relative link in the docs lands on a file inside it,
/// and the corpus the tests read is the repository's own.
@Suite struct StandaloneTests {
    /// Tracked files (git ls-files), or every file under the repository where git is missing.
    static let trackedFiles: [String] = {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", Corpus.repository, "ls-files", "-z"]
        let pipe = Pipe()
        git.standardOutput = pipe
        git.standardError = FileHandle.nullDevice
        if (try? git.run()) != nil {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            git.waitUntilExit()
            if git.terminationStatus == 0 {
                return String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
            }
        }
        let walker = FileManager.default.enumerator(atPath: Corpus.repository)!
        return walker.compactMap { $0 as? String }.filter { !$0.hasPrefix(".build") && !$0.hasPrefix(".git/") && !$0.hasPrefix("out/") }
    }()

    /// Text that points outside the clone: the sibling folder an earlier layout used, its design
    /// page, and absolute paths of a developer's machine. (Joined here so that this file does not
    /// name the sibling folder itself to a grep of the repository.)
    static let sibling = ["..", "shared"].joined(separator: "/")
    static let outsideNames = [sibling, "shared" + "/corpus", "DESIGN.md", "/work/", "/home/", "/root/"]

    /// The text files among the tracked ones (the corpus's images and binary fixtures skipped).
    static func textFiles() -> [(String, String)] {
        trackedFiles.compactMap { file in
            guard let data = FileManager.default.contents(atPath: Corpus.repository + "/" + file),
                  !data.prefix(8192).contains(0), let text = String(data: data, encoding: .utf8) else { return nil }
            return (file, text)
        }
    }

    @Test func noTrackedFileNamesAPlaceOutsideTheClone() {
        let files = Self.textFiles()
        #expect(files.count > 100, "found \(files.count) text files under \(Corpus.repository)")
        // This file spells the names out to look for them.
        for (file, text) in files where !file.hasSuffix("StandaloneTests.swift") {
            for name in Self.outsideNames where text.contains(name) {
                Issue.record("\(file) names \(name)")
            }
        }
    }

    /// Every relative link or image in a tracked Markdown file resolves to a file or folder of the
    /// repository.
    @Test func documentationLinksStayInside() throws {
        let link = try Regex(#"\]\(([^)#\s]+)(#[^)]*)?\)"#)
        let root = URL(fileURLWithPath: Corpus.repository).standardizedFileURL.path
        var checked = 0
        for (file, text) in Self.textFiles() where file.hasSuffix(".md") && !file.hasPrefix("Tests/Corpus/") {
            for match in text.matches(of: link) {
                let target = String(match.output[1].substring!)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let base = URL(fileURLWithPath: Corpus.repository + "/" + file).deletingLastPathComponent()
                let resolved = URL(fileURLWithPath: target.removingPercentEncoding ?? target, relativeTo: base).standardizedFileURL.path
                #expect(resolved.hasPrefix(root + "/"), "\(file): \(target) leaves the repository")
                #expect(FileManager.default.fileExists(atPath: resolved), "\(file): \(target) does not exist")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test func corpusIsTheRepositorysOwn() throws {
        if ProcessInfo.processInfo.environment["FROST_CORPUS"] == nil {
            #expect(Corpus.root == Corpus.repository + "/Tests/Corpus")
        }
        let rows = Corpus.table("MANIFEST.tsv")
        #expect(rows.count == 728)
        for row in rows {
            #expect(FileManager.default.fileExists(atPath: Corpus.path(row["path"]!)), "\(row["path"]!) is missing")
        }
        // Every source keeps its provenance.
        for folder in try FileManager.default.contentsOfDirectory(atPath: Corpus.root) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Corpus.path(folder), isDirectory: &isFolder), isFolder.boolValue else { continue }
            #expect(FileManager.default.fileExists(atPath: Corpus.path(folder + "/SOURCE.md")), "\(folder) has no SOURCE.md")
        }
    }
}
