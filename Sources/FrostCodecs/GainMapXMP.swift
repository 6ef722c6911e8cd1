/// A JPEG's gain map (Ultra HDR, Adobe's): a second image after the first (MPF), described by the
/// primary XMP's `hdrgm:` properties and its `Container:Directory` of items. Frost keeps the primary
/// image only, so the XMP it writes must not describe a gain map that is no longer there: a reader
/// would look for it past the end of the picture.
enum GainMapXMP {
    static func removed(from xmp: [UInt8]) -> [UInt8] {
        let text = String(decoding: xmp, as: UTF8.self)
        guard text.contains("hdrgm:") || text.contains("Container:Directory") else { return xmp }
        let cleaned = text
            .replacing(#/<Container:Directory>.*?</Container:Directory>/#.dotMatchesNewlines(), with: "")
            .replacing(#/<hdrgm:(\w+)>.*?</hdrgm:\1>/#.dotMatchesNewlines(), with: "")
            .replacing(#/\s+hdrgm:\w+="[^"]*"/#, with: "")
        return Array(cleaned.utf8)
    }
}
