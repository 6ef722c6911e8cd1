import CFrostCodecs
import FrostColor
import FrostCore

/// Reads PNG files through CFrostCodecs (libpng): every color type and bit depth, Adam7, tRNS.
/// The pixels of 8-bit non-interlaced gray, RGB and RGBA files come from the direct read
/// (libdeflate and Frost's unfiltering, png_direct.c) unless it finds anything off.
enum PNGDecoder {
    /// One libpng read session over a memory buffer; the buffer must outlive it.
    final class Session {
        let decoder: OpaquePointer
        var header = frost_png_info()

        init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            try PNGStructure.validate(bytes)
            cicp = PNGStructure.cicp(bytes)
            hasICCP = PNGStructure.firstChunk(PNGStructure.tag("iCCP"), in: bytes) != nil
            // libpng's own dimension limits are lifted: the pixel budget is checked in Swift.
            guard let d = frost_png_decoder_create(bytes.baseAddress, bytes.count, 0x7fff_ffff, 0x7fff_ffff) else {
                throw CodecError(.outOfMemory, "out of memory")
            }
            decoder = d
            var error = frost_error()
            try check(frost_png_read_header(decoder, &header, &error), error, .png)
        }

        deinit { frost_png_decoder_destroy(decoder) }

        var readDirect: Bool { frost_png_decoder_read_direct(decoder) != 0 }

        var width: Int { Int(header.width) }
        var height: Int { Int(header.height) }

        /// The pixels; with `allowTruncated`, a file cut short gives the rows before the cut.
        func read<T>(into buffer: UnsafeMutableBufferPointer<T>, allowTruncated: Bool = false) throws {
            var error = frost_error()
            var truncated: Int32 = 0
            let rowBytes = width * 4 * MemoryLayout<T>.stride
            try check(frost_png_read_pixels(decoder, buffer.baseAddress, rowBytes, allowTruncated ? 1 : 0, &truncated, &error), error, .png)
        }

        var info: ImageInfo {
            let type = header.color_type
            let alpha = type & 4 != 0 || header.has_trns != 0
            let gray = type & 2 == 0
            let models = [0: "gray", 2: "rgb", 3: "palette", 4: "gray+alpha", 6: "rgba"]
            var info = ImageInfo(
                format: .png, width: width, height: height,
                channels: (gray ? 1 : 3) + (alpha ? 1 : 0), bitDepth: Int(header.bit_depth),
                hasAlpha: alpha, hasICCProfile: hasICCP,
                orientation: EXIFOrientation.read(header.exif, count: Int(header.exif_length)),
                colorModel: models[Int(type)] ?? "unknown", interlaced: header.interlaced != 0)
            info.iccProfile = iccProfile
            info.ignoredProfile = carried.ignored
            info.cicp = cicp
            return info
        }

        /// The cICP chunk (PNG, third edition, 11.3.2.6), which Debian's libpng predates.
        private let cicp: CICP?
        /// The file has an iCCP chunk (libpng drops a profile whose header does not suit the PNG's
        /// colour type, or whose data does not inflate).
        private let hasICCP: Bool
        private var gray: Bool { header.color_type & 2 == 0 }
        /// The iCCP profile, checked against the pixels (gray or RGB); one libpng dropped is ignored too.
        private lazy var carried = header.icc_length == 0 && hasICCP
            ? CarriedProfile(ignoring: "libpng rejects it: it does not suit the PNG's colour type or cannot be read")
            : CarriedProfile(copiedBytes(header.icc, count: header.icc_length), for: gray ? .gray : .rgb)

