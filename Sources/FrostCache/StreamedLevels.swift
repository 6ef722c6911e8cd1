import FrostCodecs
@_spi(Kernels) import FrostCore
import FrostEffects
import FrostFiles
import FrostStream
#if canImport(Glibc)
import Glibc
#endif

/// A cache of a large image built in bounded memory (docs/effects.md, "Operating a large
/// catalog"): its rows are read as they are decoded, once per full-size level, and every level
/// file is written strip by strip as its rows are made. Neither the source nor a level is ever
/// whole in memory: a full-size level is a streamed gaussian (`StreamedFilter`: decode → blur →
/// encode over a ring of rows), and the reduced levels (σ ≥ 8) come from the source's box
/// reduction, made in one more pass (`ReducedLevels`: 2 bytes per source pixel at f = 2, the one
/// large buffer). A 16000² JPEG took 8.57 GiB whole; streamed it peaks at 0.71 GiB.
///
/// Level 0 is the source's rows encoded again (a PNG source's file copied, as the whole path
/// does); the reduced levels are the whole path's bytes, and a full-size level is the source
/// blurred directly rather than through the chain of `GaussianLevels` (the same gaussian within
/// 2 levels: docs/cache-format.md). For an opaque JPEG shown as stored (not CMYK) or an opaque,
/// 8-bit, non-interlaced PNG, with PNG or JPEG levels stored compactly, rendered as gaussians
/// without tint, saturation or a colour conversion: anything else is built whole (`init` says nil).
struct StreamedLevels {
    let path: String
    /// A PNG's file, held (its rows are decoded from memory); nil for a JPEG, read from its file.
    let png: [UInt8]?
    let width: Int
    let height: Int
    let orientation: Int
    let options: CacheOptions
    let plan: CachePlan
    let decode: DecodeOptions
    let threads: Int

    /// The streamed build of the file at `path`, or nil where it builds whole: a source below
    /// `minimumPixels`, or one that or whose options do not stream.
    init?(file path: String, options: CacheOptions, decode: DecodeOptions, threads: Int?, minimumPixels: Int) throws {
        let plan = options.plan
        guard [.png, .jpeg].contains(options.format), options.color == nil, options.compact, options.background == nil || options.format == .jpeg,
              plan.renderer == .gaussian, plan.levels.allSatisfy({ $0.tint == nil && $0.saturation == 1 }),
              let kind = ImageFormat(sniffing: try FileIO.readPrefix(path, count: StreamRoute.headBytes)) else { return nil }
        (self.path, self.options, self.plan, self.decode, self.threads) = (path, options, plan, decode, RowBands.threads(threads))
        let info: ImageInfo
        switch kind {
        case .jpeg:
            let reader = try JPEGRowReader(path: path, options: decode)
            guard !reader.isCMYK else { return nil }
            (info, png) = (reader.info, nil)
        case .png where !decode.allowTruncated:   // a cut PNG's rows are kept by the whole read
            let bytes = try FileIO.read(path, maxBytes: decode.maxFileBytes)
            info = try ImageInfo(bytes: bytes)
            guard PNGRowReader.streams(info) else { return nil }
            png = bytes
        default:
            return nil
        }
        // Turning the picture upright needs all of it.
        guard info.width * info.height >= minimumPixels, info.orientation == 1 || !decode.autoOrient else { return nil }
        (width, height, orientation) = (info.width, info.height, info.orientation)
    }

    /// A new reader of the source's rows, started.
    private func reader() throws -> any StreamSource {
        if let png { return try PNGRowReader(bytes: png, options: decode) }
        let jpeg = try JPEGRowReader(path: path, options: decode)
        try jpeg.start()
        return jpeg
    }

