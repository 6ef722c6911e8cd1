import CFrostCodecs
@_spi(Kernels) import FrostCore
#if canImport(Glibc)
import Glibc
#endif

/// An ICC profile as a file carries it: its bytes, what it says of itself (description, colour
/// space) and whether it is sRGB in all but name (its pixels need no conversion to sRGB). Read by
/// lcms2 (Little CMS 2), opened on first use.
public struct ColorProfile: Sendable, Equatable {
    /// The profile as stored (ICC.1).
    public let bytes: [UInt8]
    /// The description tag (English), e.g. "Display P3", "Adobe RGB (1998)"; empty when absent.
    public let description: String
    /// The data colour space: "RGB", "GRAY", "CMYK", "Lab", … (the signature, trimmed).
    public let colorSpace: String
    /// An RGB profile that converts every probe colour (6³ of them) to sRGB unchanged within one
    /// level, relative colorimetric: its pixels are used as they are.
    public let isSRGB: Bool
    /// The same for each intent (`isSRGB(for:)`).
    private let sRGBIntents: UInt32
    /// The profile class (ICC.1 7.2.5): "mntr", "scnr", "prtr", "spac" describe pixels; "link",
    /// "abst" and "nmcl" (device links, abstract and named-colour profiles) do not.
    public let deviceClass: String
    /// lcms2 makes a transform from it to sRGB (RGB, Gray and CMYK profiles; false for others).
    public let converts: Bool

    /// Reads `bytes`; an unreadable profile is an error.
    public init(_ bytes: [UInt8]) throws(ColorError) {
        self = try Self.read(bytes, probing: true)
    }

    /// `bytes` read by lcms2, `probing` whether it is sRGB (`isSRGB` is false without). The last
    /// eight profiles read of up to 1 MiB are kept, so a batch of files from one camera, or one
    /// file read several times (its header, then its pixels), reads its profile once; a probed
    /// reading answers an unprobed question too.
    private static func read(_ bytes: [UInt8], probing: Bool) throws(ColorError) -> ColorProfile {
        if let known = recent.withLock({ $0.first { $0.bytes == bytes && ($0.probed || !probing) } }) {
            return try known.read.get()
        }
        let read = Result { () throws(ColorError) in try ColorProfile(reading: bytes, probing: probing) }
        if bytes.count <= 1 << 20 {
            recent.withLock { recent in
                recent.insert((bytes, probing, read), at: 0)
                if recent.count > 8 { recent.removeLast() }
            }
        }
        return try read.get()
    }

    private init(reading bytes: [UInt8], probing: Bool) throws(ColorError) {
        var info = frost_colour_info(), error = frost_error()
        let status = bytes.withUnsafeBufferPointer { frost_colour_describe($0.baseAddress, $0.count, probing ? 1 : 0, &info, &error) }
        guard status == FROST_OK else { throw ColorError(error) }
        self.bytes = bytes
        description = withUnsafeBytes(of: info.description) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        colorSpace = Self.signature(info.colour_space)
        deviceClass = Self.signature(info.device_class)
        isSRGB = info.is_srgb != 0
        sRGBIntents = info.srgb_intents
        converts = info.converts != 0
    }

    /// Whether the profile is sRGB for `intent`: a LUT profile's perceptual or saturation table may
    /// be another picture than its colorimetric one (a matrix/TRC profile's are the same).
    public func isSRGB(for intent: RenderingIntent) -> Bool { sRGBIntents & (1 << UInt32(intent.rawValue)) != 0 }

    private static let recent = Locked<[(bytes: [UInt8], probed: Bool, read: Result<ColorProfile, ColorError>)]>([])

    /// A four-letter signature, trailing spaces trimmed; a byte outside printable ASCII as "?".
    private static func signature(_ value: UInt32) -> String {
        String(decoding: (0..<4).map { k -> UInt8 in
            let byte = UInt8(truncatingIfNeeded: value >> (24 - 8 * k))
            return (0x20..<0x7F).contains(byte) ? byte : UInt8(ascii: "?")
        }, as: UTF8.self).trimmingSpaces
    }

    /// Whether the profile describes RGB pixels (what every output but a gray one holds).
    public var isRGB: Bool { colorSpace == "RGB" }

    /// The data colour space an ICC profile's header names (bytes 16–19: "RGB", "GRAY", "CMYK", …),
    /// read without lcms2; nil for bytes too short to be a profile.
    public static func colorSpace(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 128 else { return nil }
        return signature(bytes[16..<20].reduce(0) { $0 << 8 | UInt32($1) })
    }

    /// The pixels a decoder gives a profile to describe.
    public enum Pixels: String, Sendable {
        case rgb = "RGB", gray = "gray", cmyk = "CMYK"
    }

    /// Why `bytes` cannot describe `pixels`, or nil where it can: a profile lcms2 cannot read or
    /// convert from, a device link, abstract or named-colour profile, or one of another colour
    /// space (a CMYK or Lab profile on RGB pixels; gray pixels take a Gray or an RGB one, as they
    /// are RGB with R = G = B). A decoder ignores such a profile and reads the pixels as sRGB
    /// (CMYK ones under the default CMYK profile), as libvips and sharp do.
    public static func reasonToIgnore(_ bytes: [UInt8], for pixels: Pixels) -> String? {
        let profile: ColorProfile
        do { profile = try read(bytes, probing: false) } catch { return "lcms2 cannot read it" }
        switch profile.deviceClass {
        case "link": return "a device link profile describes no colour space"
        case "abst": return "an abstract profile describes no colour space"
        case "nmcl": return "a named-colour profile describes no pixels"
        default: break
        }
        let fits = switch pixels {
        case .rgb: profile.colorSpace == "RGB"
        case .gray: profile.colorSpace == "GRAY" || profile.colorSpace == "RGB"
        case .cmyk: profile.colorSpace == "CMYK"
        }
        guard fits else {
            let names = ["RGB": "an RGB", "GRAY": "a Gray", "CMYK": "a CMYK", "Lab": "a Lab", "XYZ": "an XYZ", "YCbr": "a YCbCr", "CMY": "a CMY"]
            guard let name = names[profile.colorSpace] else { return "its colour space is not one Frost knows" }
            return "\(name) profile does not describe \(pixels.rawValue) pixels"
        }
        return profile.converts ? nil : "lcms2 cannot convert from it"
    }