        /// The profile the pixels are read under (PNG, third edition, 4.3: cICP, then iCCP, then
        /// sRGB, then gAMA and cHRM): the profile cICP's code points make where it says other than
        /// sRGB (an SDR curve lcms2 builds: `ColorProfile.forCICP`); else the iCCP profile where it
        /// describes the pixels; else the profile gAMA and cHRM describe (11.3.3), unless an sRGB
        /// chunk says sRGB or they are sRGB's within their precision (gamma 1/2.2, BT.709's
        /// chromaticities, as browsers take them). A gray file's is a Gray profile (its white and
        /// curve), which the decode then converts to sRGB as any Gray profile.
        /// (Made once: building a profile opens lcms2.)
        lazy var iccProfile: [UInt8]? = {
            if let cicp {
                if cicp.isSRGB { return nil }
                if !cicp.isHDR, let made = try? ColorProfile.forCICP(primaries: cicp.primaries, transfer: cicp.transfer, gray: gray) {
                    return made
                }
            }
            if let icc = carried.usable { return icc }
            guard header.srgb == 0, header.gamma != 0 || header.has_chrm != 0 else { return nil }
            let gamma = header.gamma == 0 ? 2.2 : 100_000 / Double(header.gamma)
            let xy = header.has_chrm != 0 ? withUnsafeBytes(of: header.chrm) { Array($0.bindMemory(to: Double.self)) } : ColorProfile.sRGBChromaticities
            let compared = gray ? 2 : 8   // gray: the white alone
            let nearSRGB = abs(gamma - 2.2) < 0.02
                && zip(xy.prefix(compared), ColorProfile.sRGBChromaticities).allSatisfy { abs($0 - $1) < 0.0015 }
            guard !nearSRGB, gamma > 0.1, gamma < 10 else { return nil }
            return try? ColorProfile.forChromaticities(xy, gamma: gamma, gray: gray, description: "PNG gAMA/cHRM")
        }()
    }

    static func info(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ImageInfo {
        var info = try Session(bytes).info
        (info.frames, info.loops, info.duration) = PNGStructure.animation(bytes)
        return info
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> Image {
        try decode(bytes, options: options, libpngOnly: false).image
    }

    /// Tests compare the two readers: `libpngOnly` makes libpng read the pixels, and `readDirect`
    /// says whether the direct read did.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions,
                       libpngOnly: Bool) throws -> (image: Image, readDirect: Bool) {
        let session = try Session(bytes)
        if libpngOnly { frost_png_decoder_use_libpng_only(session.decoder) }
        let info = session.info
        DecodeWarnings.ignoredProfile(info.ignoredProfile)
        try options.checkBudget(width: info.width, height: info.height)
        let count = info.width * info.height * 4
        let pixels: [UInt8]
        if info.bitDepth == 16 {
            let wide = try readWide(session, count: count, allowTruncated: options.allowTruncated)
            pixels = [UInt8](unsafeUninitializedCapacity: count) { narrow, n in
                wide.withUnsafeBufferPointer { reduce16To8($0, into: narrow) }
                n = count
            }
        } else {
            pixels = try decodedSamples(count: count) { try session.read(into: $0, allowTruncated: options.allowTruncated) }
        }
        let image = Image(width: info.width, height: info.height, pixels: pixels, isPremultiplied: false,
                          hasAlpha: info.hasAlpha, isGray: info.channels <= 2, iccProfile: session.iccProfile)
        return (options.autoOrient ? image.oriented(Orientation(exifValue: info.orientation)) : image, session.readDirect)
    }

    /// 16-bit files as native RGBA16, before the reduction to 8 bits, with their ICC profile
    /// (tests compare these with the reference decodings; `SixteenBitPNG` keeps them).
    static func decode16(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> (ImageInfo, [UInt16], [UInt8]?) {
        let session = try Session(bytes)
        let info = session.info
        guard info.bitDepth == 16 else { throw CodecError(.unsupported, "not a 16-bit PNG") }
        try options.checkBudget(width: info.width, height: info.height)
        return (info, try readWide(session, count: info.width * info.height * 4, allowTruncated: options.allowTruncated), session.iccProfile)
    }

    private static func readWide(_ session: Session, count: Int, allowTruncated: Bool) throws -> [UInt16] {
        try decodedSamples(count: count) { try session.read(into: $0, allowTruncated: allowTruncated) }
    }
}