    /// The level files and the manifest, last, written into `folder` (a staging folder).
    func write(into folder: String, name: String, identity: String) throws -> CacheManifest {
        var hash = SHA256(), sourceBytes = 0
        if let png {
            hash.update(png)
            sourceBytes = png.count
        } else {
            try LocalStore.readPieces(path, maxBytes: decode.maxFileBytes) { piece in
                hash.update(piece)
                sourceBytes += piece.count
            }
        }
        let sourceSHA256 = SHA256.hexString(hash.finalize())
        var entries: [CacheManifest.Level] = []
        // What every level file carries, from the header: a reader not started holds no rows.
        let (gray, profile) = try { () throws -> (Bool, [UInt8]?) in
            let header: any StreamSource = try png.map { try PNGRowReader(bytes: $0, options: decode) } ?? JPEGRowReader(path: path, options: decode)
            return (header.isGray, header.iccProfile)
        }()
        for level in plan.levels where level.factor == 1 && (level.index > 0 || options.sourceLevel) {
            if level.index == 0, let png, options.format == .png {
                // A PNG source is its own level 0 (`CacheStore.sourceIsLevelFile`).
                entries.append(try writeLevel(level, width: width, height: height, into: folder) { append in try append(png) })
                continue
            }
            let filter = try StreamedFilter(reader: try reader(), steps: level.sigma > 0 ? [.gaussian(sigma: level.sigma)] : [],
                                            limits: decode, threads: threads)
            entries.append(try writeLevel(level, width: width, height: height, into: folder) { append in
                if options.format == .jpeg { try filter.writeJPEG(options: options.encodeOptions, write: append) }
                else { try filter.writePNG(options: stripPNG, write: append) }
            })
        }
        let reduced = ReducedLevels(sigmas: plan.levels.map(\.sigma), width: width, height: height, threads: threads)
        if !reduced.sigmas.isEmpty {
            let source = try reader()
            let unit = reduced.stripAlignment
            let rows = max(unit, min(256, max(16, (1 << 21) / width)) / unit * unit)
            let strips = stride(from: 0, to: height, by: rows).map { $0..<min($0 + rows, height) }
            try StripExecutor(reader: source, operations: [], strips: strips, threads: threads)
                .run(produce: { k, pixels in reduced.reduce(pixels, rows: strips[k]) }, emit: { _ in })
            for (k, level) in plan.levels.filter({ $0.sigma >= 0.3 && $0.factor > 1 }).enumerated() {
                let (w, h) = reduced.size(k)
                entries.append(try writeLevel(level, width: w, height: h, into: folder) { append in
                    try encodeStrips(width: w, height: h, gray: gray, profile: profile, { strips, piece in
                        try reduced.render(k, strips: strips) { strip, pixels, rowBytes in try append(try piece(strip, pixels, rowBytes)) }
                    }, finish: append)
                })
            }
        }
        let manifest = CacheManifest(
            format: CacheManifest.formatName, version: options.sourceLevel ? CacheManifest.currentVersion : CacheManifest.sourcelessVersion,
            source: .init(file: name, bytes: sourceBytes, sha256: sourceSHA256, width: width, height: height, identity: identity),
            parameters: options, plan: plan, levels: entries.sorted { $0.index < $1.index })
        try CacheStore.write(manifest, in: folder)
        return manifest
    }

    /// PNG levels as the strip encoder writes them: level 1 over Paeth (the whole path's Up filter
    /// gives other bytes for the same pixels).
    private var stripPNG: EncodeOptions {
        var png = options.encodeOptions
        png.pngFilter = 4
        return png
    }

    /// An image of `width` × `height` encoded in the cache's format strip by strip: `body` is given
    /// the encoder's strips and makes each strip's piece from its rows; `finish` takes the end.
    private func encodeStrips(width: Int, height: Int, gray: Bool, profile: [UInt8]?,
                              _ body: ([Range<Int>], (Range<Int>, UnsafePointer<UInt8>, Int) throws -> [UInt8]) throws -> Void,
                              finish: ([UInt8]) throws -> Void) throws {
        if options.format == .jpeg {
            let encoder = try JPEGStripEncoder(width: width, height: height, gray: gray, units: 4, options: options.encodeOptions, iccProfile: profile)
            let strips = (0..<encoder.count).map(encoder.rows)
            try body(strips) { strip, pixels, rowBytes in try encoder.piece(strips.firstIndex(of: strip)!, pixels: pixels, rowBytes: rowBytes) }
        } else {
            let encoder = try PNGStripEncoder(width: width, height: height, gray: gray, stripRows: max(16, (1 << 21) / width),
                                              options: stripPNG, iccProfile: profile)
            let strips = (0..<encoder.count).map(encoder.rows)
            try body(strips) { strip, pixels, rowBytes in try encoder.piece(strips.firstIndex(of: strip)!, pixels: pixels, rowBytes: rowBytes) }
            try finish(encoder.end())
        }
    }

    /// One level file written from the pieces `body` appends (hashed as they go), committed at
    /// its name: `level-NN.ext`, or named by its content.
    private func writeLevel(_ level: CachePlan.Level, width: Int, height: Int, into folder: String,
                            _ body: (([UInt8]) throws -> Void) throws -> Void) throws -> CacheManifest.Level {
        let provisional = folder + "/" + String(format: "level-%02d.", level.index) + options.format.fileExtension
        let file = try AtomicFile(provisional)
        var hash = SHA256(), bytes = 0
        try body { piece in
            hash.update(piece)
            bytes += piece.count
            try file.append(piece)
        }
        try file.commit()
        let sha = SHA256.hexString(hash.finalize())
        let name = CacheStore.levelName(level.index, sha256: sha, options: options)
        if folder + "/" + name != provisional, rename(provisional, folder + "/" + name) != 0 {
            throw CodecError(.io, "cannot write \(name): \(String(cString: strerror(errno)))")
        }
        return CacheStore.levelEntry(level, width: width, height: height, file: name, sha256: sha, bytes: bytes)
    }
}
