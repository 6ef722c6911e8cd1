import Foundation
import Frost

/// A named, parametric benchmark case (`frost bench --case NAME`): `copy`, `box-r<R>`,
/// `gauss-s<σ>`(`-linear`), `resize-<W>`, `resize-<W>-<kernel>` (each `-linear-light` too), `png-write`, `effect-light`, `adjust`, `brightness`, `cache-10`, `fade`, `fade-exact`, `compose`,
/// `scroll-secret`, `scroll-twitter`, `scroll-twitter-blend`, `icc-p3-to-srgb`(`-lcms2`), `icc-cmyk-to-srgb`. The same cases run in Benchmarks/ and in `make compare`, so
/// numbers line up.
public enum BenchCase: Sendable, Equatable, CustomStringConvertible {
    /// A plain copy of the same bytes: the memory floor, measured in the same run.
    case copy
    case box(radius: Int)
    /// `frost blur --sigma S [--linear]`: `gauss-sS`, in linear light `gauss-sS-linear`.
    case gaussian(sigma: Double, linear: Bool = false)
    /// `frost resize --width W [--kernel K] [--linear]` (the height follows the aspect ratio); named
    /// `resize-W` with the default kernel, else `resize-W-K` (the area average is `box`), and in
    /// linear light `resize-W-linear-light`, `resize-W-K-linear-light`.
    case resize(width: Int, kernel: ResampleKernel?, linear: Bool = false)
    /// The image written as PNG with the default options (what `frost convert` and each frame of
    /// `frost animate`'s APNG do), in memory, its deflate's segments on `threads`.
    case pngWrite
    /// UIImage+ImageEffects `applyLightEffect` (radius 30, scale 1).
    case effectLight
    /// Color controls: brightness 0.1, contrast 1.2, saturation 1.3.
    case adjust
    /// Brightness 0.1 alone (25.5 levels): the work `make compare`'s peers do for this case
    /// (cv2.add of 25 levels).
    case brightness
    /// Rendering the default cache plan: ten levels up to σ = 40 (no file I/O).
    case cache10
    /// One blended frame at p = 0.37 from a compact cache rendered beforehand.
    case fade
    /// One exact frame (`FadeMode.exact`, a gaussian of σ = p·40) from the same cache; `fade-exact`
    /// is p = 0.37, `fade-exact-P` any p in [0, 1] (the grid behind docs/performance.md).
    case fadeExact(p: Double)
    /// `blended(with:fraction: 0.37)` of the image and a full-size blur of it made beforehand:
    /// the crossfade of two stored levels, measured against `copy`.
    case blend
    /// An iPhone-size snapshot (BenchScene: 1170×2532, eight layers, one shadow, one backdrop
    /// blur, text) with the image as its photo; the font is read beforehand.
    case compose
    /// The image's values read as Display P3 and converted to sRGB (relative colorimetric): by the
    /// matrix/TRC fast path (`icc-p3-to-srgb`), or by lcms2's own transform, its reference
    /// (`icc-p3-to-srgb-lcms2`).
    case iccP3ToSRGB(lcms2: Bool)
    /// The image's bytes read as CMYK samples under Ghostscript's SWOP profile (Debian's
    /// libgs-common) and converted to sRGB by lcms2 (what a CMYK JPEG with a profile costs on decode).
    case iccCMYKToSRGB
    /// Every frame of a seed app's scroll sweep (SampleImages/motion), 1170×2532: the time is per
    /// frame (median over the frames of every run), encoding excluded; the image is not used.
    case scroll(MotionSample)

    /// The motion scenes the scroll cases sweep.
    public enum MotionSample: String, Sendable, CaseIterable {
        /// Secret's viewer: a pre-blurred snapshot faded over a parallax photo, a sticky header.
        case secret = "secret-viewer"
        /// Twitter's profile: eleven pre-blurred banners stepped through as the page scrolls.
        case twitter = "twitter-profile"
        /// The same with the blur following the scroll continuously (two levels blended per frame).
        case twitterBlend = "twitter-profile-blend"
    }

    /// The cases `frost bench` runs when none is named.
    public static let standard: [BenchCase] = [.copy, .box(radius: 40), .gaussian(sigma: 2), .gaussian(sigma: 4),
                                               .gaussian(sigma: 20), .gaussian(sigma: 40), .gaussian(sigma: 200),
                                               .resize(width: 1170, kernel: .area), .resize(width: 1170, kernel: .linear),
                                               .resize(width: 1170, kernel: .lanczos3),
                                               .effectLight, .adjust, .brightness, .cache10, .fade, .blend, .compose]

