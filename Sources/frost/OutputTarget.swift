import ArgumentParser
import Foundation
import FrostCodecs
import FrostFiles

/// Where a filter writes: one file, standard output (`-`), a folder mirroring the inputs'
/// relative paths (`out/`), or a name pattern (`out/%s-blur.webp`, `%s` = the input's name
/// without its extension, as vipsthumbnail's -o).
enum OutputTarget: Equatable {
    case file(String)
    case standardOutput
    case folder(String)
    case pattern(String)

    init(_ text: String) {
        if text == "-" { self = .standardOutput }
        else if text.contains("%s") { self = .pattern(text) }
        else if text.hasSuffix("/") || isExistingFolder(text) {
            self = .folder(text.hasSuffix("/") ? String(text.dropLast()) : text)
        } else { self = .file(text) }
    }

    /// The target `text` names, refusing an existing folder named like an image file (`out.png`
    /// without a trailing slash): a single output would land inside it under the input's name.
    init(checking text: String) throws {
        self.init(text)
        if case .folder = self, !text.hasSuffix("/"), ImageFormat(pathExtension: text) != nil || FrameOutput.isVideo(text) {
            throw ValidationError("'\(text)' is a folder: end it with / to write into it, or name a file")
        }
    }

    /// The folder outputs go into (a folder target, or a pattern's folder), which a folder walk
    /// over the inputs does not enter.
    var folder: String? {
        switch self {
        case .folder(let path): return path
        case .pattern(let pattern):
            let root = Self.root(of: pattern)
            return root.isEmpty ? nil : root
        case .file, .standardOutput: return nil
        }
    }

    /// Whether it writes an animation as a video or a file per frame (`FrameOutput`): said by the
    /// argument itself, never by an input's name filled into a pattern.
    var writesFrames: Bool {
        switch self {
        case .file(let path), .pattern(let path): FrameOutput(path: path) != nil
        case .folder, .standardOutput: false
        }
    }

    /// Whether one target can take several inputs.
    var takesMany: Bool {
        switch self {
        case .folder, .pattern: true
        case .file, .standardOutput: false
        }
    }

    /// The format written for an input whose own format is `source`: `--format`, else the
    /// output name's extension, else (folders, standard output, patterns without one) the input's.
    func format(chosen: ImageFormat?, source kept: ImageFormat) -> ImageFormat {
        if let chosen { return chosen }
        switch self {
        case .file(let path), .pattern(let path): return ImageFormat(pathExtension: path) ?? kept
        case .folder, .standardOutput: return kept
        }
    }

    /// The path written for `input` in `format` (nil for standard output). A folder or a pattern
    /// never writes outside itself: a relative path with `..`, an absolute one (from a list) or a
    /// link on the way is refused for that input (`FileIO.confined`).
    func path(for input: FileBatch.Input, format: ImageFormat) throws -> String? {
        switch self {
        case .standardOutput: return nil
        case .file(let path): return path
        case .folder(let folder):
            return try FileIO.confined(outputName(for: input, format: format)!, under: folder)
        case .pattern(let pattern):
            return try FileIO.confined(outputName(for: input, format: format)!, under: Self.root(of: pattern))
        }
    }

    /// The output's path under the target's folder (a folder's mirrored path, a pattern's filled
    /// name), whatever that folder is called: what shards split by, so that workers writing into
    /// differently named folders still agree. Nil for a file or standard output.
    func outputName(for input: FileBatch.Input, format: ImageFormat) -> String? {
        switch self {
        case .standardOutput, .file: return nil
        case .folder: return Self.renamed(input.relative, to: format)
        case .pattern(let pattern):
            let name = ((input.relative as NSString).lastPathComponent as NSString).deletingPathExtension
            let root = Self.root(of: pattern)
            let rest = String(pattern.dropFirst(root.isEmpty ? 0 : root == "/" ? 1 : root.count + 1))
            let filled = rest.replacingOccurrences(of: "%s", with: name)
            return ImageFormat(pathExtension: filled) == nil && !FrameOutput.isVideo(filled) ? filled + "." + format.fileExtension : filled
        }
    }

    /// A pattern's own folders before the one holding %s: the user's; what %s fills in stays under them.
    private static func root(of pattern: String) -> String {
        let prefix = pattern[..<pattern.range(of: "%s")!.lowerBound]
        return prefix.lastIndex(of: "/").map { $0 == pattern.startIndex ? "/" : String(pattern[..<$0]) } ?? ""
    }

    /// `relative` with an extension of `format`: kept when it already names it (a.jpeg stays a.jpeg).
    static func renamed(_ relative: String, to format: ImageFormat) -> String {
        if ImageFormat(pathExtension: relative) == format { return relative }
        let stem = ImageFormat(pathExtension: relative) == nil ? relative : (relative as NSString).deletingPathExtension
        return stem + "." + format.fileExtension
    }
}

/// Whether `path` names a folder that exists (links followed).
func isExistingFolder(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
}
