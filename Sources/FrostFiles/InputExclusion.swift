#if canImport(Glibc)
import Glibc
#endif

/// Which inputs of a batch are left out before anything is read: macOS's `._*` (AppleDouble
/// resource forks copied along with the photos: `._IMG_1.jpg` has a JPEG's name and a few KB of
/// metadata) and `.DS_Store` always, and the user's `--exclude` patterns. A pattern with a `/` is
/// matched against the whole relative path (`raw/*` leaves out everything under raw/, `*` crossing
/// folders), one without against each of its names (`*.gif`, `tmp`), as shell globs (fnmatch).
public struct InputExclusion: Sendable {
    /// The user's patterns.
    public let patterns: [String]

    public init(patterns: [String] = []) { self.patterns = patterns }

    /// Whether the input at `relative` (a path relative to its folder or list) is left out.
    public func excludes(_ relative: String) -> Bool {
        let names = relative.split(separator: "/").map(String.init)
        if let name = names.last, name.hasPrefix("._") || name == ".DS_Store" { return true }
        return patterns.contains { pattern in
            pattern.contains("/") ? fnmatch(pattern, relative, 0) == 0 : names.contains { fnmatch(pattern, $0, 0) == 0 }
        }
    }
}
