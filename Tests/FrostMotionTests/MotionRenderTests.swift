import FrostCache
import FrostCodecs
import FrostCompose
import FrostCore
import FrostCrossfade
import FrostFiles
@testable import FrostMotion
import FrostTestSupport
import Foundation
import Testing

/// Rendering motion scenes: retained rasters against drawing everything afresh, frames that
/// depend only on their driver state, blurred layers drawn from their cache, and APNG files.
@Suite struct MotionRenderTests {
    static let samples = Corpus.repository + "/SampleImages/motion"

    static func load(_ name: String, scale: Double = 1) throws -> MotionRenderer {
        var motion = try MotionScene(json: try FileIO.read("\(samples)/\(name)"), directory: samples)
        motion.scene.scale = scale
        return try MotionRenderer(motion, assets: try SceneAssets(for: motion.scene, relativeTo: samples), directory: samples)
    }

    /// Whether some retained layer is scaled by its own transform at this state (its raster is
    /// then resampled rather than copied).
    static func scalesARetainedLayer(_ scene: Scene, _ paths: Set<String>) -> Bool {
        func walk(_ layers: [Layer], _ prefix: String) -> Bool {
            layers.enumerated().contains { i, layer in
                let path = "\(prefix)[\(i)]"
                if paths.contains(RetainedLayers.key(for: layer, path: path)) { return layer.transform.scale != 1 }
                if case .group(let children) = layer.content { return walk(children, "\(path).layers") }
                return false
            }
        }
        return walk(scene.layers, "layers")
    }

    /// Every sample, every few frames: kept rasters placed by whole pixels (or drawn afresh for a
    /// new sub-pixel phase) give the very bytes of drawing every layer afresh. A layer under a
    /// transform scale (a card pressed to 0.95, Twitter's shrinking avatar and stretched banner) is
    /// its scale-1 raster resampled, as Core Animation scales a backing store; drawn afresh at the
    /// new scale its text and edges are rasterized anew, so the two differ at glyph edges (up to a
    /// whole level range on a few pixels at scale 1) but little on the whole: measured mean 0.55-1.7.
    @Test(arguments: [("secret-viewer.json", true, 1.0), ("secret-viewer.json", true, 2.0), ("twitter-profile.json", false, 1.0),
                      ("appstore-press.json", false, 1.0), ("vesper-transition.json", true, 1.0)])
    func retainedRastersEqualDrawingEverythingAfresh(_ name: String, _ neverScaled: Bool, _ scale: Double) throws {
        let renderer = try Self.load(name, scale: scale)
        let states = renderer.motion.timeline!.states()
        var exact = 0, resampled = 0
        for k in stride(from: 0, to: states.count, by: max(1, states.count / 12)) {
            let scene = renderer.scene(at: states[k])
            let kept = try renderer.frame(at: states[k])
            let fresh = try scene.rendered(assets: renderer.assets)
            if Self.scalesARetainedLayer(scene, renderer.retained.keys) {
                let d = PixelDifference(kept, fresh)
                #expect(d.mean < 2.5, "frame \(k): \(d)")
                resampled += 1
            } else {
                let same = kept.pixels == fresh.pixels
                #expect(same, "frame \(k): \(PixelDifference(kept, fresh))")
                exact += 1
            }
        }
        #expect(!neverScaled || resampled == 0)
        #expect(exact + resampled > 10)
        #expect(renderer.retained.drawnCount > 0 && !renderer.retained.keys.isEmpty)
    }

