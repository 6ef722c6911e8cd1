import Foundation
import FrostColor
import FrostCore
import FrostFiles
import FrostTestSupport
import Testing

/// The matrix/TRC fast path serves a conversion only where it is what lcms2 does (issue 69): over
/// a corpus of profiles (Debian's icc-profiles-free, colord-data and libgs-common, which `make deps`
/// installs; Little CMS's, Pillow's and sharp's test profiles and profiles made with lcms2 whose
/// matrix and LUTs disagree, Tests/Fixtures/colour), as a source into sRGB and Display P3 and as a
/// target from sRGB, for perceptual, relative and saturation.
@Suite struct FastPathEligibilityTests {
    static let fixtures = Corpus.repository + "/Tests/Fixtures/colour/"
    static let folders = ["/usr/share/color/icc/", "/usr/share/color/icc/colord/", "/usr/share/color/icc/ghostscript/",
                          fixtures + "profiles/", fixtures + "third-party/"]

    /// Every RGB profile of the corpus lcms2 converts from: path and bytes.
    static func corpus() throws -> [(path: String, bytes: [UInt8])] {
        try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
                .filter { $0.lowercased().hasSuffix(".icc") || $0.lowercased().hasSuffix(".icm") }
                .map { (folder + $0, try FileIO.read(folder + $0)) }
        }.filter { (try? ColorProfile($0.bytes)).map { $0.colorSpace == "RGB" && $0.converts } ?? false }
    }

    /// The tags lcms2 2.14 chooses between (cmsio1.c, _cmsReadInputLUT and _cmsReadOutputLUT), read
    /// from the tag table here: a LUT for the intent (its float tag, its 16-bit one, absolute reading
    /// relative's, else the perceptual one) takes precedence over the matrix/TRC tags.
    static func readsLUT(_ bytes: [UInt8], _ intent: RenderingIntent, asTarget: Bool) -> Bool {
        let count = bytes[128..<132].reduce(0) { $0 << 8 | Int($1) }
        let tags = Set((0..<count).map { String(decoding: bytes[(132 + 12 * $0)..<(136 + 12 * $0)], as: UTF8.self) })
        let k = Int(intent.rawValue), table = intent == .absolute ? 1 : k
        let (float, fixed) = asTarget ? ("B2D", "B2A") : ("D2B", "A2B")
        return tags.contains("\(float)\(k)") || tags.contains("\(fixed)\(table)") || tags.contains("\(fixed)0")
    }

    @Test func theFastPathServesOnlyWhatLcms2WouldDo() throws {
        var image = noiseImage(width: 257, height: 48, seed: 69, opaque: false)
        for v in 0..<256 { for c in 0..<3 { image.pixels[4 * v + c] = UInt8(v) } }   // every gray in the first row
        var served = Set<String>(), refused = Set<String>()
        for (path, bytes) in try Self.corpus() {
            let name = String(path.split(separator: "/").last!)
            for intent in [RenderingIntent.perceptual, .relative, .saturation] {
                for (source, target) in [(Optional(bytes), ColorTarget.sRGB), (bytes, .displayP3), (nil, .profile(bytes))] {
                    let transform = try RowColorTransform(from: source, to: target, intent: intent)
                    let key = "\(name) \(source == nil ? "as target" : "as source") \(intent)"
                    guard transform.isFastPath else {
                        refused.insert(key)
                        continue
                    }
                    served.insert(key)
                    #expect(!Self.readsLUT(bytes, intent, asTarget: source == nil), "\(key): lcms2 reads a LUT here")
                    var tagged = image
                    tagged.iccProfile = source
                    let fast = try tagged.converted(to: target, intent: intent, threads: 2, engine: .automatic)
                    let reference = try tagged.converted(to: target, intent: intent, threads: 2, engine: .lcms2)
                    let difference = PixelDifference(fast, reference, channels: 4)
                    #expect(difference.max <= 1, "\(key): \(difference)")
                }
            }
        }
        // The profiles made to disagree with their matrix: each where lcms2 reads its LUT, or
        // compensates its black point.
        let lut = ["matrix-and-a2b0.icc as source perceptual", "matrix-and-a2b0.icc as source relative",
                   "matrix-and-a2b0.icc as source saturation", "matrix-and-a2b1.icc as source relative",
                   "matrix-and-luts-v4.icc as source relative", "matrix-and-luts-v4.icc as target relative",
                   "matrix-and-luts-v4.icc as target perceptual", "matrix-and-d2b0.icc as source perceptual",
                   "raised-black-v4.icc as source perceptual", "raised-black-v4.icc as source saturation",
                   "lcms-alltags.icc as source relative", "lcms-alltags.icc as target relative"]
        for key in lut { #expect(refused.contains(key), "\(key) goes through lcms2") }
        // …and the matrix where lcms2 reads the matrix too.
        for key in ["matrix-and-a2b1.icc as source perceptual", "matrix-and-d2b0.icc as source relative",
                    "raised-black-v4.icc as source relative"] {
            #expect(served.contains(key), "\(key) is the matrix's")
        }
        // Every common matrix/TRC profile keeps the fast path as a source, every intent; as a target
        // where its inverse curve has a linear toe (sRGB's, BT.709's): a pure power curve's inverse
        // is too steep near black for the table (4 levels in its first step at 2.2), so lcms2 then.
        for name in ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "Rec709.icc", "sRGB.icc", "a98.icc"] {
            for intent in ["perceptual", "relative", "saturation"] {
                #expect(served.contains("\(name) as source \(intent)"), "\(name) \(intent)")
                let toe = ["Rec709.icc", "sRGB.icc"].contains(name)
                #expect(served.contains("\(name) as target \(intent)") == toe, "\(name) as target \(intent)")
            }
        }
        #expect(served.count > 150 && refused.count > 100, "\(served.count) served, \(refused.count) refused")
    }
}
