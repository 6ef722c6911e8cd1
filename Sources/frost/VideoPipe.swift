import Foundation
import FrostCodecs
import FrostColor
import FrostCore

/// An H.264 MP4 made by ffmpeg from raw RGBA frames piped to it at `rate` frames a second (ffmpeg's
/// `-r`: "30", "100/3"), written to a temporary file and renamed into place when ffmpeg succeeds
/// (removed otherwise).
final class VideoPipe {
    private let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let path: String
    private let temporary: String
    private var finished = false

    init(path: String, width: Int, height: Int, rate: String) throws {
        let search = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let ffmpeg = search.map({ "\($0)/ffmpeg" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CodecError(.encode, "writing MP4 needs ffmpeg, which is not installed (Debian: apt-get install ffmpeg); write OUT.png (APNG) or a folder instead")
        }
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporary = "\(folder)/.\(name).frost-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).mp4"
        // A write to ffmpeg after it stopped must fail with EPIPE, not end frost with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        // yuv420p (what players expect) needs even sizes: an odd edge gets one padded pixel. The
        // frames are sRGB: converted with BT.709's matrix and tagged BT.709 (primaries, transfer,
        // matrix), so that a player does not guess (swscale's default matrix is BT.601's, untagged).
        process.arguments = ["-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                             "-s", "\(width)x\(height)", "-r", rate, "-i", "-",
                             "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2,scale=out_color_matrix=bt709:out_range=tv",
                             "-c:v", "libx264", "-pix_fmt", "yuv420p",
                             "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
                             "-movflags", "+faststart", "-f", "mp4", temporary]
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw CodecError(.encode, "cannot start ffmpeg: \(error.localizedDescription)") }
    }

    deinit {
        if !finished {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            unlink(temporary)
        }
    }

    /// One frame: premultiplied RGBA, which is the frame over black where it is transparent; a
    /// tagged frame in sRGB first (an MP4 holds no ICC profile).
    func write(_ frame: Image) throws {
        do {
            try input.fileHandleForWriting.write(contentsOf: frame.inSRGB().premultiplied().pixels)
        } catch {
            throw failure("ffmpeg stopped reading frames")
        }
    }

    func finish() throws {
        finished = true
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            unlink(temporary)
            throw failure("ffmpeg failed")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CodecError(.io, "cannot rename into place: \(String(cString: strerror(errno)))")
        }
    }

    private func failure(_ what: String) -> CodecError {
        let detail = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            .split(separator: "\n").last.map { ": \($0)" } ?? ""
        return CodecError(.encode, what + detail)
    }
}
