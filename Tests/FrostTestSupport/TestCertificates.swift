import Foundation

/// A throwaway certificate authority made with the openssl CLI (Debian's `openssl`, in the
/// Makefile's APT_PACKAGES) in a folder of its own, and server certificates it signs: what the TLS
/// tests trust (AWS_CA_BUNDLE) and serve. EC P-256 keys, valid two days.
public struct TestCertificateAuthority {
    public let folder: TemporaryFolder
    /// The CA's certificate (PEM): the bundle a client is told to trust.
    public let certificate: String

    public init() throws {
        folder = try TemporaryFolder()
        certificate = folder.file("ca.pem")
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                          "-subj", "/CN=Frost test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                          "-addext", "keyUsage=critical,keyCertSign", "-keyout", folder.file("ca.key"), "-out", certificate])
    }

    /// A server certificate signed by this CA for `names` (its subjectAltName: `IP:127.0.0.1`,
    /// `DNS:localhost`): the certificate's and the key's files.
    public func serverCertificate(for names: [String]) throws -> (certificate: String, key: String) {
        let name = UUID().uuidString
        let key = folder.file(name + ".key"), request = folder.file(name + ".csr"), certificate = folder.file(name + ".pem")
        let extensions = folder.file(name + ".ext")
        try "subjectAltName=\(names.joined(separator: ","))\nextendedKeyUsage=serverAuth\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        try Self.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=Frost test server",
                          "-keyout", key, "-out", request])
        try Self.openssl(["x509", "-req", "-in", request, "-CA", self.certificate, "-CAkey", folder.file("ca.key"), "-days", "2",
                          "-extfile", extensions, "-out", certificate])
        return (certificate, key)
    }

    private static func openssl(_ arguments: [String]) throws {
        let run = try FrostRun.run(arguments, executable: "/usr/bin/openssl")
        if run.status != 0 { throw S3TestError("openssl \(arguments.joined(separator: " ")): \(run.stderr)") }
    }
}
