import CFrostCodecs
import FrostColor
import FrostCore

/// Reads JPEG files through CFrostCodecs (libjpeg-turbo): baseline, progressive, arithmetic,
/// gray, CMYK/YCCK (converted to RGB), EXIF orientation, APP2 ICC profiles.
enum JPEGDecoder {
    /// One file's decoder: its header read, then rows in order (`start`, `read`, `finish`).
    final class Session {
        let decoder: OpaquePointer
        var header = frost_jpeg_info()
        /// What it reads from, released after the decoder: caller's memory, a copy of its own or a
        /// file (read as it decodes).
        private enum Source { case borrowed, owned(UnsafeMutableBufferPointer<UInt8>), file(UnsafeMutablePointer<FILE>) }
        private let source: Source

        /// From memory, which must outlive the session.
        convenience init(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            try self.init(frost_jpeg_decoder_create(bytes.baseAddress, bytes.count), .borrowed)
        }

        /// From a copy of `bytes` that the session keeps.
        convenience init(copying bytes: [UInt8]) throws {
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
            _ = copy.initialize(from: bytes)
            try self.init(frost_jpeg_decoder_create(copy.baseAddress, bytes.count), .owned(copy))
        }

        /// From an open file, which the session closes.
        convenience init(file: UnsafeMutablePointer<FILE>) throws {
            try self.init(frost_jpeg_decoder_create_file(file), .file(file))
        }

        private init(_ decoder: OpaquePointer?, _ source: Source) throws {
            guard let decoder else {
                Self.release(source)
                throw CodecError(.outOfMemory, "out of memory")
            }
            (self.decoder, self.source) = (decoder, source)
            try readHeader()
        }

        private static func release(_ source: Source) {
            switch source {
            case .borrowed: break
            case .owned(let copy): copy.deallocate()
            case .file(let file): fclose(file)
            }
        }

        private func readHeader() throws {
            var error = frost_error()
            try check(frost_jpeg_read_header(decoder, &header, &error), error, .jpeg)
            // Read now: the EXIF lies in libjpeg's saved markers, which finishing the decode frees.
            let carried = CarriedProfile(copiedBytes(header.icc, count: header.icc_length),
                                         for: isCMYK ? .cmyk : header.components == 1 ? .gray : .rgb)
            ignoredProfile = carried.ignored
            iccProfile = carried.usable
            if header.icc_length == 0, !isCMYK, header.exif_length > 0 {
                iccProfile = EXIFColorSpace.impliedProfile(Array(UnsafeBufferPointer(start: header.exif, count: Int(header.exif_length))))
            }
            // CMYK samples mean nothing without a CMYK profile: a file without a usable one is read
            // under the default, as sharp and libvips read it.
            if isCMYK && iccProfile == nil { iccProfile = ColorProfile.defaultCMYK }
        }

        /// libjpeg's JCS_CMYK (4) or JCS_YCCK (5): four samples a pixel, converted through `iccProfile`.
        var isCMYK: Bool { header.color_space == 4 || header.color_space == 5 }

        deinit {
            frost_jpeg_decoder_destroy(decoder)
            Self.release(source)
        }

        /// Starts decoding at 1/`reduction` of the size (1, 2, 4 or 8): the output's size.
        func start(reduction: Int, allowTruncated: Bool) throws -> (width: Int, height: Int) {
            var error = frost_error(), width: UInt32 = 0, height: UInt32 = 0
            try check(frost_jpeg_start(decoder, Int32(reduction), allowTruncated ? 1 : 0, &width, &height, &error), error, .jpeg)
            return (Int(width), Int(height))
        }

        /// The next `count` rows, at `rows[0]` … (RGBA8, alpha 255).
        func read(_ rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws {
            var error = frost_error()
            try check(frost_jpeg_read_rows(decoder, rows, UInt32(count), &error), error, .jpeg)
        }

        func finish() throws {
            var error = frost_error()
            try check(frost_jpeg_finish(decoder, &error), error, .jpeg)
        }

        /// The header's APPn segments as a file's first bytes (SOI, the segments, SOS): what
        /// `ImageMetadata(reading:)` reads, without the file.
        var headerBytes: [UInt8] {
            var bytes: [UInt8] = [0xFF, 0xD8]
            var index: Int32 = 0, marker: Int32 = 0, data: UnsafePointer<UInt8>?, length: UInt32 = 0
            while frost_jpeg_saved_marker(decoder, index, &marker, &data, &length) != 0 {
                let size = Int(length) + 2
                bytes += [0xFF, UInt8(marker), UInt8(size >> 8), UInt8(size & 0xFF)]
                bytes += UnsafeBufferPointer(start: data, count: Int(length))
                index += 1
            }
            return bytes + [0xFF, 0xDA]
        }

        var info: ImageInfo {
            // libjpeg's J_COLOR_SPACE numbering: 1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK.
            let models = [1: "gray", 2: "rgb", 3: "ycbcr", 4: "cmyk", 5: "ycck"]
            let gray = header.components == 1
            var info = ImageInfo(
                format: .jpeg, width: Int(header.width), height: Int(header.height),
                channels: gray ? 1 : 3, bitDepth: 8, hasAlpha: false,
                hasICCProfile: header.icc_length > 0,
                orientation: EXIFOrientation.read(header.exif, count: Int(header.exif_length)),
                colorModel: models[Int(header.color_space)] ?? "unknown",
                interlaced: header.progressive != 0)
            info.iccProfile = iccProfile
            info.ignoredProfile = ignoredProfile
            return info
        }

        /// The APP2 profile; without one, the one EXIF implies (a camera's Adobe RGB, `EXIFColorSpace`);
        /// for CMYK, the default CMYK profile where the file has no usable CMYK one.
        private(set) var iccProfile: [UInt8]?
        /// Why the APP2 profile is ignored (`CarriedProfile`).
        private(set) var ignoredProfile: String?
    }

    static func info(_ bytes: UnsafeBufferPointer<UInt8>) throws -> ImageInfo {
        try Session(bytes).info
    }

    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws -> Image {
        let session = try Session(bytes)
        let info = session.info
        DecodeWarnings.ignoredProfile(session.ignoredProfile, cmyk: session.isCMYK)
        try options.checkBudget(width: info.width, height: info.height)
        let (width, height) = try session.start(reduction: options.reduction, allowTruncated: options.allowTruncated)
        let pixels: [UInt8] = try decodedSamples(count: width * height * 4) { buffer in
            var rows = (0..<height).map { Optional(buffer.baseAddress! + $0 * width * 4) }
            try session.read(&rows, count: height)
            try session.finish()
        }
        var image = Image(width: width, height: height, pixels: pixels, isPremultiplied: false,
                          hasAlpha: false, isGray: info.channels == 1, iccProfile: session.iccProfile)
        // A CMYK file's rows are CMYK samples (as stored: inverted where Adobe's marker says), converted
        // by its profile (lcms2), untagged sRGB after.
        if session.isCMYK {
            do {
                image = try Image.fromDeviceSpace(image, profile: session.iccProfile!, cmyk: true, inverted: session.header.saw_adobe != 0,
                                                  intent: options.intent)
            } catch {
                throw CodecError(.unsupported, "the CMYK profile cannot be used: \(error.description)")
            }
        }
        return options.autoOrient ? image.oriented(Orientation(exifValue: info.orientation)) : image
    }
}
