import HummingbirdCore
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 connection with `HeldResults` in front of NIO's HTTP decoder (and
/// `WholeResponses` in front of both, so that a close waits for either's writes), and after the
/// decoder the client watch and the read timeouts, which `HeldResults` also tells of the
/// requests it answers.
struct HTTP1WithHeldResults: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let route: HTTPChannelHandler.Responder
    let responder: ImageResponder
    let readRequest: TimeAmount
    let keepAlive: TimeAmount
    let serverName: String

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeouts = RequestReadTimeouts(readRequest: readRequest, keepAlive: keepAlive)
        let held = HeldResults(responder: responder, timeouts: timeouts, serverName: serverName)
        // Handed to the channel's setup, which runs on its loop.
        let bound = NIOLoopBound(timeouts, eventLoop: channel.eventLoop)
        let http = HTTP1Channel(responder: route, configuration: .init(additionalChannelHandlers: [responder.clients.handler(), bound.value]))
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandlers([WholeResponses(), held], position: .first)
        }.flatMap { http.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: route).handle(value: value, logger: logger)
    }
}
