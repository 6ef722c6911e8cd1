import ArgumentParser
import FrostCore
import FrostEffects

struct ResizeStep: ImageStep {
    static let stepName = "resize"
    static let abstract = "Resize: area-averaged when shrinking, bilinear when enlarging, premultiplied alpha."

    @Option(help: "Width in pixels, 1 to 65535 (alone: the height follows the aspect ratio).")
    var width: Int?

    @Option(help: "Height in pixels, 1 to 65535 (alone: the width follows the aspect ratio).")
    var height: Int?

    @Option(help: "With both sizes: contain (fit inside, aspect kept), cover (fill, aspect kept, centre cropped) or fill (stretch).")
    var fit: ResizeFit = .contain

    func validate() throws {
        guard width != nil || height != nil else { throw ValidationError("give --width, --height or both") }
        for (name, value) in [("--width", width), ("--height", height)] {
            if let value { guard (1...65535).contains(value) else { throw ValidationError("\(name) must be between 1 and 65535") } }
        }
    }

    func apply(to image: Image, _ context: StepContext) throws -> Image {
        image.resized(width: width, height: height, fit: fit, threads: context.threads)
    }
}

extension ResizeFit: ExpressibleByArgument {}
