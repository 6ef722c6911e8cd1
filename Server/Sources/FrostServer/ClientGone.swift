import Hummingbird
import NIOCore
import Synchronization

/// Whether a connection's client is still there: gone once its end of the connection closes (a
/// read finds EOF: Hummingbird allows half-closure, so that is an event, not a close) or the
/// connection drops. As Go's net/http (imgproxy's server) cancels a request's context on a read
/// EOF, a request whose client is gone is cancelled: it leaves the queue, or stops at its next
/// step (docs/serve.md, "Load").
final class ClientWatch: Sendable {
    private let state = Mutex<(gone: Bool, next: UInt64, waiting: [UInt64: @Sendable () -> Void])>((false, 0, [:]))

    /// Calls `action` when the client goes (at once when it has): an id to `forget` it by.
    func onGone(_ action: @escaping @Sendable () -> Void) -> UInt64? {
        let id = state.withLock { state -> UInt64? in
            guard !state.gone else { return nil }
            state.next += 1
            state.waiting[state.next] = action
            return state.next
        }
        if id == nil { action() }
        return id
    }

    func forget(_ id: UInt64?) {
        guard let id else { return }
        _ = state.withLock { $0.waiting.removeValue(forKey: id) }
    }

    fileprivate func markGone() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.gone else { return [] }
            state.gone = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for action in actions { action() }
    }
}

/// The watches of open connections, by channel: the channel handler registers one, a request
/// finds its connection's.
final class ClientWatches: Sendable {
    private let watches = Mutex<[ObjectIdentifier: ClientWatch]>([:])

    func watch(for channel: any Channel) -> ClientWatch? {
        watches.withLock { $0[ObjectIdentifier(channel)] }
    }

    /// A handler for a new connection's pipeline, after the HTTP codec.
    func handler() -> any RemovableChannelHandler { ClientGoneHandler(self) }

    fileprivate func add(_ watch: ClientWatch, _ channel: any Channel) {
        watches.withLock { $0[ObjectIdentifier(channel)] = watch }
    }

    fileprivate func remove(_ channel: any Channel) {
        _ = watches.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// `body` in a task cancelled when `watch`'s client goes (or the caller is cancelled).
    static func cancelling<T: Sendable>(when watch: ClientWatch?, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let watch else { return try await body() }
        let task = Task { try await body() }
        let id = watch.onGone { task.cancel() }
        defer { watch.forget(id) }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }
}

/// Passes every HTTP part on; marks the connection's watch gone on EOF or close.
private final class ClientGoneHandler: ChannelInboundHandler, RemovableChannelHandler {
    // Parts pass on untouched (the default channelRead), whatever their type.
    typealias InboundIn = Any

    private let watches: ClientWatches
    private let watch = ClientWatch()

    init(_ watches: ClientWatches) { self.watches = watches }

    func handlerAdded(context: ChannelHandlerContext) { watches.add(watch, context.channel) }

    func handlerRemoved(context: ChannelHandlerContext) {
        watches.remove(context.channel)
        watch.markGone()
    }

    func channelInactive(context: ChannelHandlerContext) {
        watch.markGone()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(.inputClosed) = event as? ChannelEvent { watch.markGone() }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Hummingbird's request context with the request's channel (whose watch says whether its client
/// is still there).
struct FrostRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
