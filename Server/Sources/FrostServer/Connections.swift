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
    /// The task that closes the connection or waits again, and when it runs.
    private var timer: (fires: NIODeadline, task: Scheduled<Void>)?
    /// When the connection closes, unless something happens before (nil: it waits for nothing).
    private var deadline: NIODeadline?
    /// Requests read whole whose response has not ended yet.
    private var answering = 0
    private var context: ChannelHandlerContext?

    init(readRequest: TimeAmount, keepAlive: TimeAmount) {
        self.readRequest = readRequest
        self.keepAlive = keepAlive
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(context, readRequest) }
    }

    /// Whether the application has no request of this connection in hand.
    var isIdle: Bool { answering == 0 }

    /// A request read whole and answered before the decoder (`HeldResults`), while idle: the
    /// connection's next request is waited for from now.
    func answeredBeforeDecoding() {
        if let context, answering == 0 { arm(context, keepAlive) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, readRequest)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
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

    /// The connection closes at `now + after` unless re-armed or disarmed before. One timer
    /// stands for every later arming: when it fires early (re-armed since) it waits again for
    /// the deadline, so a busy connection does not schedule and cancel a task per request.
    private func arm(_ context: ChannelHandlerContext, _ after: TimeAmount) {
        let deadline = NIODeadline.now() + after
        self.deadline = deadline
        if let timer, timer.fires <= deadline { return }
        timer?.task.cancel()
        wait(NIOLoopBound(context, eventLoop: context.eventLoop), until: deadline)
    }

    private func wait(_ context: NIOLoopBound<ChannelHandlerContext>, until when: NIODeadline) {
        let this = NIOLoopBound(self, eventLoop: context.value.eventLoop)
        timer = (when, context.value.eventLoop.scheduleTask(deadline: when) {
            this.value.timer = nil
            guard let deadline = this.value.deadline else { return }
            if deadline > .now() { this.value.wait(context, until: deadline) } else { context.value.close(promise: nil) }
        })
    }

    private func disarm() {
        deadline = nil
    }

    /// The timer left, cancelled when the handler goes.
    private func stop() {
        deadline = nil
        timer?.task.cancel()
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
