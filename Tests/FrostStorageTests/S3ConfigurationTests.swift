import Foundation
import FrostStorage
import FrostTestSupport
import Testing

/// Configuration read as botocore (the AWS CLI) reads it: the environment before the profile's
/// files, `[profile NAME]` in the config and `[NAME]` in the credentials file, nested `s3 =`
/// settings, and the addressing style the endpoint calls for.
@Suite struct S3ConfigurationTests {
    @Test func theEnvironmentComesFirst() {
        let c = S3Configuration.resolve(environment: ["AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token",
                                                      "AWS_DEFAULT_REGION": "eu-west-1", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000/",
                                                      "AWS_ENDPOINT_URL_S3": "http://localhost:9001", "HOME": "/nonexistent"])
        #expect(c.credentials == .keys(S3Credentials(accessKeyID: "AKIAENV", secretAccessKey: "secret", sessionToken: "token"), from: "the environment"))
        #expect(c.region == "eu-west-1")
        #expect(c.endpoint == "http://localhost:9001")
        #expect(S3Configuration.resolve(environment: ["AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "eu-west-1", "HOME": "/nonexistent"]).region == "ap-south-1")
        #expect(S3Configuration.resolve(environment: ["HOME": "/nonexistent"]).credentials == .none)
    }

    /// Timeouts in seconds: `inf` is none, `nan` the default, a huge one a year (it had trapped
    /// converting to libcurl's milliseconds).
    @Test func timeoutsAreSecondsWithinAYear() {
        let c = S3Configuration.resolve(environment: ["FROST_S3_READ_TIMEOUT": "inf", "FROST_S3_CONNECT_TIMEOUT": "nan",
                                                      "FROST_S3_REQUEST_TIMEOUT": "1e300", "HOME": "/nonexistent"])
        #expect(c.readTimeout == 0 && c.connectTimeout == 60 && c.requestTimeout == 31_536_000)
        #expect(S3Configuration.resolve(environment: ["FROST_S3_READ_TIMEOUT": "-5", "HOME": "/nonexistent"]).readTimeout == 0)
    }

    @Test func profilesComeFromTheFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try """
        [default]
        region = us-west-2
        [profile catalog]
        region = eu-central-1
        endpoint_url = https://minio.example.com
        s3 =
          addressing_style = path
        max_attempts = 7
        [profile pod]
        role_arn = arn:aws:iam::123456789012:role/frost
        web_identity_token_file = /var/run/secrets/token
        """.write(toFile: folder.file("config"), atomically: true, encoding: .utf8)
        try """
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = default-secret
        [catalog]
        aws_access_key_id = AKIACATALOG
        aws_secret_access_key = catalog-secret
        aws_session_token = catalog-token
        """.write(toFile: folder.file("credentials"), atomically: true, encoding: .utf8)
        let files = ["AWS_CONFIG_FILE": folder.file("config"), "AWS_SHARED_CREDENTIALS_FILE": folder.file("credentials"), "HOME": "/nonexistent"]
        let plain = S3Configuration.resolve(environment: files)
        #expect(plain.region == "us-west-2" && plain.addressingStyle == "auto" && plain.maxAttempts == 5)
        #expect(plain.credentials == .keys(S3Credentials(accessKeyID: "AKIADEFAULT", secretAccessKey: "default-secret"),
                                           from: "profile default in \(folder.file("credentials"))"))
        let catalog = S3Configuration.resolve(environment: files.merging(["AWS_PROFILE": "catalog"]) { $1 })
        #expect(catalog.region == "eu-central-1" && catalog.endpoint == "https://minio.example.com" && catalog.maxAttempts == 7)
        #expect(catalog.addressingStyle == "path")
        #expect(catalog.location(bucket: "photos", key: "a.jpg") == ("https", "minio.example.com", "/photos/a.jpg"))
        let pod = S3Configuration.resolve(environment: files.merging(["AWS_PROFILE": "pod"]) { $1 })
        #expect(pod.credentials == .webIdentity(tokenFile: "/var/run/secrets/token", roleARN: "arn:aws:iam::123456789012:role/frost",
                                                sessionName: "frost-\(ProcessInfo.processInfo.processIdentifier)"))
        // EKS sets the two variables; they outrank the files' keys.
        let eks = S3Configuration.resolve(environment: files.merging(["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn:r",
                                                                     "AWS_ROLE_SESSION_NAME": "job-3"]) { $1 })
        #expect(eks.credentials == .webIdentity(tokenFile: "/t", roleARN: "arn:r", sessionName: "job-3"))
    }

    @Test func addressingFollowsTheEndpoint() {
        func location(_ endpoint: String?, _ bucket: String = "photos", style: String = "auto") -> (String, String, String) {
            var c = S3Configuration.resolve(environment: ["HOME": "/nonexistent", "AWS_REGION": "eu-west-1"])
            c.endpoint = endpoint
            c.addressingStyle = style
            return c.location(bucket: bucket, key: "a/b.jpg")
        }
        #expect(location(nil) == ("https", "photos.s3.eu-west-1.amazonaws.com", "/a/b.jpg"))
        #expect(location("http://127.0.0.1:9000") == ("http", "127.0.0.1:9000", "/photos/a/b.jpg"))
        #expect(location("http://localhost:9000") == ("http", "localhost:9000", "/photos/a/b.jpg"))
        #expect(location("https://r2.example.com") == ("https", "photos.r2.example.com", "/a/b.jpg"))
        #expect(location("https://r2.example.com", "my.dotted.bucket") == ("https", "r2.example.com", "/my.dotted.bucket/a/b.jpg"))
        #expect(location(nil, style: "path") == ("https", "s3.eu-west-1.amazonaws.com", "/photos/a/b.jpg"))
    }

    @Test func credentialsNeverShowTheSecret() {
        let keys = S3Credentials(accessKeyID: "AKIA", secretAccessKey: "very-secret", sessionToken: "tok-secret")
        #expect(!"\(keys)".contains("secret") && "\(keys)".contains("AKIA"))
    }

    @Test func addressesParse() {
        #expect(ObjectAddress("s3://b/photos/a.jpg") == ObjectAddress(bucket: "b", key: "photos/a.jpg"))
        #expect(ObjectAddress("s3://b/photos/")?.isFolder == true && ObjectAddress("s3://b")?.isFolder == true)
        #expect(ObjectAddress("s3:///k") == nil && ObjectAddress("/tmp/a.jpg") == nil)
        #expect(Storage.parent(of: "s3://b/lists/a.txt") == "s3://b/lists" && Storage.parent(of: "s3://b/a.txt") == "s3://b")
    }
}