    /// The cache the `cache-10` and `fade` cases use.
    public static let cachePlan = CachePlan(count: 10, maxSigma: 40)

    public static let adjustment = ColorAdjustment(brightness: 0.1, contrast: 1.2, saturation: 1.3)
    public static let brightening = ColorAdjustment(brightness: 0.1)

    public init?(name: String) {
        switch name {
        case "copy": self = .copy
        case "effect-light": self = .effectLight
        case "adjust": self = .adjust
        case "brightness": self = .brightness
        case "cache-10": self = .cache10
        case "fade": self = .fade
        case "png-write": self = .pngWrite
        case "fade-exact": self = .fadeExact(p: 0.37)
        case "blend": self = .blend
        case "compose": self = .compose
        case "scroll-secret": self = .scroll(.secret)
        case "scroll-twitter": self = .scroll(.twitter)
        case "scroll-twitter-blend": self = .scroll(.twitterBlend)
        case "icc-p3-to-srgb": self = .iccP3ToSRGB(lcms2: false)
        case "icc-p3-to-srgb-lcms2": self = .iccP3ToSRGB(lcms2: true)
        case "icc-cmyk-to-srgb": self = .iccCMYKToSRGB
        default:
            if name.hasPrefix("box-r"), let r = Int(name.dropFirst(5)), (0...1000).contains(r) {
                self = .box(radius: r)
            } else if name.hasPrefix("resize-"), case let linear = name.hasSuffix("-linear-light"),
                      case let parts = name.dropFirst(7).dropLast(linear ? 13 : 0).split(separator: "-", omittingEmptySubsequences: false),
                      parts.count <= 2, let w = Int(parts[0]), (1...65535).contains(w) {
                guard parts.count == 2 else { self = .resize(width: w, kernel: nil, linear: linear); return }
                guard let kernel = parts[1] == "box" ? .area : ResampleKernel(rawValue: String(parts[1])) else { return nil }
                self = .resize(width: w, kernel: kernel, linear: linear)
            } else if name.hasPrefix("fade-exact-"), let p = Double(name.dropFirst(11)), (0...1).contains(p) {
                self = .fadeExact(p: p)
            } else if name.hasPrefix("gauss-s"), case let linear = name.hasSuffix("-linear"),
                      let s = Double(name.dropFirst(7).dropLast(linear ? 7 : 0)), s.isFinite, (0...250).contains(s) {
                self = .gaussian(sigma: s, linear: linear)
            } else {
                return nil
            }
        }
    }

    public var description: String {
        switch self {
        case .copy: "copy"
        case .box(let r): "box-r\(r)"
        case .gaussian(let s, let linear): "gauss-s\(s == s.rounded() ? String(Int(s)) : String(s))\(linear ? "-linear" : "")"
        case .resize(let w, nil, let linear): "resize-\(w)\(linear ? "-linear-light" : "")"
        case .resize(let w, let kernel?, let linear): "resize-\(w)-\(kernel == .area ? "box" : kernel.rawValue)\(linear ? "-linear-light" : "")"
        case .pngWrite: "png-write"
        case .effectLight: "effect-light"
        case .adjust: "adjust"
        case .brightness: "brightness"
        case .cache10: "cache-10"
        case .fade: "fade"
        case .fadeExact(let p): p == 0.37 ? "fade-exact" : "fade-exact-\(p)"
        case .blend: "blend"
        case .compose: "compose"
        case .scroll(.secret): "scroll-secret"
        case .scroll(.twitter): "scroll-twitter"
        case .scroll(.twitterBlend): "scroll-twitter-blend"
        case .iccP3ToSRGB(let lcms2): lcms2 ? "icc-p3-to-srgb-lcms2" : "icc-p3-to-srgb"
        case .iccCMYKToSRGB: "icc-cmyk-to-srgb"
        }
    }

