import Foundation
import FrostFiles

/// The test corpus, `Tests/Corpus/` in the repository (or $FROST_CORPUS, to run the tests on another copy).
public enum Corpus {
    /// The repository root: #filePath is <repo>/Tests/FrostTestSupport/Corpus.swift.
    public static let repository: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    public static let root: String = ProcessInfo.processInfo.environment["FROST_CORPUS"] ?? repository + "/Tests/Corpus"

    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// Paths (relative to the corpus) of MANIFEST.tsv rows with this format and expectation.
    public static func files(format: String, expected: String) -> [String] {
        table("MANIFEST.tsv").filter { $0["format"] == format && $0["expected"] == expected }.map { $0["path"]! }
    }

    /// A tab-separated file with a header row, as dictionaries.
    public static func table(_ relative: String) -> [[String: String]] {
        guard let text = try? String(contentsOfFile: path(relative), encoding: .utf8) else { return [] }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst()
        return lines.map { Dictionary(uniqueKeysWithValues: zip(header, $0 + Array(repeating: "", count: max(0, header.count - $0.count)))) }
    }
}
