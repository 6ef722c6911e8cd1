import FrostColor

/// What a decode says about a file it still reads: an ICC profile it ignores. Handed to the
/// handler bound for the file being read (the command line prints `frost: FILE: warning: …`);
/// without one, dropped (a library caller reads `ImageInfo.ignoredProfile`).
public enum DecodeWarnings {
    /// Called on the decoding thread, possibly more than once for one file (an animation's frames).
    @TaskLocal public static var handler: (@Sendable (String) -> Void)?

    /// A profile the decoder ignores, and what it reads the pixels as instead.
    static func ignoredProfile(_ reason: String?, cmyk: Bool = false) {
        guard let reason, let handler else { return }
        handler("its ICC profile is ignored (\(reason)): the pixels are read as \(cmyk ? "the default CMYK (FOGRA39)" : "sRGB")")
    }
}

/// The profile a file carries, checked against the pixels its decoder gives: kept where it can
/// describe them, else ignored with the reason (`ColorProfile.reasonToIgnore`: another colour
/// space, a profile lcms2 cannot read or convert from), as libvips and sharp ignore it.
struct CarriedProfile {
    /// The profile the pixels are read under (nil: sRGB).
    let usable: [UInt8]?
    /// Why the carried profile is not used (nil: used, or none carried).
    let ignored: String?

    init(_ carried: [UInt8]?, for pixels: ColorProfile.Pixels) {
        ignored = carried.flatMap { ColorProfile.reasonToIgnore($0, for: pixels) }
        usable = ignored == nil ? carried : nil
    }

    /// A profile the file carries that its reader could not hand over, for `reason`.
    init(ignoring reason: String) {
        (usable, ignored) = (nil, reason)
    }
}
