import ArgumentParser
import FrostCore

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
