import FrostCodecs

/// An object written in parts and made visible whole, as `AtomicFile` is on disk: up to
/// `singlePutLimit` (16 MiB) it is held and sent in one PutObject at `commit()`; past it a
/// multipart upload starts and each 16 MiB part is sent as soon as it is complete, so no more than
/// one part is held (an output never twice), and the object appears only when the upload is
/// completed. Dropped before `commit()`, or failing, the upload is aborted: nothing appears and no
/// parts are left behind.
public final class S3Upload: FileSink {
    public let address: ObjectAddress
    private let client: S3Client
    private var pending: [UInt8] = []
    private var uploadID: String?
    private var parts: [(etag: String, checksum: String)] = []
    private var finished = false

    /// The largest object sent in one request, and the size of every part but the last.
    public static let singlePutLimit = 16 << 20

    public init(_ address: ObjectAddress, client: S3Client = .shared) {
        self.address = address
        self.client = client
    }

    deinit {
        if !finished, let uploadID { try? client.abortMultipartUpload(address, uploadID: uploadID) }
    }

    /// Adds `bytes` at the end; whole parts beyond the first 16 MiB go out now, from the caller's
    /// array where they lie whole in it.
    public func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var start = 0
            if pending.isEmpty {
                // Whole parts straight from the caller's bytes, once a multipart upload is under way
                // or the bytes alone pass the single-request limit.
                while raw.count - start > (uploadID == nil ? Self.singlePutLimit : Self.singlePutLimit - 1) {
                    try send(UnsafeRawBufferPointer(rebasing: raw[start..<(start + Self.singlePutLimit)]))
                    start += Self.singlePutLimit
                }
            }
            pending.append(contentsOf: raw[start...])
            while pending.count > Self.singlePutLimit {
                try pending.withUnsafeBytes { try send(UnsafeRawBufferPointer(rebasing: $0[0..<Self.singlePutLimit])) }
                pending.removeFirst(Self.singlePutLimit)
            }
        }
    }

    /// Sends what is held and makes the object appear.
    public func commit() throws {
        defer { finished = true }
        do {
            if let uploadID {
                if !pending.isEmpty { try pending.withUnsafeBytes { try send($0) } }
                try client.completeMultipartUpload(address, uploadID: uploadID, parts: parts)
            } else {
                try pending.withUnsafeBytes { try client.put(address, $0) }
            }
        } catch {
            if let uploadID { try? client.abortMultipartUpload(address, uploadID: uploadID) }
            throw error
        }
        pending = []
    }

    private func send(_ part: UnsafeRawBufferPointer) throws {
        do {
            let id = try uploadID ?? client.createMultipartUpload(address)
            uploadID = id
            parts.append(try client.uploadPart(address, uploadID: id, number: parts.count + 1, part))
        } catch {
            finished = true
            if let uploadID { try? client.abortMultipartUpload(address, uploadID: uploadID) }
            throw error
        }
    }
}
