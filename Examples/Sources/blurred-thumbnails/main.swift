// blurred-thumbnails FOLDER OUTPUT [WIDTH]
//
// Every PNG, JPEG and WebP in FOLDER as a blurred WebP thumbnail WIDTH pixels wide (320 unless
// given) in OUTPUT, and OUTPUT/index.json listing each with its size, its thumbnail's and the
// image's mean colour (a placeholder for a page to show while the thumbnail loads). The files are
// worked on concurrently; Frost's compute budget divides the cores among them.
import Foundation
import Frost

struct Entry: Codable {
    let file: String
    let width: Int
    let height: Int
    let thumbnail: String
    let thumbnailWidth: Int
    let thumbnailHeight: Int
    let thumbnailBytes: Int
    /// `#rrggbb`: the image's mean colour.
    let placeholder: String
}

func thumbnail(of url: URL, into output: URL, width: Int) async throws(CodecError) -> Entry {
    let photo = try await Image(contentsOf: url)
    let small = photo.resized(width: width, height: nil, fit: .contain)
    let blurred = await small.gaussianBlurred(sigma: Double(width) / 80)
    let name = url.deletingPathExtension().lastPathComponent + ".webp"
    try await blurred.write(to: output.appendingPathComponent(name), .webp(.lossy(quality: 80)))
    let mean = await photo.resized(width: 1, height: 1, kernel: .area).unpremultiplied().pixel(x: 0, y: 0)
    let bytes = (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(name).path)[.size] as? Int) ?? 0
    return Entry(file: url.lastPathComponent, width: photo.width, height: photo.height, thumbnail: name,
                 thumbnailWidth: blurred.width, thumbnailHeight: blurred.height, thumbnailBytes: bytes,
                 placeholder: String(format: "#%02x%02x%02x", mean.x, mean.y, mean.z))
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 || arguments.count == 3, let width = Int(arguments.dropFirst(2).first ?? "320"), width > 0 else {
    FileHandle.standardError.write(Data("usage: blurred-thumbnails FOLDER OUTPUT [WIDTH]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[arguments.startIndex])
let output = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
let images = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    .filter { ["png", "jpg", "jpeg", "webp"].contains($0.pathExtension.lowercased()) }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }

// A file that fails is reported and left out; the others are still made.
var entries: [Entry] = []
var failed = 0
await withTaskGroup(of: Result<Entry, CodecError>.self) { group in
    for url in images {
        group.addTask {
            do throws(CodecError) { return .success(try await thumbnail(of: url, into: output, width: width)) } catch { return .failure(error) }
        }
    }
    for await result in group {
        switch result {
        case .success(let entry): entries.append(entry)
        case .failure(let error):
            FileHandle.standardError.write(Data("blurred-thumbnails: \(error)\n".utf8))
            failed += 1
        }
    }
}
entries.sort { $0.file < $1.file }
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try encoder.encode(entries).write(to: output.appendingPathComponent("index.json"), options: .atomic)
print("wrote \(entries.count) thumbnails and \(output.appendingPathComponent("index.json").relativePath)")
exit(failed == 0 ? 0 : 1)
