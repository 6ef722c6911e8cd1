import Foundation

// The heavy calls for async code (a server's request handlers): each waits for a thread of the
// process's `ComputeBudget` and runs there, so that Swift's cooperative threads never block on
// pixel work and concurrent requests share the cores instead of each taking all of them. The
// results are the synchronous calls' own, byte for byte.

extension Image {
    /// `init(data:options:)` on a thread of the compute budget.
    public init(data: Data, options: DecodeOptions = DecodeOptions()) async throws(CodecError) {
        self = try await ComputeBudget.shared.run { () throws(CodecError) in try Image(data: data, options: options) }
    }

    /// `init(contentsOf:options:)` on a thread of the compute budget.
    public init(contentsOf url: URL, options: DecodeOptions = DecodeOptions()) async throws(CodecError) {
        self = try await ComputeBudget.shared.run { () throws(CodecError) in try Image(contentsOf: url, options: options) }
    }

    /// `encoded(_:threads:)` on a thread of the compute budget.
    public func encoded(_ encoding: ImageEncoding, threads: Int? = nil) async throws(CodecError) -> Data {
        try await ComputeBudget.shared.run { () throws(CodecError) in try self.encoded(encoding, threads: threads) }
    }

    /// `write(to:_:threads:)` on a thread of the compute budget.
    public func write(to url: URL, _ encoding: ImageEncoding? = nil, threads: Int? = nil) async throws(CodecError) {
        try await ComputeBudget.shared.run { () throws(CodecError) in try self.write(to: url, encoding, threads: threads) }
    }

    /// `gaussianBlurred(sigma:threads:)` on a thread of the compute budget.
    public func gaussianBlurred(sigma: Double, threads: Int? = nil) async -> Image {
        await ComputeBudget.shared.run { self.gaussianBlurred(sigma: sigma, threads: threads) }
    }

    /// `adjusted(_:threads:)` on a thread of the compute budget.
    public func adjusted(_ adjustment: ColorAdjustment, threads: Int? = nil) async -> Image {
        await ComputeBudget.shared.run { self.adjusted(adjustment, threads: threads) }
    }

    /// `resized(width:height:kernel:threads:)` on a thread of the compute budget.
    public func resized(width: Int, height: Int, kernel: ResampleKernel = .default, threads: Int? = nil) async -> Image {
        await ComputeBudget.shared.run { self.resized(width: width, height: height, kernel: kernel, threads: threads) }
    }

    /// `applyEffect(_:maskImage:scale:threads:)` (UIImage+ImageEffects) on a thread of the compute budget.
    public func applyEffect(_ effect: EffectParameters, maskImage: Image? = nil, scale: Double = 1, threads: Int? = nil) async -> Image {
        await ComputeBudget.shared.run { self.applyEffect(effect, maskImage: maskImage, scale: scale, threads: threads) }
    }
}

extension CrossfadeCache {
    /// `init(rendering:plan:threads:)` on a thread of the compute budget.
    public init(rendering image: Image, plan: CachePlan = CachePlan(), threads: Int? = nil) async {
        self = await ComputeBudget.shared.run { CrossfadeCache(rendering: image, plan: plan, threads: threads) }
    }

    /// `build(from:into:options:decode:threads:)` on a thread of the compute budget.
    @discardableResult
    public static func build(from source: URL, into folder: URL, options: CacheOptions = CacheOptions(),
                             decode: DecodeOptions = DecodeOptions(), threads: Int? = nil) async throws(CodecError) -> CacheManifest {
        try await ComputeBudget.shared.run { () throws(CodecError) in
            try build(from: source, into: folder, options: options, decode: decode, threads: threads)
        }
    }

    /// `frame(at:mode:threads:)` on a thread of the compute budget.
    public func frame(at p: Double, mode: FadeMode = .blend, threads: Int? = nil) async -> Image {
        await ComputeBudget.shared.run { self.frame(at: p, mode: mode, threads: threads) }
    }
}

extension MotionRenderer {
    /// `frame(at:)` on a thread of the compute budget; one renderer may serve many tasks at once.
    public func frame(at state: DriverState) async throws(ComposeError) -> Image {
        try await ComputeBudget.shared.run { () throws(ComposeError) in try self.frame(at: state) }
    }
}
