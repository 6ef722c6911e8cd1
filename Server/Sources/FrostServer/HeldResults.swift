import Foundation
import FrostService
import NIOCore

/// Answers a request whose result is held in memory (a hot image asked again:
/// `ImageService.heldAnswer`) from the bytes read, in front of NIO's HTTP decoder and
/// Hummingbird's router, on the event loop that read it: such a hit costs the socket's read and
/// write, a strict parse of its head (`RequestHead`), one stat and a lookup, not the decoder's
/// objects, a task, the router and the encoder (docs/performance.md: a repeated URL's CPU per
/// response). Anything else passes on untouched. So that the decoder never holds half a request
/// when one is answered here, a request is answered only while every byte passed on so far ended
/// at a whole request; once a connection sends what `RequestHead` refuses (a body, a bare LF…)
/// all its bytes go to the decoder. Responses keep their order (HTTP/1.1 pipelining): a request
/// is answered here only while the application holds none of the connection's. A client that
/// sends requests faster than it reads the answers is not answered past the socket's buffer
/// (the channel's writability): what it sent waits here, and the connection is not read, until
/// the answers before have gone out.
final class HeldResults: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    // Writes from behind pass on untouched, whatever their type.
    typealias OutboundIn = Any
    typealias OutboundOut = ByteBuffer

    private let responder: ImageResponder
    private let timeouts: RequestReadTimeouts
    private let serverName: String
    /// Whether every byte passed on ended at a whole request.
    private var aligned = true
    /// Bytes read and not handled yet: the start of a head not read whole, or requests waiting
    /// for the answers before them to go out.
    private var pending: ByteBuffer?
    /// Whether answers wait for the socket's buffer to drain (the connection is not read meanwhile),
    /// and whether a read was asked for then.
    private var waiting = false, readAsked = false
    private var date = HTTPDate()

    init(responder: ImageResponder, timeouts: RequestReadTimeouts, serverName: String) {
        self.responder = responder
        self.timeouts = timeouts
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard aligned else { return context.fireChannelRead(data) }
        var buffer = unwrapInboundIn(data)
        if var pending = self.pending.take() {
            pending.writeBuffer(&buffer)
            buffer = pending
        }
        pending = buffer
        if !waiting { handle(context) }
    }

    /// Keeps what of `buffer` is not handled yet (only that: the bytes read before are let go).
    private func keep(_ buffer: inout ByteBuffer) {
        pending = buffer.readSlice(length: buffer.readableBytes)
    }

    /// The pending requests in turn: answered here or passed on, until a head is not whole yet or
    /// the socket's buffer is full.
    private func handle(_ context: ChannelHandlerContext) {
        guard var buffer = pending else { return }
        pending = nil
        var answered = false
        defer { if answered { context.flush() } }
        while buffer.readableBytes > 0 {
            guard context.channel.isWritable else {
                waiting = true
                keep(&buffer)
                return
            }
            switch RequestHead.read(buffer.readableBytesView) {
            case .incomplete:
                keep(&buffer)
                return
            case .refused:
                aligned = false
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .head(let head):
                let bytes = buffer.readSlice(length: head.length)!
                if head.plain, timeouts.isIdle,
                   let answer = responder.heldAnswer(method: head.method, target: head.target, accept: head.accept, ifNoneMatch: head.ifNoneMatch) {
                    write(answer, bodyless: head.method == "HEAD", context)
                    timeouts.answeredBeforeDecoding()
                    answered = true
                } else {
                    // Only a plain GET or HEAD is surely decoded whole and answered in turn by the
                    // route; after anything else (CONNECT, an upgrade, a method the decoder
                    // refuses) the connection is the decoder's alone.
                    if !head.plain || (head.method != "GET" && head.method != "HEAD") { aligned = false }
                    context.fireChannelRead(wrapInboundOut(bytes))
                    if !aligned {
                        if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
                        return
                    }
                }
            }
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if waiting, context.channel.isWritable {
            waiting = false
            handle(context)
            if !waiting, readAsked {
                readAsked = false
                context.read()
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if waiting { readAsked = true } else { context.read() }
    }

    /// The answer's head (the fields the route's answer has, with Content-Length, Date and
    /// Server as Hummingbird adds them) and its body.
    private func write(_ answer: ImageService.Response, bodyless: Bool, _ context: ChannelHandlerContext) {
        var head = "HTTP/1.1 \(answer.status == 304 ? "304 Not Modified" : "200 OK")\r\n"
        ImageResponder.fields(of: answer) { name, value in head += "\(name): \(value)\r\n" }
        if answer.status != 304 { head += "Content-Length: \(answer.body.count)\r\n" }
        head += "Date: \(date.now)\r\nServer: \(serverName)\r\n\r\n"
        context.write(wrapOutboundOut(context.channel.allocator.buffer(string: head)), promise: nil)
        if !bodyless, answer.status != 304 { context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: answer.body)), promise: nil) }
    }
}

/// The Date field's value (RFC 9110's IMF-fixdate), made once a second.
struct HTTPDate {
    private var second = 0
    private var text = ""

    var now: String {
        mutating get {
            let t = time(nil)
            if t != second {
                var tm = tm()
                var copy = t
                gmtime_r(&copy, &tm)
                let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"], months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
                text = "\(days[Int(tm.tm_wday)]), \(two(tm.tm_mday)) \(months[Int(tm.tm_mon)]) \(tm.tm_year + 1900) \(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec)) GMT"
                second = t
            }
            return text
        }
    }
}
