import FrostCodecs

/// Which inputs a filter command may stream (decode → steps → encode by strips), told from a file's
/// first 24 bytes before the rest is read: a JPEG, or a PNG whose IHDR announces at least
/// `PNGRowReader.streamedPixels` (the header's numbers untrusted: an overflowing product streams,
/// and the reader then refuses the file). The reader still checks the whole header
/// (`PNGRowReader.streams`, a JPEG's orientation) before a file is streamed.
package enum StreamRoute {
    /// The bytes a decision needs.
    package static let headBytes = 24

    /// The format to stream the file of `head` as, or nil for the whole-image path.
    package static func candidate(head: [UInt8]) -> ImageFormat? {
        switch ImageFormat(sniffing: head) {
        case .jpeg: .jpeg
        case .png where PNGRowReader.announcedPixels(head) >= PNGRowReader.streamedPixels: .png
        default: nil
        }
    }
}
