@_spi(Kernels) import FrostCore

/// Layers that look the same in every render of a scene, by id (`#header`) or, for a layer
/// without one, JSON path (`layers[2]`, `layers[4].layers[0]`), and their rasters once drawn: Core Animation's render server keeps a
/// layer's backing store the same way and only moves, scales, clips and fades it per frame.
///
/// A retained layer's content, corner radius, border and mask must not change between renders
/// (its frame, transform, opacity and shadow may); a backdrop, which shows what is beneath it,
/// must never be retained. A raster is a function of the layer and of its size and sub-pixel
/// phase alone, never of the renders before, so a frame is the same whichever frames came first;
/// renders may share one from several threads (the rasters are kept under a lock, and two renders
/// that draw the same raster at once draw the same pixels).
public final class RetainedLayers: Sendable {
    /// `#id` or a JSON path per retained layer.
    public let keys: Set<String>
    /// Rasters kept per layer (sizes and phases it took lately); more are drawn again when met.
    public static let rastersPerLayer = 4
    private struct Kept {
        var rasters: [String: [(key: RetainedRaster.Key, raster: RetainedRaster)]] = [:]
        var drawnCount = 0
    }
    private let kept = Locked(Kept())

    /// How many rasters have been drawn (a layer drawn again after being dropped counts again).
    public var drawnCount: Int { kept.withLock { $0.drawnCount } }

    /// Rasters for the layers `keys` name.
    public init(keys: Set<String>) {
        self.keys = keys
    }

    /// The key a layer's raster is kept by: `#id` for a layer with an id, else its JSON path.
    public static func key(for layer: Layer, path: String) -> String {
        layer.id.map { "#" + $0 } ?? path
    }

    func raster(_ layer: String, _ key: RetainedRaster.Key) -> RetainedRaster? {
        kept.withLock { $0.rasters[layer]?.first { $0.key == key }?.raster }
    }

    func keep(_ raster: RetainedRaster, _ layer: String, _ key: RetainedRaster.Key) {
        kept.withLock { kept in
            var list = kept.rasters[layer, default: []]
            if let i = list.firstIndex(where: { $0.key == key }) {
                list[i].raster = raster
            } else {
                kept.drawnCount += 1
                list.insert((key, raster), at: 0)
                if list.count > Self.rastersPerLayer { list.removeLast() }
            }
            kept.rasters[layer] = list
        }
    }
}

/// A retained layer drawn once: its clipped content over the pixels its rectangle touches, and
/// its shadow's cast for one color, opacity and radius (its top-left `shift` pixels from the raster's).
struct RetainedRaster: Sendable {
    /// What the pixels depend on besides the layer: its size and the fractional part of its origin.
    struct Key: Equatable {
        let width: Double, height: Double, phaseX: Double, phaseY: Double
        init(_ rect: Rect) {
            width = rect.width
            height = rect.height
            phaseX = rect.x - rect.x.rounded(.down)
            phaseY = rect.y - rect.y.rounded(.down)
        }
    }

    let pixels: Image
    var shadow: (shadow: Shadow, image: Image, shift: Int)?

    init(pixels: Image) {
        self.pixels = pixels
    }
}