    /// The same frames in two orders (a sweep, and backwards from the end with other frames in
    /// between) from two renderers: the same bytes, whatever each renderer kept.
    @Test func aFrameDependsOnlyOnItsDriverState() throws {
        let sweep = try Self.load("twitter-profile.json"), other = try Self.load("twitter-profile.json")
        let states = sweep.motion.timeline!.states()
        var swept: [Int: Image] = [:]
        for k in stride(from: 0, to: states.count, by: 4) { swept[k] = try sweep.frame(at: states[k]) }
        for k in [80, 44, 9, 60, 0, 23, 41] {
            let alone = try other.frame(at: states[k])
            if let seen = swept[k] { #expect(alone.pixels == seen.pixels, "frame \(k)") }
            _ = try other.frame(at: DriverState(scroll: states[k].scroll + 1.37))
        }
    }

    /// A blurred image layer shows its cache's frames: progress 0 is the layer as drawn, progress 1
    /// in nearest mode the last level, in between the crossfade of two levels (never a live blur).
    @Test func blurredLayersShowTheirCachesFrames() throws {
        let photo = noiseImage(width: 64, height: 48, opaque: true).resized(width: 64, height: 48)
        var layer = Layer(.image(.pixels(photo), .fill))
        layer.frame = Rect(x: 0, y: 0, width: 64, height: 48)
        let scene = Scene(width: 64, height: 48, scale: 1, background: .white, layers: [layer])
        let blur = LayerBlur(spec: BlurCacheSpec(levels: 4, maxSigma: 6), mode: .nearest)
        let progress = PropertyAnimation(.blurProgress, keyframes: Keyframes([.init(0, [0]), .init(100, [1])]))
        let motion = MotionScene(scene: scene, timeline: .scroll(from: 0, to: 100, frames: 5),
                                 motions: [[0]: LayerMotion(animations: [progress], blur: blur)])
        let renderer = try MotionRenderer(motion, assets: SceneAssets())
        let plan = CachePlan(count: 4, maxSigma: 6)
        let levels = CacheRenderer(plan: plan).render(photo)
        let cache = CrossfadeCache(plan: plan, levels: [photo] + levels.dropFirst(), width: 64, height: 48)
        #expect(try renderer.frame(at: DriverState(scroll: 0)).pixels == scene.rendered().pixels)
        #expect(PixelDifference(try renderer.frame(at: DriverState(scroll: 100)), cache.level(4)).max == 0)
        #expect(PixelDifference(try renderer.frame(at: DriverState(scroll: 60)), cache.frame(at: 0.6, mode: .nearest)).max == 0)
        #expect(PixelDifference(try renderer.frame(at: DriverState(scroll: 60)), cache.level(3)).max == 0)
    }

    @Test func animatedPNGsReadBackFrameByFrame() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for alpha in [false, true] {
            let frames = (0..<4).map { noiseImage(width: 37, height: 23, seed: UInt64(11 + $0), opaque: !alpha) }
            let path = folder.file("a\(alpha).png")
            let writer = try AnimatedPNGWriter(path: path, width: 37, height: 23, frameCount: 4, hasAlpha: alpha)
            for (k, frame) in frames.enumerated() { try writer.append(frame, delay: k == 3 ? 0.5 : 1.0 / 60) }
            #expect(!FileManager.default.fileExists(atPath: path))   // written aside until finished
            try writer.finish()
            let read = try APNGFrames(try FileIO.read(path))
            #expect(read.frameCount == 4 && read.plays == 0)
            let sixtieth = 1.0 / 60
            #expect(read.delays == [sixtieth, sixtieth, sixtieth, 0.5])
            for (a, b) in zip(read.frames, frames) { #expect(a.pixels == b.pixels && a.hasAlpha == alpha) }
            // The first frame is also the default image a plain PNG reader shows.
            #expect(try Image(contentsOfFile: path).pixels == frames[0].pixels)
        }
        // Frames that change in part store only the changed rectangle; an unchanged one stores one pixel.
        do {
            let first = noiseImage(width: 40, height: 30, seed: 3, opaque: true)
            var second = first, fourth = first
            second.paste(noiseImage(width: 5, height: 4, seed: 4, opaque: true), x: 30, y: 20)
            fourth.pixels[(29 * 40 + 39) * 4] &+= 1
            fourth.pixels[(2 * 40 + 6) * 4 + 2] &+= 1
            let frames = [first, second, second, fourth]
            let path = folder.file("delta.png")
            let writer = try AnimatedPNGWriter(path: path, width: 40, height: 30, frameCount: 4, hasAlpha: false)
            for frame in frames { try writer.append(frame, delay: 0.1) }
            try writer.finish()
            let read = try APNGFrames(try FileIO.read(path))
            #expect(read.regions == [PixelBounds(x: 0, y: 0, width: 40, height: 30), PixelBounds(x: 30, y: 20, width: 5, height: 4),
                                     PixelBounds(x: 0, y: 0, width: 1, height: 1), PixelBounds(x: 6, y: 2, width: 34, height: 28)])
            for (k, (a, b)) in zip(read.frames, frames).enumerated() { #expect(identical(a, b), "frame \(k)") }
        }
        do {
            let short = try AnimatedPNGWriter(path: folder.file("short.png"), width: 8, height: 8, frameCount: 2, hasAlpha: false)
            try short.append(noiseImage(width: 8, height: 8, opaque: true), delay: 0.1)
            #expect(throws: CodecError.self) { try short.finish() }
            #expect(throws: CodecError.self) { try short.append(noiseImage(width: 9, height: 8, opaque: true), delay: 0.1) }
        }
        // An unfinished animation leaves nothing behind.
        #expect(!folder.contents().contains { $0.contains("short") })
    }
}