    /// The profile of a built-in target (sRGB, Display P3), as written into a converted file.
    public static func builtIn(_ target: ColorTarget) -> [UInt8]? {
        switch target {
        case .sRGB: builtInProfiles.sRGB
        case .displayP3: builtInProfiles.displayP3
        case .profile(let bytes): bytes
        }
    }

    /// The profile CICP primaries and transfer say (colour.c: BT.709, BT.2020, DCI-P3, Display P3
    /// primaries with the sRGB, BT.709, gamma 2.2, 2.8 and linear curves); with `gray`, the Gray
    /// profile of that white and curve.
    public static func forCICP(primaries: Int, transfer: Int, gray: Bool = false) throws(ColorError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?, size = 0, error = frost_error()
        guard frost_colour_profile_for_cicp(Int32(primaries), Int32(transfer), gray ? 1 : 0, &out, &size, &error) == FROST_OK, let out else {
            throw ColorError(error)
        }
        defer { frost_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The CICP primaries and transfer `bytes` was made for by `forCICP`, or nil for any other
    /// profile: so that an output which holds CICP (AVIF, HEIC) says a CICP-only input's colours
    /// the way the input said them. The code points end the description ("…CICP 12/13"); the
    /// bytes must then be exactly what `forCICP` makes of them.
    public static func cicp(madeFor bytes: [UInt8]) -> (primaries: Int, transfer: Int)? {
        guard bytes.count < 4096, let words = try? ColorProfile(bytes).description.split(separator: " "),
              words.count >= 2, words[words.count - 2] == "CICP" else { return nil }
        let numbers = words[words.count - 1].split(separator: "/").compactMap { Int($0) }
        guard numbers.count == 2, (try? forCICP(primaries: numbers[0], transfer: numbers[1])) == bytes else { return nil }
        return (numbers[0], numbers[1])
    }

    /// The profile of chromaticities (white x, y, then red, green, blue x, y) and a power curve of
    /// `gamma` (decoding exponent), named `description`; with `gray`, the Gray profile of that
    /// white and curve.
    public static func forChromaticities(_ xy: [Double], gamma: Double, gray: Bool = false,
                                         description: String) throws(ColorError) -> [UInt8] {
        precondition(xy.count == 8, "white, red, green and blue x, y")
        var out: UnsafeMutablePointer<UInt8>?, size = 0, error = frost_error()
        guard frost_colour_profile_for_chromaticities(xy, gamma, gray ? 1 : 0, description, &out, &size, &error) == FROST_OK, let out else {
            throw ColorError(error)
        }
        defer { frost_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// sRGB's (BT.709's) chromaticities with D65: white, red, green, blue x, y.
    public static let sRGBChromaticities = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

    /// Adobe RGB (1998): its primaries, D65, gamma 563/256 (Adobe's specification, 2005) — what a
    /// camera means by EXIF ColorSpace "uncalibrated" with the interoperability index R03.
    public static let adobeRGB: [UInt8]? = try? forChromaticities([0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06],
                                                                  gamma: 563.0 / 256, description: "Adobe RGB (1998) (from EXIF)")

    /// The CMYK a CMYK JPEG without a usable profile is read as (sharp, libvips and imgproxy assume
    /// one too, libvips's "Chemical proof"): coated offset, ISO 12647-2, built from Fogra's FOGRA39
    /// measurements (Profiles/README.md).
    public static let defaultCMYK: [UInt8] = PackageResources.default_cmyk_fogra39_icc

    private static let builtInProfiles: (sRGB: [UInt8]?, displayP3: [UInt8]?) = (made(FROST_COLOUR_SRGB), made(FROST_COLOUR_P3))

    private static func made(_ target: Int) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?, size = 0, error = frost_error()
        guard frost_colour_profile_bytes(Int32(target), &out, &size, &error) == FROST_OK, let out else { return nil }
        defer { frost_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}

/// The space converted pixels are put in: sRGB (written untagged, as the web takes untagged
/// pixels), Display P3, or an RGB profile's.
public enum ColorTarget: Sendable, Equatable {
    case sRGB
    case displayP3
    case profile([UInt8])
}

/// ICC's rendering intents: how colours outside the target's gamut are brought in.
public enum RenderingIntent: Int32, Sendable, CaseIterable {
    /// The whole gamut compressed to fit (photos' usual choice where a perceptual table exists).
    case perceptual = 0
    /// Colours inside both gamuts exact, the white point adapted, the rest clipped (libvips's
    /// and imgproxy's default, and Frost's).
    case relative = 1
    /// Saturation kept over hue accuracy (business graphics).
    case saturation = 2
    /// Colours inside both gamuts exact without adapting the white point (proofing).
    case absolute = 3
}

/// A profile that cannot be read or a conversion lcms2 cannot make.
public struct ColorError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }

    init(_ error: frost_error) {
        description = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

private extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
