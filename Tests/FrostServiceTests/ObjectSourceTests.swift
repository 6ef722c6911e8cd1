import Foundation
import FrostCodecs
import FrostCore
import FrostFiles
@testable import FrostService
import FrostTestSupport
import Testing

/// `s3://BUCKET/KEY[?VERSION]` sources and a result cache in a bucket, against a real S3 server on
/// loopback (moto, every signature checked: FrostTestSupport's S3TestServer), the AWS CLI putting
/// the objects in.
@Suite struct ObjectSourceTests {
    static func service(_ folder: TemporaryFolder, _ objects: ObjectSources) -> ImageService {
        var settings = ImageService.Settings()
        settings.signer = URLSignature(keyHex: ImageServiceTests.key, saltHex: ImageServiceTests.salt)
        settings.local = LocalSource(root: folder.file("root"))
        settings.objects = objects
        return ImageService(settings)
    }

    static func status(_ body: () throws -> Any) -> ServiceError? {
        do {
            _ = try body()
            return nil
        } catch let error as ServiceError {
            return error
        } catch {
            return ServiceError(0, "\(error)")
        }
    }

    @Test func urlsAreReadAsImgproxyReadsThem() throws {
        let object = try ObjectSources.parse("s3://photos/2024/a b.jpg?3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY")
        #expect(object.address == ObjectAddress(bucket: "photos", key: "2024/a b.jpg"))
        #expect(object.version == "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY")
        // The key is the URL's path decoded once more, as Go's url.Parse gives imgproxy its Path.
        let odd = try ObjectSources.parse("s3://my_old.bucket-1/a%3Fb%25c%23.jpg")
        #expect(odd.address.key == "a?b%c#.jpg" && odd.version == nil)
        #expect(try ObjectSources.parse(odd.url) == odd && odd.url == "s3://my_old.bucket-1/a%3Fb%25c%23.jpg")
        #expect(try ObjectSources.parse(object.url) == object)
        #expect(try ObjectSources.parse("s3://photos/a.jpg?").version == nil, "an empty query names no version")
        for bad in ["s3://", "s3://photos", "s3://photos/", "s3://Photos/a.jpg", "s3://ph/a.jpg", "s3://-photos/a.jpg", "s3://a..b/x.jpg",
                    "s3://photos/a%zz.jpg", "s3://photos/a%00.jpg", "s3://photos/a.jpg#x", "s3://photos/a.jpg?v#1", "s3://photos/a.jpg?v x",
                    "s3://photos/" + String(repeating: "k", count: 1025)] {
            #expect(Self.status { try ObjectSources.parse(bad) }?.status == 400, "\(bad)")
        }

        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        let service = Self.service(folder, ObjectSources(buckets: ["photos"]))
        #expect(try service.location(of: "s3://photos/2024/a.jpg") == .object(try ObjectSources.parse("s3://photos/2024/a.jpg")))
        #expect(Self.status { try service.location(of: "s3://other/a.jpg") } == ServiceError(403, "the source's bucket other is not allowed"))
        #expect(Self.status { try service.location(of: "s3://photos") }?.status == 400)
        // In a processing URL, plain (percent-encoded: the key's `?` twice) and base64 alike.
        let plain = try service.request(ImageServiceTests.signed("/rs:fit:300:0/plain/s3://photos/a%253Fb.jpg%3Fv1@webp"))
        #expect(plain.location == .object(ObjectSources.Object(address: ObjectAddress(bucket: "photos", key: "a?b.jpg"), version: "v1")))
        let encoded = Base64URL.encode(Array("s3://photos/2024/a.jpg".utf8))
        #expect(try service.request(ImageServiceTests.signed("/w:50/" + encoded + ".png")).location == .object(try ObjectSources.parse("s3://photos/2024/a.jpg")))
        #expect(Self.status { try service.request(ImageServiceTests.signed("/w:50/plain/s3://elsewhere/a.jpg")) }?.status == 403)
    }

