import FrostCodecs
import FrostColor
import FrostCore
import FrostEffects

/// What a streamed command reads: rows, and what its output keeps of the file.
package protocol StreamSource: RowReader {
    /// One channel in the file: R, G and B stay equal through every step.
    var isGray: Bool { get }
    var iccProfile: [UInt8]? { get }
}

extension JPEGRowReader: StreamSource {}

extension PNGRowReader: StreamSource {
    package var isGray: Bool { info.channels == 1 }
}

/// A filter command streamed (docs/design.md, Streaming): a JPEG or an opaque PNG read as it is decoded, the
/// steps run strip by strip, the result encoded strip by strip (a JPEG, a PNG at the default level)
/// or gathered (WebP, AVIF, other PNGs): the pixels of decoding the whole image, running the steps
/// and encoding it (a JPEG's bytes as well).
package struct StreamedFilter {
    let reader: any StreamSource
    let operations: [any RowOperation]
    let threads: Int
    /// Output rows per strip, when not `stripRows(unit:)`'s (a JPEG's strips round it to whole
    /// units).
    let chosenStripRows: Int?

    /// The steps (each one that `streams`) over `reader`'s rows (a JPEG's started: `reader.start`); a
    /// resize larger than `limits` allow is refused as the whole-image step refuses it.
    package init(reader: any StreamSource, steps: [FilterStep], limits: DecodeOptions, threads: Int, stripRows: Int? = nil) throws {
        self.reader = reader
        self.threads = threads
        chosenStripRows = stripRows
        profile = reader.iccProfile
        isGray = reader.isGray
        var operations: [any RowOperation] = []
        var (width, height) = (reader.width, reader.height)
        for step in steps {
            switch step {
            case .gaussian(let sigma, let linear):
                operations.append(GaussianRows(sigma: sigma, linear: linear, width: width, height: height))
            case .adjust(let adjustment) where !adjustment.isIdentity:
                operations.append(AdjustRows(adjustment, width: width, height: height))
            case .adjust:
                continue
            case .color(let source, let target, let intent):
                if let rows = try ColorRows(from: source, to: target, intent: intent, width: width, height: height) { operations.append(rows) }
                profile = target == .sRGB ? nil : ColorProfile.builtIn(target)
                isGray = false
            case .resize(let w, let h, let fit, _, _, let kernel, let linear):
                precondition(step.streams, "a padded resize is made whole")
                // ResizeRows is nil for the image as it is.
                guard try step.resizes(width: width, height: height, limits: limits),
                      let resize = ResizeRows(width: width, height: height, toWidth: w, height: h, fit: fit, kernel: kernel,
                                             linear: linear) else { continue }
                operations.append(resize)
                (width, height) = (resize.outputWidth, resize.outputHeight)
            }
        }
        self.operations = operations
    }

    /// A gray JPEG stays gray: every step treats R, G and B alike, so they stay equal (but a
    /// colour conversion).
    package private(set) var isGray: Bool
    /// The profile the output carries: the input's, or the target's of a colour step.
    package private(set) var profile: [UInt8]?
    package var width: Int { operations.last?.outputWidth ?? reader.width }
    package var height: Int { operations.last?.outputHeight ?? reader.height }

    /// Output rows per strip, a whole number of `unit`s: about 256 rows of input (fewer for an
    /// input over 8192 wide: about 2 Mpixel, which kept a 16384² blur in 80 MB where 256 rows took
    /// 125), so that a shrinking resize's strips are short enough to keep both threads busy up to
    /// the last input row, and a blur's long enough that their edges, made twice, cost little.
    func stripRows(unit: Int) -> Int {
        let input = min(256, max(16, (1 << 21) / max(reader.width, 1)))
        let rows = chosenStripRows ?? input * height / max(reader.height, 1)
        return max(1, rows / unit) * unit
    }

    /// The result as a baseline JPEG, in pieces handed to `write` in order: the pieces together
    /// are the file (`JPEGStripEncoder`).
    package func writeJPEG(options: EncodeOptions, write: ([UInt8]) throws -> Void) throws {
        func encoder(units: Int) throws -> JPEGStripEncoder {
            try JPEGStripEncoder(width: width, height: height, gray: isGray, units: units, options: options, iccProfile: profile)
        }
        var probe = try encoder(units: 1)
        let units = stripRows(unit: probe.stripRows) / probe.stripRows
        if units > 1 { probe = try encoder(units: units) }
        let encoder = probe
        let executor = StripExecutor(reader: reader, operations: operations, strips: (0..<encoder.count).map(encoder.rows),
                                     threads: threads)
        try executor.run(produce: { k, rows in
            try encoder.piece(k, pixels: rows.row(encoder.rows(k).lowerBound), rowBytes: 4 * rows.width)
        }, emit: write)
    }

    /// The result as a PNG (`PNGStripEncoder`: opaque, level 1 over Paeth), in pieces handed to
    /// `write` in order: the pieces together are the file.
    package func writePNG(options: EncodeOptions, write: ([UInt8]) throws -> Void) throws {
        let encoder = try PNGStripEncoder(width: width, height: height, gray: isGray, stripRows: stripRows(unit: 1),
                                          options: options, iccProfile: profile)
        let executor = StripExecutor(reader: reader, operations: operations, strips: (0..<encoder.count).map(encoder.rows),
                                     threads: threads)
        try executor.run(produce: { k, rows in
            try encoder.piece(k, pixels: rows.row(encoder.rows(k).lowerBound), rowBytes: 4 * rows.width)
        }, emit: write)
        try write(encoder.end())
    }

    /// The whole result, gathered strip by strip.
    package func image() throws -> Image {
        let (width, height) = (width, height), rowBytes = 4 * width
        let step = stripRows(unit: chosenStripRows == nil ? 16 : 1)
        let strips = stride(from: 0, to: height, by: step).map { $0..<min($0 + step, height) }
        let executor = StripExecutor(reader: reader, operations: operations, strips: strips, threads: threads)
        let pixels = try [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, count in
            let base = out.baseAddress!
            try executor.run(produce: { k, rows in
                for y in strips[k] { (base + y * rowBytes).update(from: rows.row(y), count: rowBytes) }
            }, emit: { _ in })
            count = rowBytes * height
        }
        return Image(width: width, height: height, pixels: pixels, isPremultiplied: false, hasAlpha: false, isGray: isGray,
                     iccProfile: profile)
    }
}

