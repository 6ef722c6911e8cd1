import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// How long a connection may keep the server waiting for a request (docs/serve.md, "HTTP"), as
/// imgproxy's `IMGPROXY_READ_REQUEST_TIMEOUT` and `IMGPROXY_KEEP_ALIVE_TIMEOUT` (10 s each): a
/// new connection must deliver a whole request within `readRequest`, a kept-alive one its next
/// request within `keepAlive` of its last response's end, or it is closed. So an idle socket, a
/// half-sent header and an idle keep-alive each hold a connection (and a file descriptor) for
/// seconds, not forever. Between a request read whole and its response's end no timer runs: the
/// request's own deadline (`--timeout`) governs then.
final class RequestReadTimeouts: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let readRequest: TimeAmount
    private let keepAlive: TimeAmount
    private var timer: Scheduled<Void>?
    /// Requests read whole whose response has not ended yet.
    private var answering = 0

    init(readRequest: TimeAmount, keepAlive: TimeAmount) {
        self.readRequest = readRequest
        self.keepAlive = keepAlive
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, readRequest) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, readRequest)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            answering += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            answering -= 1
            if answering == 0 { arm(context, keepAlive) }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, _ after: TimeAmount) {
        disarm()
        let context = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.value.eventLoop.scheduleTask(in: after) { context.value.close(promise: nil) }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}

/// Closes a connection only once what was written to it has gone out. Hummingbird, shutting
/// down, closes a connection right after writing its last response's last part
/// (`HTTPConnectionStateHandler`: writeAndFlush, then close), and NIO's close drops the writes
/// still queued: five 4.4 MB PNG responses in flight at a SIGTERM ended 3.9 MB in while the log
/// said 200. Here a close waits for the writes before it (their promises) to complete.
final class WholeResponses: ChannelOutboundHandler, RemovableChannelHandler {
    // Parts pass on untouched, whatever their type.
    typealias OutboundIn = Any

    /// Writes not yet done (written to the socket, or failed).
    private var pending = 0
    /// A close asked for while writes were pending, and the promises of every such close.
    private var deferred: (mode: CloseMode, promises: [EventLoopPromise<Void>])?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        pending += 1
        let done = promise ?? context.eventLoop.makePromise()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        done.futureResult.assumeIsolated().whenComplete { _ in
            self.pending -= 1
            if self.pending == 0, let (mode, promises) = self.deferred {
                self.deferred = nil
                let closed = bound.value.eventLoop.makePromise(of: Void.self)
                for promise in promises { closed.futureResult.cascade(to: promise) }
                bound.value.close(mode: mode, promise: closed)
            }
        }
        context.write(data, promise: done)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard pending > 0, mode != .input else { return context.close(mode: mode, promise: promise) }
        var promises = deferred?.promises ?? []
        if let promise { promises.append(promise) }
        deferred = (deferred?.mode == .all ? .all : mode, promises)
    }
}
