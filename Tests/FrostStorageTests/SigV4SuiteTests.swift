import Foundation
import FrostCore
import FrostStorage
import FrostTestSupport
import Testing

/// The signer against AWS's published Signature Version 4 test suite (Tests/Fixtures/sigv4, with
/// its provenance) and against botocore, the AWS CLI's signer, on S3 requests of the kinds Frost
/// sends (Tests/References/sigv4_botocore.py).
@Suite struct SigV4SuiteTests {
    static let folder = Corpus.repository + "/Tests/Fixtures/sigv4"
    static let suiteCredentials = S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let vectors = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        .filter { $0.hasSuffix(".req") }.map { String($0.dropLast(4)) }.sorted()

    /// A `.req` file as the signer takes it: the path and query as written (not decoded), every
    /// header, the body's hash. The suite's session token is one of its headers.
    static func request(_ name: String) throws -> SigV4Signer.Request {
        let text = try String(contentsOfFile: "\(folder)/\(name).req", encoding: .utf8)
        let (head, body) = text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.removeFirst()
        let method = String(first.prefix { $0 != " " })
        let target = String(first.dropFirst(method.count + 1).dropLast(" HTTP/1.1".count))
        let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) } ?? (target, "")
        let pairs = query.isEmpty ? [] : query.split(separator: "&").map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let headers = lines.map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...]))
        }
        return SigV4Signer.Request(method: method, path: path, query: pairs, headers: headers, payloadHash: SHA256.hex(Array(body.utf8)))
    }

    @Test func theSuiteIsHere() {
        #expect(Self.vectors.count == 11, "\(Self.vectors)")
    }

    @Test(arguments: vectors)
    func signsAsTheSuiteSays(_ name: String) throws {
        let signer = SigV4Signer(credentials: Self.suiteCredentials, region: "us-east-1", service: "service")
        let expected = try String(contentsOfFile: "\(Self.folder)/\(name).authz", encoding: .utf8)
        #expect(signer.authorization(try Self.request(name), at: AWSDate(stamp: "20150830T123600Z")!, normalizePath: true) == expected)
    }

    @Test func canonicalRequestAndStringToSignAreTheSuites() throws {
        let name = "get-vanilla-query-order-value"
        let canonical = SigV4Signer.canonicalRequest(try Self.request(name), normalizePath: true)
        #expect(canonical == (try String(contentsOfFile: "\(Self.folder)/\(name).creq", encoding: .utf8)))
        let signer = SigV4Signer(credentials: Self.suiteCredentials, region: "us-east-1", service: "service")
        #expect(signer.stringToSign(canonical, at: AWSDate(stamp: "20150830T123600Z")!)
                == (try String(contentsOfFile: "\(Self.folder)/\(name).sts", encoding: .utf8)))
    }

    @Test func datesAreUTC() {
        #expect(AWSDate(secondsSince1970: 1_440_938_160).stamp == "20150830T123600Z")
        #expect(AWSDate(secondsSince1970: 951_782_400).stamp == "20000229T000000Z")
    }

    /// S3 requests as Frost sends them (a listing's prefix and a continuation token full of
    /// reserved characters, a key with spaces, unicode, `//` and `..`, a part upload, a session
    /// token), signed by botocore and by Frost: the same Authorization header.
    @Test func signsAsBotocoreSigns() throws {
        let token = "IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQD+/=="
        let credentials = S3Credentials(accessKeyID: "AKIAFROSTEXAMPLE", secretAccessKey: "s3cr3t/Key+With=Signs", sessionToken: token)
        let cases: [(method: String, host: String, path: String, query: [(String, String)], headers: [(String, String)], body: String)] = [
            ("GET", "127.0.0.1:9000", "/bucket/", [("list-type", "2"), ("prefix", "photos/2024 summer/"), ("encoding-type", "url"),
                                                   ("continuation-token", "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM+Km=="), ("max-keys", "1000")], [], ""),
            ("GET", "bucket.s3.eu-west-1.amazonaws.com", "/a b/ሴ//../x+y.jpg", [], [("range", "bytes=0-262143")], ""),
            ("PUT", "bucket.s3.eu-west-1.amazonaws.com", "/caches/x.jpg.frost/level-00.png", [("partNumber", "3"), ("uploadId", "abc/def+==")],
             [("x-amz-checksum-sha256", "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=")], "some level bytes"),
            ("POST", "127.0.0.1:9000", "/bucket/k.png", [("uploads", "")], [("x-amz-checksum-algorithm", "SHA256"), ("content-type", "application/octet-stream")], ""),
        ]
        let stamp = "20261205T101112Z"
        var json: [[String: Any]] = []
        for c in cases {
            let query = SigV4Signer.canonicalQuery(c.query.map { (name: $0.0, value: $0.1) })
            json.append(["method": c.method, "url": "http://\(c.host)\(SigV4Signer.encode(c.path, keepingSlashes: true))" + (query.isEmpty ? "" : "?" + query),
                         "headers": Dictionary(uniqueKeysWithValues: c.headers), "body": c.body, "stamp": stamp, "region": "eu-west-1",
                         "access_key_id": credentials.accessKeyID, "secret_access_key": credentials.secretAccessKey, "session_token": token])
        }
        let run = try FrostRun.run([Corpus.repository + "/Tests/References/sigv4_botocore.py"], stdin: try JSONSerialization.data(withJSONObject: json),
                                   executable: S3TestServer.python)
        try #require(run.status == 0, "botocore: \(run.stderr)")
        let theirs = run.stdout.split(separator: "\n").map(String.init)
        try #require(theirs.count == cases.count)
        let signer = SigV4Signer(credentials: credentials, region: "eu-west-1", service: "s3")
        for (c, expected) in zip(cases, theirs) {
            let request = SigV4Signer.Request(method: c.method, path: c.path, query: c.query.map { (name: $0.0, value: $0.1) },
                                              headers: [("host", c.host)] + c.headers.map { (name: $0.0, value: $0.1) },
                                              payloadHash: SHA256.hex(Array(c.body.utf8)))
            let sent = signer.signed(request, at: AWSDate(stamp: stamp)!, s3: true)
            #expect(sent.first { $0.name == "Authorization" }?.value == expected, "\(c.method) \(c.path)")
            #expect(sent.contains { $0.name == "x-amz-security-token" && $0.value == token })
        }
    }
}
