import Foundation

/// What signs a request: an access key, its secret and, for temporary credentials, a session token.
/// Its description never shows the secret or the token.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    public let accessKeyID: String
    public let secretAccessKey: String
    public let sessionToken: String?
    /// When temporary credentials end (seconds since 1970), nil for keys that do not.
    public let expiration: Double?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Double? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    public var description: String { "access key \(accessKeyID)\(sessionToken == nil ? "" : " with a session token")" }
}

/// Where the credentials come from, in the order botocore (and so the AWS CLI) tries them.
public enum CredentialSource: Sendable, Equatable {
    /// Given outright: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile's keys.
    case keys(S3Credentials, from: String)
    /// A web identity token exchanged at STS (AssumeRoleWithWebIdentity): EKS's service accounts.
    case webIdentity(tokenFile: String, roleARN: String, sessionName: String)
    /// Nothing found: every request fails with that said once.
    case none
}

/// The S3 settings every AWS tool reads (docs/storage.md, "Configuration"): the environment first,
/// then the profile's sections in ~/.aws/config and ~/.aws/credentials.
public struct S3Configuration: Sendable {
    public var region: String
    /// The endpoint given (`http://127.0.0.1:9000`), nil for AWS's own.
    public var endpoint: String?
    /// STS's endpoint for web identity.
    public var stsEndpoint: String?
    /// `path` (`host/bucket/key`), `virtual` (`bucket.host/key`) or `auto`.
    public var addressingStyle: String
    public var credentials: CredentialSource
    /// Tries per request (the first and its retries), AWS_MAX_ATTEMPTS or `max_attempts`.
    public var maxAttempts: Int
    /// The longest one request may take, connection included (seconds); 0: no limit (a transfer
    /// that keeps moving is never cut, as with the AWS SDKs).
    public var requestTimeout: Double
    /// The longest a connection may take to open, TLS included (seconds; botocore's
    /// `connect_timeout`).
    public var connectTimeout: Double
    /// The longest nothing may be received or sent once connected (seconds; botocore's
    /// `read_timeout`); 0: no limit.
    public var readTimeout: Double
    /// Certificates to trust instead of the system's (AWS_CA_BUNDLE or `ca_bundle`).
    public var caBundle: String?
    /// The profile read (for messages).
    public var profile: String

    /// The configuration `environment` gives (the process's by default), with the files it names.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> S3Configuration {
        let env = { (name: String) -> String? in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        // Seconds, at most a year (milliseconds must fit libcurl's long): `inf` is no limit (0), `nan` the default.
        let seconds = { (name: String) -> Double? in
            env(name).flatMap(Double.init).flatMap { $0.isNaN ? nil : $0.isInfinite ? 0 : min(max(0, $0), 31_536_000) }
        }
        let home = env("HOME") ?? NSHomeDirectory()
        let profile = env("AWS_PROFILE") ?? env("AWS_DEFAULT_PROFILE") ?? "default"
        let configFile = INIFile(path: env("AWS_CONFIG_FILE") ?? home + "/.aws/config")
        let credentialsFile = INIFile(path: env("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials")
        // In the config file a profile's section is "[profile NAME]" (but "[default]"); in the
        // credentials file it is "[NAME]".
        let config = configFile.section(profile == "default" ? "default" : "profile " + profile)
            ?? configFile.section(profile) ?? [:]
        let stored = credentialsFile.section(profile) ?? [:]
        let s3 = INIFile.nested(config["s3"])

        var credentials = CredentialSource.none
        if let id = env("AWS_ACCESS_KEY_ID"), let secret = env("AWS_SECRET_ACCESS_KEY") {
            credentials = .keys(S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN")), from: "the environment")
        } else if let tokenFile = env("AWS_WEB_IDENTITY_TOKEN_FILE") ?? config["web_identity_token_file"],
                  let role = env("AWS_ROLE_ARN") ?? config["role_arn"] {
            let name = env("AWS_ROLE_SESSION_NAME") ?? config["role_session_name"] ?? "frost-\(ProcessInfo.processInfo.processIdentifier)"
            credentials = .webIdentity(tokenFile: tokenFile, roleARN: role, sessionName: name)
        } else if let keys = Self.keys(stored) {
            credentials = .keys(keys, from: "profile \(profile) in \(credentialsFile.path)")
        } else if let keys = Self.keys(config) {
            credentials = .keys(keys, from: "profile \(profile) in \(configFile.path)")
        }
        let endpoint = env("AWS_ENDPOINT_URL_S3") ?? env("AWS_ENDPOINT_URL") ?? s3["endpoint_url"] ?? config["endpoint_url"]
        return S3Configuration(
            region: env("AWS_REGION") ?? env("AWS_DEFAULT_REGION") ?? config["region"] ?? "us-east-1",
            endpoint: endpoint.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 },
            stsEndpoint: env("AWS_ENDPOINT_URL_STS") ?? env("AWS_ENDPOINT_URL") ?? INIFile.nested(config["sts"])["endpoint_url"],
            addressingStyle: s3["addressing_style"] ?? "auto",
            credentials: credentials,
            maxAttempts: max(1, Int(env("AWS_MAX_ATTEMPTS") ?? config["max_attempts"] ?? "") ?? 5),
            requestTimeout: seconds("FROST_S3_REQUEST_TIMEOUT") ?? 0,
            connectTimeout: seconds("FROST_S3_CONNECT_TIMEOUT") ?? 60,
            readTimeout: seconds("FROST_S3_READ_TIMEOUT") ?? 60,
            caBundle: env("AWS_CA_BUNDLE") ?? config["ca_bundle"],
            profile: profile)
    }

    /// The three timeouts as a request takes them.
    var timeouts: (request: Double, connect: Double, read: Double) { (requestTimeout, connectTimeout, readTimeout) }

    private static func keys(_ section: [String: String]) -> S3Credentials? {
        guard let id = section["aws_access_key_id"], let secret = section["aws_secret_access_key"] else { return nil }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: section["aws_session_token"])
    }