/// `converted(to:intent:)` of an opaque image, by strips: a map of each pixel alone, on the
/// transform every strip's thread shares (`RowColorTransform`).
struct ColorRows: RowOperation {
    let inputWidth: Int
    let inputHeight: Int
    let transform: RowColorTransform

    /// Nil where the pixels are in the target already (untagged or sRGB-tagged into sRGB).
    init?(from source: [UInt8]?, to target: ColorTarget, intent: RenderingIntent, width: Int, height: Int) throws {
        if target == .sRGB, source.flatMap({ try? ColorProfile($0) })?.isSRGB(for: intent) ?? true { return nil }
        do {
            transform = try RowColorTransform(from: source, to: target, intent: intent)
        } catch {
            throw CodecError(.unsupported, "cannot convert its colours: \(error.description)")
        }
        (inputWidth, inputHeight) = (width, height)
    }

    var outputWidth: Int { inputWidth }
    var outputHeight: Int { inputHeight }
    func inputRows(for rows: Range<Int>) -> Range<Int> { rows }

    func run(_ input: PixelRows, rows: Range<Int>, into output: PixelRows) {
        for y in rows {
            // Out of memory is lcms2's only failure, and only for gray rows, which never stream.
            _ = transform.apply(input.row(y), into: output.row(y), width: inputWidth, rows: 1, rowBytes: 4 * inputWidth)
        }
    }
}
