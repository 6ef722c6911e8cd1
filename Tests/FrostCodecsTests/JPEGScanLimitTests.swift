import FrostCodecs
import FrostCore
import FrostTestSupport
import Testing

/// A progressive JPEG whose last scan is repeated costs a pass over every coefficient per copy:
/// past the scan limit (100; encoders write about 10) it is refused, as djpeg's -maxscans refuses
/// it, by the whole-image decode and the row reader alike; its header still reads.
@Suite struct JPEGScanLimitTests {
    @Test func repeatedScansPastTheLimitAreRefused() throws {
        #expect(try Image(decoding: try repeatedScansJPEG(extra: 20)).width == 256)
        let bomb = try repeatedScansJPEG(extra: 200)
        #expect(try ImageInfo(bytes: bomb).width == 256)
        do {
            _ = try Image(decoding: bomb)
            Issue.record("a JPEG of 210 scans was decoded")
        } catch let error as CodecError {
            #expect(error.kind == .tooLarge && error.message.contains("more than 100 scans"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
        let reader = try JPEGRowReader(bytes: bomb, options: DecodeOptions())
        #expect(throws: CodecError.self) { try reader.start() }
    }
}
