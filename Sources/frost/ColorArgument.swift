import ArgumentParser
import FrostCore

/// How a COLOR option's help names what it accepts.
let colorHelp = "a CSS colour (red, #f00, #ff000080, rgb(255 0 0 / 50%), transparent), white:W@A (gray W and alpha A in 0…1) or a name: " + Color.palette.keys.sorted().joined(separator: ", ")

/// COLOR on the command line: a CSS colour, white:W@A or a palette name.
extension Color: ExpressibleByArgument {
    public init?(argument: String) {
        guard let color = try? Color(parsing: argument) else { return nil }
        self = color
    }

    public static var defaultCompletionKind: CompletionKind {
        .list(Color.palette.keys.sorted())
    }
}
