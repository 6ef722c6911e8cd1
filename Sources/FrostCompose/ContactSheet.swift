@_spi(Kernels) import FrostCore
import FrostEffects

extension Image {
    /// Images laid out left to right and top to bottom, each shrunk or enlarged to `cellWidth`
    /// (its aspect kept, cells as tall as the first), over an opaque dark gray with `gap` pixels
    /// around them: a contact sheet of cache levels or a filmstrip of animation frames.
    ///
    /// With `labels` (one per cell, lines split at "\n"), each cell has its label under it in
    /// light gray DejaVu Sans (`font`, or the system's), cut to the cell's width. A sheet of more
    /// than `maxPixels` pixels is refused before it is allocated.
    public static func contactSheet(_ cells: [Image], labels: [String] = [], font: [UInt8]? = nil, columns: Int,
                                    cellWidth: Int, gap: Int = 8, maxPixels: Int = Scene.maximumPixels,
                                    threads: Int? = nil) throws(ComposeError) -> Image {
        precondition(!cells.isEmpty && columns >= 1 && cellWidth >= 1, "a sheet needs cells, columns and a width")
        precondition(labels.isEmpty || labels.count == cells.count, "one label per cell")
        var caption: Caption?
        if !labels.isEmpty {
            let lines = labels.map { $0.split(separator: "\n", omittingEmptySubsequences: false).count }.max()!
            let bytes: [UInt8]
            if let font { bytes = font } else { bytes = try SceneAssets.defaultFont().bytes }
            caption = try Caption(font: bytes, cellWidth: cellWidth, lines: lines)
        }
        let cellHeight = max(1, (cells[0].height * cellWidth + cells[0].width / 2) / cells[0].width)
        let rowHeight = cellHeight + (caption?.height ?? 0)
        let rows = (cells.count + columns - 1) / columns, across = min(columns, cells.count)
        let width = across * cellWidth + (across + 1) * gap, height = rows * rowHeight + (rows + 1) * gap
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw ComposeError("sheet", "\(width)×\(height) pixels is more than the limit of \(maxPixels) (see --max-pixels)")
        }
        var sheet = Image(width: width, height: height, filledWith: (32, 32, 32, 255), isPremultiplied: true)
        let threads = RowBands.threads(threads)
        for (i, cell) in cells.enumerated() {
            let small = cell.resampled(over: Rect(x: 0, y: 0, width: Double(cellWidth), height: Double(cellHeight)),
                                       region: PixelBounds(x: 0, y: 0, width: cellWidth, height: cellHeight), threads: threads)
            let x = gap + (i % columns) * (cellWidth + gap), y = gap + (i / columns) * (rowHeight + gap)
            sheet.draw(small, x: x, y: y, mode: .normal, threads: threads)
            if let caption { sheet.draw(caption.render(labels[i]), x: x, y: y + cellHeight, mode: .normal, threads: threads) }
        }
        sheet.hasAlpha = false
        return sheet
    }
}

/// The band of text under a sheet's cell: a pixel size that suits the cell (10 to 15 px), a few
/// pixels of air above the first line.
private struct Caption {
    static let color = Color(white: 0.86)
    let face: FontFace
    let width: Int
    let height: Int
    let top: Double

    init(font: [UInt8], cellWidth: Int, lines: Int) throws(ComposeError) {
        face = try FontFace(bytes: font, name: "the sheet's font", pixelSize: Double(min(15, max(10, cellWidth / 20))))
        width = cellWidth
        top = (face.lineHeight / 4).rounded()
        height = Int((top + Double(lines) * face.lineHeight).rounded(.up))
    }

    func render(_ text: String) -> Image {
        let bounds = PixelBounds(x: 0, y: 0, width: width, height: height)
        let coverage = TextLayout(text, face: face, maxWidth: nil)
            .coverage(face: face, in: Rect(x: 0, y: top, width: Double(width), height: Double(height) - top),
                      alignment: .left, lineHeight: face.lineHeight, bounds: bounds)
        return SceneRenderer.image(color: Self.color, coverage: coverage, bounds)
    }
}
