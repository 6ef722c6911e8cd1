import ArgumentParser
import FrostCore

/// How a COLOR option's help names what it accepts.
let colorHelp = "#RRGGBB, #RRGGBBAA, white:W@A (gray W and alpha A in 0…1) or a name: " + Color.palette.keys.sorted().joined(separator: ", ")

/// COLOR on the command line: #RRGGBB, #RRGGBBAA, white:W@A or a palette name.
extension Color: ExpressibleByArgument {
    public init?(argument: String) {
        guard let color = try? Color(parsing: argument) else { return nil }
        self = color
    }

    public static var defaultCompletionKind: CompletionKind {
        .list(Color.palette.keys.sorted())
    }
}