    /// An object gives the bytes the same file gives as `local://`; a version id reads that
    /// version; 304s come from the object's identity, without reading it.
    @Test func anObjectIsServedAsTheSameFile() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket(versioned: true)
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        func put(_ file: String) throws -> String {
            try server.aws(["s3api", "put-object", "--bucket", bucket, "--key", "photos/rocket.jpg", "--body", folder.file(file),
                            "--query", "VersionId", "--output", "text"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let first = try put("root/photos/rocket.jpg")
        let service = Self.service(folder, ObjectSources(buckets: [bucket], client: server.client()))
        let url = "/rs:fit:300:0/plain/s3://\(bucket)/photos/rocket.jpg"
        let local = try ImageServiceTests.get(service, ImageServiceTests.signed("/rs:fit:300:0/plain/local:///photos/rocket.jpg"))
        let object = try ImageServiceTests.get(service, ImageServiceTests.signed(url))
        #expect(object.status == 200 && object.body == local.body && object.contentType == local.contentType)
        #expect(object.etag != local.etag, "an object's ETag is its own identity's")
        let info = try service.info(ImageServiceTests.signed("/plain/s3://\(bucket)/photos/rocket.jpg"))
        #expect(info.body == (try service.info(ImageServiceTests.signed("/plain/local:///photos/rocket.jpg"))).body)

        // 304 from a HEAD (no result cache, no read); the ETag again for the same object.
        let request = try service.request(ImageServiceTests.signed(url))
        #expect(service.cachedWaits(request, ifNoneMatch: object.etag))
        #expect(service.cached(request, ifNoneMatch: object.etag)?.status == 304)
        #expect(try service.respond(to: request, ifNoneMatch: object.etag).status == 304)
        #expect(try ImageServiceTests.get(service, ImageServiceTests.signed(url)).etag == object.etag)

        // Rewritten: a new ETag and the new picture; the first version still read by its id.
        let second = try put("root/alpha.png")
        #expect(first != second && !first.isEmpty && first != "None")
        let now = try ImageServiceTests.get(service, ImageServiceTests.signed(url))
        #expect(now.etag != object.etag && now.contentType == "image/png")
        let versioned = ImageServiceTests.signed(url + "%3F" + first)
        let old = try ImageServiceTests.get(service, versioned)
        #expect(old.body == local.body)
        let oldRequest = try service.request(versioned)
        #expect(!service.cachedWaits(oldRequest, ifNoneMatch: old.etag), "a version never changes: no HEAD")
        #expect(service.cached(oldRequest, ifNoneMatch: old.etag)?.status == 304)
        #expect(Self.status { try ImageServiceTests.get(service, ImageServiceTests.signed(url + "%3F" + "nosuchversion0000")) }?.status == 404)
    }

    /// A missing key or bucket 404, a policy's refusal 403, refused credentials and S3 out of
    /// reach 502, past --max-file-size 413: never a 500, never the secret.
    @Test func faultsAreAnsweredAsTheServiceSays() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        try server.aws(["s3", "cp", folder.file("root/photos/rocket.jpg"), "s3://\(bucket)/rocket.jpg", "--quiet"])
        func answer(_ objects: ObjectSources, _ url: String, maxBytes: Int = 100 << 20) -> ServiceError? {
            var settings = Self.service(folder, objects).settings
            settings.processor.limits.maxFileBytes = maxBytes
            return Self.status { try ImageServiceTests.get(ImageService(settings), ImageServiceTests.signed(url)) }
        }
        let objects = ObjectSources(buckets: [bucket, "no-such-bucket-frost"], client: server.client())
        #expect(answer(objects, "/w:50/plain/s3://\(bucket)/missing.jpg")?.status == 404)
        let noBucket = answer(objects, "/w:50/plain/s3://no-such-bucket-frost/a.jpg")
        #expect(noBucket?.status == 404 && noBucket?.message.contains("NoSuchBucket") == true, "\(String(describing: noBucket))")
        let large = answer(objects, "/w:50/plain/s3://\(bucket)/rocket.jpg", maxBytes: 1000)
        #expect(large?.status == 413, "\(String(describing: large))")

        let wrong = "Wr0ngSecretWr0ngSecretWr0ngSecret0000000"
        let refused = answer(ObjectSources(buckets: [bucket], client: server.client(secret: wrong)), "/w:50/plain/s3://\(bucket)/rocket.jpg")
        #expect(refused?.status == 502 && refused?.message.contains("SignatureDoesNotMatch") == true, "\(String(describing: refused))")
        #expect(refused.map { !$0.message.contains(wrong) && !$0.message.contains(server.secretAccessKey) } == true)

        let reader = try server.user(allowed: ["s3:ListBucket"])
        let denied = answer(ObjectSources(buckets: [bucket], client: server.client(accessKeyID: reader.accessKeyID, secret: reader.secret)),
                            "/w:50/plain/s3://\(bucket)/rocket.jpg")
        #expect(denied?.status == 403 && denied.map { !$0.message.contains(reader.secret) } == true, "\(String(describing: denied))")

        let unreachable = answer(ObjectSources(buckets: [bucket], client: server.client(endpoint: "http://127.0.0.1:9", attempts: 1)),
                                 "/w:50/plain/s3://\(bucket)/rocket.jpg")
        #expect(unreachable?.status == 502, "\(String(describing: unreachable))")
    }

    /// A result cache in a bucket: what one replica keeps, another finds by its key.
    @Test func aResultCacheInABucketIsSharedByReplicas() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        let one = try ResultCache(folder: "s3://\(bucket)/results", maxBytes: 1 << 30, memoryBytes: 1 << 20, client: server.client())
        let other = try ResultCache(folder: "s3://\(bucket)/results/", maxBytes: 1 << 30, client: server.client())
        #expect(one.isInBucket && other.isInBucket)
        let key = ResultCache.key(source: "s3://b/a.jpg|etag:x", result: "w:50|png")
        let entry = ResultCache.Entry(contentType: "image/png", etag: "\"0123\"", body: [1, 2, 3, 255])
        #expect(other.get(key) == nil)
        one.put(key, entry)
        #expect(try server.keys(bucket) == ["results/" + key])
        #expect(other.get(key) == entry && other.statistics.hits == 1 && other.statistics.misses == 1)
        #expect(one.get(key) == entry && one.statistics.memoryHits == 1, "the writer keeps it in memory too")
        #expect(other.get(ResultCache.key(source: "t", result: "r"), inMemoryOnly: true) == nil && other.statistics.misses == 1,
                "past the memory layer only when asked, a miss not counted")
        let missing = #expect(throws: CodecError.self) { try ResultCache(folder: "s3://no-such-bucket-frost/r", maxBytes: 1 << 20, client: server.client()) }
        #expect(missing?.message.contains("NoSuchBucket") == true)
    }

    /// Two services sharing a result cache in a bucket: the second answers the first's result
    /// from the bucket, then from memory without a storage call; an object's identity needs a
    /// HEAD unless a version id names it.
    @Test func servicesShareResultsThroughTheBucket() throws {
        let server = try S3TestServer.shared()
        let bucket = try server.makeBucket()
        let folder = try ImageServiceTests.root()
        defer { folder.remove() }
        func replica() throws -> ImageService {
            var settings = Self.service(folder, ObjectSources(buckets: [bucket], client: server.client())).settings
            settings.resultCache = try ResultCache(folder: "s3://\(bucket)/results", maxBytes: 1 << 30, memoryBytes: 1 << 20, client: server.client())
            return ImageService(settings)
        }
        let (one, other) = (try replica(), try replica())
        let url = ImageServiceTests.signed("/rs:fit:200:0/plain/local:///photos/rocket.jpg@webp")
        let made = try ImageServiceTests.get(one, url)
        let request = try other.request(url)
        #expect(other.cachedWaits(request) && other.cached(request, inMemoryOnly: true) == nil)
        #expect(other.cached(request)?.body == made.body)
        #expect(other.cached(request, inMemoryOnly: true)?.body == made.body, "now held in memory")
        #expect(other.cached(request, ifNoneMatch: made.etag, inMemoryOnly: true)?.status == 304)

        try server.aws(["s3", "cp", folder.file("root/photos/rocket.jpg"), "s3://\(bucket)/rocket.jpg", "--quiet"])
        let object = try other.request(ImageServiceTests.signed("/rs:fit:200:0/plain/s3://\(bucket)/rocket.jpg@webp"))
        _ = try other.respond(to: object)
        #expect(other.cached(object, inMemoryOnly: true) == nil, "its ETag takes a HEAD")
        #expect(other.cached(object)?.body == made.body)
    }
}
