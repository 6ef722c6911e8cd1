import Foundation
import FrostCodecs
import FrostStorage
import FrostTestSupport
import Testing

/// An https endpoint's certificate and host name are verified (docs/storage.md, "Configuration"):
/// the test S3 server behind a TLS proxy (Tests/References/s3_proxy.py --cert) serving a
/// certificate of a CA made for the test, trusted only when AWS_CA_BUNDLE names it, as the AWS
/// tools take it.
@Suite struct S3TLSTests {
    /// A client of `proxy` configured from the environment, trusting `bundle` (AWS_CA_BUNDLE) or,
    /// without one, the system's certificates; three attempts a request.
    static func client(_ server: S3TestServer, _ proxy: S3FaultProxy, trusting bundle: String?) -> S3Client {
        var environment = server.environment(endpoint: proxy.endpoint).merging(["HOME": "/nonexistent", "AWS_MAX_ATTEMPTS": "3"]) { $1 }
        environment["AWS_CA_BUNDLE"] = bundle
        return S3Client(configuration: .resolve(environment: environment))
    }

    /// With AWS_CA_BUNDLE naming the CA, a put and a get go through TLS (the proxy logs both).
    @Test func aCertificateOfTheCANamedByAWSCABundleIsTrusted() throws {
        let server = try S3TestServer.shared()
        let authority = try TestCertificateAuthority()
        defer { authority.folder.remove() }
        let proxy = try S3FaultProxy(server, tls: authority.serverCertificate(for: ["IP:127.0.0.1", "DNS:localhost"]))
        #expect(proxy.endpoint.hasPrefix("https://127.0.0.1:"))
        let bucket = try server.makeBucket()
        let client = Self.client(server, proxy, trusting: authority.certificate)
        #expect(client.configuration.caBundle == authority.certificate)
        let address = ObjectAddress(bucket: bucket, key: "tls/a.txt")
        let payload = Array("over TLS".utf8)
        try payload.withUnsafeBytes { try client.put(address, $0) }
        #expect(try client.get(address).bytes == payload)
        #expect(proxy.requests().map { "\($0.method) \($0.status)" } == ["PUT 200", "GET 200"])
        #expect(try server.keys(bucket) == ["tls/a.txt"], "the AWS CLI, at the plain endpoint, sees what went through TLS")
    }

    /// Without AWS_CA_BUNDLE only the system's certificates are trusted.
    @Test func withoutTheCAARequestFailsOnceNamingTheCertificate() throws {
        let failure = try Self.refusedGet(certificateFor: ["IP:127.0.0.1", "DNS:localhost"], trustingTheCA: false)
        #expect(failure?.message.hasPrefix("SSL certificate problem: ") == true, "\(String(describing: failure))")
    }

    /// A certificate the trusted CA signed, but for another host name, is refused as well.
    @Test func aCertificateForAnotherHostIsRefused() throws {
        let failure = try Self.refusedGet(certificateFor: ["DNS:other.example"], trustingTheCA: true)
        #expect(failure?.message == "SSL: no alternative certificate subject name matches target host name '127.0.0.1'", "\(String(describing: failure))")
    }

    /// A GET of an object that exists, through a TLS proxy serving a certificate for `names`
    /// signed by a CA made for it, trusted when `trustingTheCA`. It must fail with one line naming
    /// the object, tried once (a certificate that fails verification fails again), with nothing
    /// sent over the connection: the error.
    static func refusedGet(certificateFor names: [String], trustingTheCA: Bool) throws -> CodecError? {
        let (server, authority, proxy, address) = try Self.proxy(certificateFor: names, object: "tls/a.txt", Array("over TLS".utf8))
        defer { authority.folder.remove() }
        let client = Self.client(server, proxy, trusting: trustingTheCA ? authority.certificate : nil)
        let failure = #expect(throws: CodecError.self) { try client.get(address) }
        #expect(failure?.kind == .io && failure?.file == address.description, "\(String(describing: failure))")
        #expect(failure.map { !"\($0)".contains("\n") } == true)
        #expect(client.requestCount == 1, "tried \(client.requestCount) times")
        #expect(proxy.requests().isEmpty)
        return failure
    }

    /// Through the command line: `frost blur` of an image behind the TLS proxy, without the CA,
    /// exits 1 with one line `frost: s3://BUCKET/KEY: SSL certificate problem: …` on standard
    /// error, writes no output and sends nothing over the connection.
    @Test func theCommandLineSaysACertificateProblemInOneLine() throws {
        let image = try Storage.read(Corpus.path("photos/rocket.jpg"))
        let (server, authority, proxy, address) = try Self.proxy(certificateFor: ["IP:127.0.0.1", "DNS:localhost"], object: "tls/rocket.jpg", image)
        defer { authority.folder.remove() }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = server.environment(endpoint: proxy.endpoint).merging(["HOME": "/nonexistent", "AWS_MAX_ATTEMPTS": "3", "AWS_CA_BUNDLE": ""]) { $1 }
        let run = try FrostRun.run(["blur", address.description, "-o", folder.file("out.png"), "--sigma", "2"], environment: environment)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(run.status == 1, "exit \(run.status): \(run.stderr)")
        #expect(lines.count == 1 && lines[0].hasPrefix("frost: \(address.description): SSL certificate problem: "), "\(run.stderr)")
        #expect(folder.contents().isEmpty && proxy.requests().isEmpty)
    }

    /// The test server behind a TLS proxy serving a certificate for `names` signed by a CA made
    /// for it, holding `key` (in a new bucket) with `bytes`.
    static func proxy(certificateFor names: [String], object key: String, _ bytes: [UInt8])
        throws -> (S3TestServer, TestCertificateAuthority, S3FaultProxy, ObjectAddress) {
        let server = try S3TestServer.shared()
        let authority = try TestCertificateAuthority()
        let proxy = try S3FaultProxy(server, tls: authority.serverCertificate(for: names))
        let address = ObjectAddress(bucket: try server.makeBucket(), key: key)
        try bytes.withUnsafeBytes { try server.client().put(address, $0) }
        return (server, authority, proxy, address)
    }
}
