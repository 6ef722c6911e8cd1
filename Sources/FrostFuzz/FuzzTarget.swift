import Foundation
import Frost
import FrostService

/// What the fuzzers feed bytes to (one per input surface), and what must hold for any input: no
/// crash, no hang, no sanitizer report, and the round trips exact. A failed property stops the run
/// with a message (`preconditionFailure`), which libFuzzer keeps as a crash. `make fuzz` builds one
/// libFuzzer binary per target (Fuzz/); `FuzzReplayTests` runs every kept input through the same
/// function, so a finding stays a test.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// PNG, JPEG, WebP, AVIF or HEIC bytes decoded as `frost` reads files (small pixel budget); a PNG also by
    /// libpng alone, which must give the same pixels whenever both succeed; a WebP's pixels written
    /// as lossless WebP must read back exactly; an animated WebP's frames are read too.
    case decode
    /// Header reading (`frost info`).
    case info
    /// A scene JSON rendered on a canvas of at most 64×64 pixels.
    case scene
    /// A motion scene JSON: parsed, its blur levels built, its first and last frames rendered small.
    case motion
    /// A cache folder made of the input: a manifest and level files cut from the bytes.
    case cache
    /// Pixels from the bytes encoded as PNG with Frost's run-length deflate (level 1) and with
    /// libdeflate and zlib levels, then read back by the direct read (libdeflate's inflate) and by
    /// libpng (zlib's inflate): both must give the pixels back exactly.
    case pngRoundTrip = "png-round-trip"
    /// A list of paths (`--inputs-from`) read from the bytes: every line's output under a folder
    /// either stays inside it, without `..`, or is refused.
    case inputs
    /// JPEG bytes streamed as `frost run` streams a file (read by rows at the reduction the last
    /// byte picks, blurred and resized by strips of 16 rows on two threads, encoded in strips);
    /// whenever the whole image decodes too, the streamed pixels must be the whole-image steps'.
    case stream
    /// Untrusted placeholder strings (`frost placeholder --decode`): the bytes as a BlurHash and as
    /// a ThumbHash, drawn small; a drawn picture's hash must have its shape's components.
    case placeholder
    /// A filter command's whole entrance on any file: the format sniffed, the header read (`info`),
    /// the stream-or-whole decision made on the first 24 bytes (`StreamRoute`), the file decoded
    /// the way that decision says (rows, or whole with shrink on load; an animation's frames), one
    /// operation the last byte picks, and the result encoded in the format the byte before picks
    /// (PNG, JPEG, WebP, GIF, AVIF, HEIC; an animation as APNG, WebP or GIF). Nothing may crash.
    case entrance
    /// A service URL's path (`frost serve`): parsed in imgproxy's grammar, its options read, its
    /// signature made and checked, and a `local://` source resolved under a root holding one file
    /// and a link out: a path resolved must lie inside the root; every refusal is a 4xx.
    case serviceURL = "service-url"

    /// The budget every decode in a fuzz run gets: big enough for the corpus's images' headers,
    /// small enough to stay fast.
    static let decodeOptions = DecodeOptions(maxPixels: 1 << 20)

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .decode: Self.decode(bytes)
        case .info: _ = try? ImageInfo(bytes: bytes)
        case .scene: Self.scene(bytes)
        case .motion: Self.motion(bytes)
        case .cache: Self.cache(bytes)
        case .pngRoundTrip: Self.pngRoundTrip(bytes)
        case .inputs: Self.inputs(bytes)
        case .stream: Self.stream(bytes)
        case .placeholder: Self.placeholder(bytes)
        case .entrance: Self.entrance(bytes)
        case .serviceURL: Self.serviceURL(bytes)
        }
    }

    static let serviceRoot: LocalSource = {
        let folder = NSTemporaryDirectory() + "frost-fuzz-service-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder + "/served/a", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/served/a/b.jpg", contents: Data([0xFF, 0xD8]))
        _ = FileManager.default.createFile(atPath: folder + "/secret.jpg", contents: Data([0xFF, 0xD8]))
        try? FileManager.default.createSymbolicLink(atPath: folder + "/served/out.jpg", withDestinationPath: folder + "/secret.jpg")
        return LocalSource(root: folder + "/served")!
    }()

    static func serviceURL(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        func check(_ error: ServiceError) {
            precondition((400..<500).contains(error.status), "\(text.debugDescription): \(error) is not a 4xx")
        }
        let path: ServicePath
        do { path = try ServicePath(parsing: text) } catch { return check(error) }
        do {
            // The options on a small picture through the whole pipeline under a small pixel limit:
            // every refusal a 4xx, no trap (sizes without bounds, extreme dprs and zooms, offsets).
            let options = try ProcessingOptions(path.options, presets: ["p": [.init(name: "pr", arguments: ["p"])]])
            let format = [.png, .jpeg, .gif, .webp].contains(path.format ?? options.format ?? .png) ? path.format ?? options.format : .png
            if options.fade == nil { _ = try serviceProcessor.process(serviceSource, options: options, format: OutputFormat(explicit: format ?? .png)) }
        } catch {
            check(error)
        }
        let signer = URLSignature(keyHex: "00ff", saltHex: "ff00")!
        precondition(signer.verifies(signer.signature(for: path.signed), for: path.signed), "a signature does not verify its own path")
        precondition(!signer.verifies(signer.signature(for: path.signed), for: path.signed + "x"), "a signature verifies another path")
        do {
            let file = try serviceRoot.path(for: path.source)
            precondition(file.hasPrefix(serviceRoot.root + "/"), "\(path.source.debugDescription) resolved to \(file), outside the root")
        } catch {
            check(error)
        }
        // A remote source: refused with a 4xx, or rebuilt into a URL that reads back the same, its
        // port in range (listed hosts only: nothing is resolved but localhost).
        if path.source.hasPrefix("http") {
            do {
                let url = try RemoteURL(parsing: path.source)
                precondition((1...65535).contains(url.port), "\(path.source.debugDescription): port \(url.port)")
                let again = try RemoteURL(parsing: url.canonical)
                precondition(again == url, "\(path.source.debugDescription) does not read back")
                let checked = try remote.check(path.source)
                precondition(checked.url == url.canonical && ["127.0.0.1", "::1"].contains(checked.address), "\(checked)")
            } catch {
                check(error)
            }
        }
        // An object's URL: refused with a 4xx, or an object whose URL reads back the same, in the
        // allowed bucket or refused (nothing is fetched: no S3 is configured).
        if path.source.hasPrefix(ObjectAddress.scheme) {
            do {
                let object = try ObjectSources.parse(path.source)
                let again = try ObjectSources.parse(object.url)
                precondition(again == object, "\(path.source.debugDescription) does not read back: \(object.url.debugDescription)")
                precondition(ObjectSources.isBucketName(object.address.bucket) && !object.address.key.isEmpty, "\(object)")
                let located = try service.location(of: path.source)
                precondition(located == .object(object) && object.address.bucket == "photos", "\(located)")
            } catch {
                check(error)
            }
        }
        // The same path as an /info and a /cache URL, and as a cache file's name.
        do { _ = try service.infoRequest(text) } catch { check(error) }
        do { _ = try service.cacheRequest(text) } catch { check(error) }
        do { _ = try service.cacheFile(text) } catch { check(error) }
    }

    /// A 6×4 picture with transparency, and a processor with a 3×2 watermark and a limit of 2^16 pixels.
    private static let serviceSource = try! Image(width: 6, height: 4, pixels: (0..<96).map { UInt8($0 * 37 % 256) }, hasAlpha: true).encoded(as: .png)
    private static let serviceProcessor: ServiceProcessor = {
        var processor = ServiceProcessor(limits: DecodeOptions(maxPixels: 1 << 16), threads: 1)
        processor.defaults.watermark = Image(width: 3, height: 2, filledWith: (255, 0, 0, 128))
        return processor
    }()

    /// Remote hosts allowed for `serviceURL`: loopback only, so that no name is looked up but localhost.
    private static let remote = RemoteSources(hosts: ["127.0.0.1", "localhost", "::1"])

    /// A service reading `serviceRoot` and the bucket `photos`, unsigned, keeping blur caches
    /// (none is built: only URLs are parsed).
    private static let service: ImageService = {
        var settings = ImageService.Settings()
        settings.allowUnsigned = true
        settings.local = serviceRoot
        settings.objects = ObjectSources(buckets: ["photos"])
        settings.blurCaches = try? ServiceBlurCaches(folder: serviceRoot.root + "/../blur")
        return ImageService(settings)
    }()

    static func entrance(_ bytes: [UInt8]) {
        guard bytes.count >= 2, ImageFormat(sniffing: bytes) != nil else { return }
        _ = try? ImageInfo(bytes: bytes)
        let last = Int(bytes[bytes.count - 1]), format = ImageFormat.writable[Int(bytes[bytes.count - 2]) % ImageFormat.writable.count]
        // Every result is small: AV1 and HEVC encoders are slow, and the budget caps what a step makes.
        // Bit 3: the blur and box in linear light.
        let linear = last & 8 != 0
        let box = FilterStep.resize(width: 24, height: 24, fit: .contain, noEnlarge: false, padding: .clear, linear: linear)
        let operation: [FilterStep] = switch last % 4 {
        case 0: [.gaussian(sigma: 2, linear: linear), box]
        case 1: [.adjust(ColorAdjustment(brightness: 0.1, contrast: 1.2)), box]
        case 2: [.resize(width: 20, height: 20, fit: .cover, noEnlarge: false, padding: .clear)]
        default: [.resize(width: 16, height: 32, fit: .pad, noEnlarge: false, padding: .black)]
        }
        var options = decodeOptions
        options.allowTruncated = last & 4 != 0
        func encoded(_ image: Image) { _ = try? image.encoded(as: format, options: EncodeOptions(), threads: 1) }
        if let kind = StreamRoute.candidate(head: Array(bytes.prefix(StreamRoute.headBytes))), operation.allSatisfy(\.streams) {
            options.autoOrient = false
            let reader: (any StreamSource)?
            if kind == .jpeg {
                let jpeg = try? JPEGRowReader(bytes: bytes, options: options)
                let plan = jpeg.map { ShrinkOnLoad(steps: operation, width: $0.info.width, height: $0.info.height) }
                reader = (try? jpeg?.start(reduction: plan?.reduction ?? 1)).flatMap { jpeg }
            } else if let info = try? ImageInfo(bytes: bytes), PNGRowReader.streams(info) {
                reader = try? PNGRowReader(bytes: bytes, options: options)
            } else {
                reader = nil
            }
            if let reader, let image = try? StreamedFilter(reader: reader, steps: operation, limits: options, threads: 2, stripRows: 7).image() {
                encoded(image)
            }
            return
        }
        if let animation = try? Animation(decoding: bytes, options: options), animation.frames.count > 1 {
            let frames = (try? animation.frames.prefix(4).map { frame in try operation.reduce(frame) { try $1.apply(to: $0, limits: options, threads: 1) } })
            if let frames, [.png, .webp, .gif].contains(format) {
                _ = try? Animation(frames: frames, delays: Array(animation.delays.prefix(4))).write(into: MemoryFile(), as: format, options: EncodeOptions())
            }
            return
        }
        if let image = try? operation.reduce(Image(decoding: bytes, options: options), { try $1.apply(to: $0, limits: options, threads: 1) }) {
            encoded(image)
        }
    }

    static func placeholder(_ bytes: [UInt8]) {
        if let image = try? BlurHash.decode(String(decoding: bytes, as: UTF8.self), width: 12, height: 9) {
            let hash = (try? BlurHash.encode(image, componentsX: 4, componentsY: 3)) ?? ""
            if hash.utf8.count != 4 + 2 * 12 { preconditionFailure("a 4×3 BlurHash of \(hash.utf8.count) characters") }
        }
        if let image = try? ThumbHash.decode(bytes, size: 16) {
            if max(image.width, image.height) != 16 || (try? ThumbHash.encode(image)) == nil {
                preconditionFailure("a ThumbHash drawn at \(image.width)×\(image.height) does not hash again")
            }
        }
    }

    static func decode(_ bytes: [UInt8]) {
        let image = try? Image(decoding: bytes, options: decodeOptions)
        // Every frame of a GIF, APNG or animated WebP, composed: each the canvas's size.
        if let format = ImageFormat(sniffing: bytes), [.gif, .png, .webp].contains(format),
           let animation = try? Animation(decoding: bytes, options: decodeOptions) {
            let (width, height) = (animation.frames[0].width, animation.frames[0].height)
            if !animation.frames.allSatisfy({ $0.width == width && $0.height == height }) || animation.frames.count != animation.delays.count {
                preconditionFailure("an animation's frames differ in size or outnumber its delays")
            }
        }
        if ImageFormat(sniffing: bytes) == .webp, let image {
            let again = (try? image.encoded(as: .webp)).flatMap { try? Image(decoding: $0, options: decodeOptions) }
            if again?.pixels != image.pixels {
                preconditionFailure("a lossless WebP of the decoded pixels does not read back exactly (\(image.width)×\(image.height))")
            }
        }
        guard ImageFormat(sniffing: bytes) == .png else { return }
        let reference = try? Image(decodingPNGWithLibpng: bytes, options: decodeOptions)
        if let image, let reference, image.pixels != reference.pixels {
            preconditionFailure("the direct PNG read and libpng disagree (\(image.width)×\(image.height))")
        }
    }

    static func stream(_ bytes: [UInt8]) {
        if ImageFormat(sniffing: bytes) == .png { return streamPNG(bytes) }
        guard ImageFormat(sniffing: bytes) == .jpeg else { return }
        var options = decodeOptions
        options.autoOrient = false   // streaming never turns a picture
        options.reduction = [1, 2, 4, 8][Int(bytes.last!) & 3]
        // Into a 37×37 box: a tall, thin input enlarged to 37 wide made 37×37000 (a slow unit under ASan).
        let steps: [FilterStep] = [.gaussian(sigma: 3), .adjust(ColorAdjustment(brightness: 0.1)),
                                   .resize(width: 37, height: 37, fit: .contain, noEnlarge: false, padding: .clear)]
        func filter(stripRows: Int?) throws -> StreamedFilter {
            let reader = try JPEGRowReader(bytes: bytes, options: options)
            try reader.start(reduction: options.reduction)
            return try StreamedFilter(reader: reader, steps: steps, limits: options, threads: 2, stripRows: stripRows)
        }
        func streamed() throws -> (Image, [UInt8]) {
            let image = try filter(stripRows: 16).image()
            var jpeg: [UInt8] = [], png: [UInt8] = []
            try filter(stripRows: nil).writeJPEG(options: EncodeOptions()) { jpeg += $0 }
            try filter(stripRows: 5).writePNG(options: EncodeOptions()) { png += $0 }
            return (image, png)
        }
        guard let (image, png) = try? streamed(),
              let whole = try? steps.reduce(Image(decoding: bytes, options: options), { try $1.apply(to: $0, limits: options, threads: 2) })
        else { return }
        if image.pixels != whole.pixels {
            preconditionFailure("the streamed steps and the whole-image steps disagree (\(whole.width)×\(whole.height))")
        }
        if (try? Image(decoding: png))?.pixels != image.pixels {
            preconditionFailure("the PNG written in strips does not decode to the streamed pixels (\(image.width)×\(image.height))")
        }
    }

    /// An opaque PNG read row by row must give the whole read's pixels through the same steps, and
    /// fail where it fails.
    static func streamPNG(_ bytes: [UInt8]) {
        var options = decodeOptions
        options.autoOrient = false
        guard let info = try? ImageInfo(bytes: bytes), PNGRowReader.streams(info) else { return }
        // In linear light for every other input (the strips of its blur and resize against the whole).
        let linear = bytes.count % 2 == 1
        let steps: [FilterStep] = [.gaussian(sigma: 2, linear: linear),
                                   .resize(width: 29, height: 29, fit: .contain, noEnlarge: false, padding: .clear, linear: linear)]
        let streamed = try? StreamedFilter(reader: PNGRowReader(bytes: bytes, options: options), steps: steps, limits: options,
                                           threads: 2, stripRows: 3).image()
        let whole = try? steps.reduce(Image(decoding: bytes, options: options)) { try $1.apply(to: $0, limits: options, threads: 2) }
        if let streamed, let whole, streamed.pixels != whole.pixels {
            preconditionFailure("the PNG's rows and its whole read disagree (\(whole.width)×\(whole.height))")
        }
    }

    static func scene(_ bytes: [UInt8]) {
        guard var scene = try? Scene(json: bytes) else { return }
        scene.scale = min(scene.scale, 64 / max(scene.width, scene.height))
        guard scene.pixelWidth > 0, scene.pixelHeight > 0 else { return }
        _ = try? scene.rendered(assets: SceneAssets(), threads: 1)
    }

    static func motion(_ bytes: [UInt8]) {
        guard var motion = try? MotionScene(json: bytes) else { return }
        motion.scene.scale = min(motion.scene.scale, 48 / max(motion.scene.width, motion.scene.height))
        guard motion.scene.pixelWidth > 0, motion.scene.pixelHeight > 0,
              let renderer = try? MotionRenderer(motion, assets: SceneAssets(), threads: 1) else { return }
        let states = motion.timeline?.states() ?? [DriverState()]
        for state in [states.first!, states.last!] { _ = try? renderer.frame(at: state) }
    }

    /// The bytes are length-prefixed parts: a 2-byte big-endian length and the manifest, then for
    /// each level file a 3-byte length and its bytes, named level-00.png … in order (Fuzz/pack.py
    /// makes seeds of real caches this way).
    static func cache(_ bytes: [UInt8]) {
        var parts: [ArraySlice<UInt8>] = [], at = 0
        while at < bytes.count && parts.count < 16 {
            let width = parts.isEmpty ? 2 : 3
            guard at + width <= bytes.count else { break }
            let length = bytes[at..<(at + width)].reduce(0) { $0 << 8 | Int($1) }
            at += width
            parts.append(bytes[at..<min(bytes.count, at + length)])
            at += length
        }
        guard !parts.isEmpty else { return }
        let folder = NSTemporaryDirectory() + "frost-fuzz-cache-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try? FileIO.writeAtomically(Array(parts[0]), to: folder + "/" + CacheStore.manifestName)
        for (i, part) in parts.dropFirst().enumerated() {
            try? FileIO.writeAtomically(Array(part), to: folder + String(format: "/level-%02d.png", i))
        }
        guard let loaded = try? CacheStore.load(folder, decode: decodeOptions) else { return }
        _ = CrossfadeCache(loaded).frame(at: 0.5, threads: 1)
    }

    static func inputs(_ bytes: [UInt8]) {
        let folder = NSTemporaryDirectory() + "frost-fuzz-inputs-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder + "/lists", withIntermediateDirectories: true)
        let list = folder + "/lists/list.txt"
        guard (try? FileIO.writeAtomically(bytes, to: list)) != nil,
              let inputs = try? FileBatch.inputs(fromList: list) else { return }
        let root = folder + "/out"
        for input in inputs {
            guard let path = try? FileIO.confined(input.relative, under: root) else { continue }
            // As bytes: the file system's view (a "/" and a combining mark are one Character).
            let rest = path.utf8.dropFirst(root.utf8.count + 1)
            if !path.utf8.starts(with: (root + "/").utf8) || rest.isEmpty || rest.first == UInt8(ascii: "/")
                || rest.split(separator: UInt8(ascii: "/")).contains(where: { $0.elementsEqual("..".utf8) }) {
                preconditionFailure("list line \(input.relative.debugDescription) writes \(path), outside \(root)")
            }
        }
    }

    /// The first byte picks the size and kind; the rest are the pixels (repeated to fill).
    static func pngRoundTrip(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let kind = Int(bytes[0]), width = 1 + Int(bytes[1]) % 67, data = bytes.dropFirst(2)
        let height = max(1, min(64, data.count / max(1, width)))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if !data.isEmpty { for i in pixels.indices { pixels[i] = data[data.startIndex + i % data.count] } }
        let gray = kind & 1 != 0, opaque = kind & 2 != 0
        for p in 0..<(width * height) {
            if gray { pixels[4 * p + 1] = pixels[4 * p]; pixels[4 * p + 2] = pixels[4 * p] }
            if opaque { pixels[4 * p + 3] = 255 }
        }
        let image = Image(width: width, height: height, pixels: pixels, hasAlpha: !opaque, isGray: gray)
        for level in [1, 6, 9] {
            let filter = (kind >> 2) % 6 == 5 ? nil : (kind >> 2) % 6
            guard let png = try? image.encoded(as: .png, options: EncodeOptions(compressionLevel: level, pngFilter: filter)) else {
                preconditionFailure("PNG encoding failed at level \(level)")
            }
            for decoded in [try? Image(decoding: png), try? Image(decodingPNGWithLibpng: png)] {
                // Straight alpha is written as given, so even transparent pixels keep their colors.
                guard let decoded, decoded.pixels == pixels else {
                    preconditionFailure("a PNG written at level \(level), filter \(String(describing: filter)) did not read back exactly")
                }
            }
        }
    }
}
