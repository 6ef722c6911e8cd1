import ArgumentParser
import FrostCodecs
import FrostCore
import FrostEffects
import FrostStream

struct ResizeStep: ImageStep {
    static let stepName = "resize"
    static let abstract = "Resize with a filter stretched where it shrinks (lanczos3 by default), premultiplied alpha."

    static let sideRange = OptionRange(1, 65535)

    @Option(parsing: .unconditional, help: "Width in pixels, \(sideRange) (alone: the height follows the aspect ratio).")
    var width: Int?

    @Option(parsing: .unconditional, help: "Height in pixels, \(sideRange) (alone: the width follows the aspect ratio).")
    var height: Int?

    @Option(help: "With both sizes: contain (inside the box, aspect kept, one side may come out shorter: sharp's inside), cover (fill, aspect kept, centre cropped) or fill (stretch) or pad (inside the box, centred on the rest filled with --background, else clear: sharp's contain).")
    var fit: ResizeFit = .contain

    func validate() throws {
        guard width != nil || height != nil else { throw ValidationError("give --width, --height or both") }
        try Self.sideRange.check(width, "--width")
        try Self.sideRange.check(height, "--height")
    }

    @Option(help: "The filter: nearest, linear, cubic (Catmull-Rom), mitchell, lanczos3 (the default: libvips's and sharp's) or area (box: each pixel the mean of the area it covers).")
    var kernel: ResampleKernel = .default

    @Flag(name: .customLong("no-enlarge"), help: "Leave an image that the resize would enlarge (along either axis) at its size, as vips --size down and sharp's withoutEnlargement.")
    var noEnlarge = false

    @Flag(help: "Resample in linear light: a 2× shrink of 1-pixel black and white lines gives 188 (50% light), not 128 (libvips's --linear, sharp's gamma()). Off by default, as libvips, sharp and imgproxy: it costs more, JPEGs are then decoded at full size, and most photos differ by a level or two.")
    var linear = false

    func filterStep(_ context: StepContext) -> FilterStep? {
        .resize(width: width, height: height, fit: fit, noEnlarge: noEnlarge, padding: context.background ?? .clear, kernel: kernel,
                linear: linear || context.linear)
    }
}

extension ResizeFit: ExpressibleByArgument {}

extension ResampleKernel: ExpressibleByArgument {
    /// `box` is the area average's other name (Pillow's BOX, OpenCV's INTER_AREA).
    public init?(argument: String) {
        guard let kernel = argument == "box" ? .area : Self(rawValue: argument) else { return nil }
        self = kernel
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) + ["box"] }
}
