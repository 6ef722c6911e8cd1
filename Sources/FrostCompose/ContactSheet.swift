import FrostCore
import FrostEffects

extension Image {
    /// Images laid out left to right and top to bottom, each shrunk or enlarged to `cellWidth`
    /// (its aspect kept, cells as tall as the first), over an opaque dark gray with `gap` pixels
    /// around them: a contact sheet of cache levels or a filmstrip of animation frames.
    public static func contactSheet(_ cells: [Image], columns: Int, cellWidth: Int, gap: Int = 8,
                                    threads: Int? = nil) -> Image {
        precondition(!cells.isEmpty && columns >= 1 && cellWidth >= 1, "a sheet needs cells, columns and a width")
        let cellHeight = max(1, (cells[0].height * cellWidth + cells[0].width / 2) / cells[0].width)
        let rows = (cells.count + columns - 1) / columns, across = min(columns, cells.count)
        let width = across * cellWidth + (across + 1) * gap, height = rows * cellHeight + (rows + 1) * gap
        var sheet = Image(width: width, height: height, filledWith: (32, 32, 32, 255), isPremultiplied: true)
        let threads = RowBands.threads(threads)
        for (i, cell) in cells.enumerated() {
            let small = cell.resampled(over: Rect(x: 0, y: 0, width: Double(cellWidth), height: Double(cellHeight)),
                                       region: PixelBounds(x: 0, y: 0, width: cellWidth, height: cellHeight), threads: threads)
            sheet.draw(small, x: gap + (i % columns) * (cellWidth + gap), y: gap + (i / columns) * (cellHeight + gap),
                       mode: .normal, threads: threads)
        }
        sheet.hasAlpha = false
        return sheet
    }
}
