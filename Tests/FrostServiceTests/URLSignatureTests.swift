import FrostCore
@testable import FrostService
import Testing

/// imgproxy's signing: vectors computed with Python's hmac and base64 modules (the reference).
@Suite struct URLSignatureTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"
    static let path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"

    @Test func signsAsImgproxySigns() throws {
        let signer = try #require(URLSignature(keyHex: Self.key, saltHex: Self.salt))
        #expect(signer.signature(for: Self.path) == "90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40")
        #expect(signer.verifies("90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40", for: Self.path))
        #expect(!signer.verifies("90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf4O", for: Self.path))
        #expect(!signer.verifies("90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40", for: Self.path.replacingOccurrences(of: "300", with: "301")))
        #expect(!signer.verifies("", for: Self.path))
    }

    @Test func aKeyLongerThanABlockIsHashedFirst() {
        let mac = HMAC.sha256(key: Array(repeating: UInt8(ascii: "x"), count: 100), message: Array("abc".utf8))
        #expect(mac.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() == "c943ae4ba853256e0d741769bad8e0151afddacc654539f0be4776e9fe7b6e89")
    }

    @Test func keysAreHex() {
        #expect(URLSignature(keyHex: "abc", saltHex: "00") == nil)
        #expect(URLSignature(keyHex: "zz", saltHex: "00") == nil)
        #expect(URLSignature(keyHex: "", saltHex: "00") == nil)
        #expect(URLSignature(keyHex: "AbCd", saltHex: "00") != nil)
    }

    @Test func base64RoundTrips() {
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("local:///photo.jpg".utf8)) == "bG9jYWw6Ly8vcGhvdG8uanBn")
        #expect(Base64URL.decode("a") == nil && Base64URL.decode("ab!c") == nil)
    }
}

private extension String {
    func replacingOccurrences(of a: String, with b: String) -> String { split(separator: a, omittingEmptySubsequences: false).joined(separator: b) }
}