    /// The base URL and the path of `bucket`'s `key`, as the addressing style says: path-style
    /// where the endpoint is an address or `localhost` (no name per bucket resolves there), where
    /// the config says `path`, or where the bucket's name cannot be a host name; else virtual-hosted.
    public func location(bucket: String, key: String) -> (scheme: String, host: String, path: String) {
        let base = endpoint ?? "https://s3.\(region).amazonaws.com"
        let (scheme, host) = Self.split(base)
        let name = host.split(separator: ":").first.map(String.init) ?? host
        let pathStyle = addressingStyle == "path" || (addressingStyle != "virtual" && (Self.isAddress(name) || name == "localhost"
            || !Self.isHostLabel(bucket) || (scheme == "https" && bucket.contains("."))))
        return pathStyle ? (scheme, host, "/\(bucket)/\(key)") : (scheme, "\(bucket).\(host)", "/\(key)")
    }

    /// STS's base URL.
    public var stsBase: (scheme: String, host: String) { Self.split(stsEndpoint ?? "https://sts.\(region).amazonaws.com") }

    static func split(_ url: String) -> (scheme: String, host: String) {
        let scheme = url.hasPrefix("http://") ? "http" : "https"
        let rest = url.drop { $0 != "/" }.drop { $0 == "/" }
        let host = rest.prefix { $0 != "/" }
        return (scheme, String(host.isEmpty ? Substring(url) : host))
    }

    static func isAddress(_ host: String) -> Bool {
        host.hasPrefix("[") || (host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    /// A bucket name that works as a DNS label set: lowercase letters, digits, dots and hyphens.
    static func isHostLabel(_ bucket: String) -> Bool {
        (3...63).contains(bucket.count) && bucket.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == ".") }
    }
}

/// An AWS config or credentials file: `[section]` headers, `key = value` lines, `#` and `;`
/// comments, and a key with an empty value followed by indented `key = value` lines (a nested
/// section such as `s3 =`, kept as its lines).
struct INIFile {
    let path: String
    private var sections: [String: [String: String]] = [:]

    init(path: String) {
        self.path = path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var current: String?, nestedKey: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                nestedKey = nil
                sections[current!, default: [:]] = sections[current!] ?? [:]
                continue
            }
            guard let section = current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if raw.first == " " || raw.first == "\t", let parent = nestedKey {
                sections[section]![parent, default: ""] += "\(key)=\(value)\n"
            } else if value.isEmpty {
                nestedKey = key
                sections[section]![key] = ""
            } else {
                nestedKey = nil
                sections[section]![key] = value
            }
        }
    }

    func section(_ name: String) -> [String: String]? { sections[name] }

    /// The `key=value` lines a nested section was kept as.
    static func nested(_ text: String?) -> [String: String] {
        var values: [String: String] = [:]
        for line in (text ?? "").split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return values
    }
}