    /// Work done once before timing: the `fade` case's cache, the `blend` case's second image,
    /// the `compose` case's scene and font, a scroll case's scene, assets and blur levels.
    public func prepare(_ image: Image, threads: Int) -> BenchPreparation? {
        switch self {
        case .blend:
            return .image(image.gaussianBlurred(sigma: 8, threads: threads))
        case .fade, .fadeExact:
            return .cache(CrossfadeCache(plan: Self.cachePlan, levels: CacheRenderer(plan: Self.cachePlan, threads: threads).render(image),
                                         width: image.width, height: image.height))
        case .compose:
            let scene = BenchScene.iPhone(photo: image)
            // The bench needs DejaVu Sans (fonts-dejavu-core, installed by `make deps`).
            return .scene(scene, try! SceneAssets(for: scene, relativeTo: ""))
        case .scroll(let sample):
            let folder = Self.motionSamples, path = "\(folder)/\(sample.rawValue).json"
            guard let bytes = FileManager.default.contents(atPath: path) else {
                preconditionFailure("\(path) not found: run from the repository, or set FROST_SAMPLES to SampleImages/")
            }
            let motion = try! MotionScene(json: Array(bytes))
            let renderer = try! MotionRenderer(motion, assets: try! SceneAssets(for: motion.scene, relativeTo: folder),
                                               directory: folder, threads: threads)
            return .motion(renderer, motion.timeline!.states())
        default:
            return nil
        }
    }

    /// Runs the case once on `image` (with what `prepare` made); the result is returned so the
    /// work cannot be elided.
    public func run(_ image: Image, threads: Int, prepared: BenchPreparation? = nil) -> Image {
        switch self {
        case .copy:
            var copy = image
            copy.pixels = image.pixels.withUnsafeBufferPointer { Array($0) }
            return copy
        case .box(let r): return image.boxBlurred(radius: r, threads: threads)
        case .gaussian(let s, let linear): return image.gaussianBlurred(sigma: s, linear: linear, threads: threads)
        case .resize(let w, let kernel, let linear):
            return image.resized(width: w, height: nil, fit: .contain, kernel: kernel ?? .default, linear: linear, threads: threads)
        case .pngWrite:
            // The encoder is one call into C that nothing can elide; the case hands the image back.
            _ = try! image.encoded(as: .png, threads: threads)
            return image
        case .effectLight: return image.applyLightEffect(threads: threads)
        case .adjust: return image.adjusted(Self.adjustment, threads: threads)
        case .brightness: return image.adjusted(Self.brightening, threads: threads)
        case .cache10: return CacheRenderer(plan: Self.cachePlan, threads: threads).render(image).last!
        case .iccP3ToSRGB(let lcms2):
            var p3 = image
            p3.iccProfile = ColorProfile.builtIn(.displayP3)
            return try! p3.converted(to: .sRGB, intent: .relative, threads: threads, engine: lcms2 ? .lcms2 : .automatic)
        case .iccCMYKToSRGB:
            guard let profile = FileManager.default.contents(atPath: Self.cmykProfile) else {
                preconditionFailure("\(Self.cmykProfile) not found: install Debian's libgs-common (make deps does)")
            }
            return try! Image.fromDeviceSpace(image, profile: Array(profile), cmyk: true, threads: threads)
        case .fade, .fadeExact, .blend, .compose, .scroll:
            switch prepared ?? prepare(image, threads: threads)! {
            case .cache(let cache):
                if case .fadeExact(let p) = self { return cache.frame(at: p, mode: .exact, threads: threads) }
                return cache.frame(at: 0.37, threads: threads)
            case .image(let other): return image.blended(with: other, fraction: 0.37, threads: threads)
            case .scene(let scene, let assets): return try! scene.rendered(assets: assets, threads: threads)
            case .motion(let renderer, let states): return states.map { try! renderer.frame(at: $0) }.last!
            }
        }
    }

    /// Ghostscript's default CMYK (SWOP) profile.
    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"

    /// SampleImages/motion: under $FROST_SAMPLES, else under the current folder (the repository).
    static var motionSamples: String {
        (ProcessInfo.processInfo.environment["FROST_SAMPLES"] ?? FileManager.default.currentDirectoryPath + "/SampleImages") + "/motion"
    }
}

/// What a case builds before it is timed.
public enum BenchPreparation: Sendable {
    case cache(CrossfadeCache)
    case image(Image)
    case scene(Scene, SceneAssets)
    /// A motion scene's renderer and the driver states of its frames.
    case motion(MotionRenderer, [DriverState])
}
