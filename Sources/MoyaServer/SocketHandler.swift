import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// A connection that became a WebSocket (RFC 6455) on SwiftNIO's upgrader: it echoes each
/// message, or sends the responder's messages, each after its delay, and then closes; pings
/// are answered, a close is answered and ends it, and it closes after the idle time without a
/// message either way.
final class SocketHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The names the HTTP handlers go by, so that an upgrade takes them out.
    static let parseErrors = "moya.parse-errors"
    static let connection = "moya.connection"
    /// The most bytes of one message.
    static let messageLimit = 1 << 20

    private let socket: ServerSocket
    private let shared: ServerShared
    private var timer: Scheduled<Void>?
    private var closing = false

    init(_ socket: ServerSocket, shared: ServerShared) {
        self.socket = socket
        self.shared = shared
    }

    /// The upgrader of a connection: a request that asks for a WebSocket opens one when the
    /// responder gives one for it. The responder is asked once, as the upgrade is decided; the
    /// socket it gives waits, on the connection's own upgrader, for the pipeline to take it.
    static func upgrader(_ responder: AnyResponder, _ shared: ServerShared) -> NIOWebSocketServerUpgrader {
        let decided = Mutex<ServerSocket?>(nil)
        return NIOWebSocketServerUpgrader(maxFrameSize: messageLimit, automaticErrorHandling: true) { channel, head in
            let socket = responder.socket(request(head, channel))
            decided.withLock { $0 = socket }
            return channel.eventLoop.makeSucceededFuture(socket == nil ? nil : HTTPHeaders())
        } upgradePipelineHandler: { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                guard let socket = decided.withLock({ $0.take() }) else {
                    throw NIOWebSocketUpgradeError.unsupportedWebSocketTarget
                }
                let sync = channel.pipeline.syncOperations
                for name in [parseErrors, connection] {
                    sync.removeHandler(context: try sync.context(name: name), promise: nil)
                }
                try sync.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 10,
                        maxAccumulatedFrameSize: messageLimit))
                try sync.addHandler(SocketHandler(socket, shared: shared))
            }
        }
    }

    private static func request(_ head: HTTPRequestHead, _ channel: any Channel) -> ServerRequest {
        ServerRequest(
            method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) },
            remoteAddress: channel.remoteAddress)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        socket.performed?()
        idle(context)
        guard case .messages(let messages) = socket.replies else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        var after = TimeAmount.zero
        for (delay, text) in messages {
            after =
                after
                + .nanoseconds(
                    Int64(
                        clamping: delay.components.seconds * 1_000_000_000 + delay.components.attoseconds
                            / 1_000_000_000))
            context.eventLoop.scheduleTask(in: after) {
                let (handler, context) = bound.value
                handler.send(.text, context.channel.allocator.buffer(string: text), context)
            }
        }
        context.eventLoop.scheduleTask(in: after) {
            let (handler, context) = bound.value
            handler.close(1000, context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        shared.table.closed(context.channel)
        timer?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        idle(context)
        switch frame.opcode {
        case .text, .binary:
            if case .echo = socket.replies { send(frame.opcode, frame.unmaskedData, context) }
        case .ping:
            send(.pong, frame.unmaskedData, context)
        case .connectionClose:
            var data = frame.unmaskedData
            close(data.readInteger(as: UInt16.self) ?? 1000, context)
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Closes the connection after the idle time, unless a message comes first.
    private func idle(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: shared.configuration.timeouts.nextHead) {
            bound.value.close(promise: nil)
        }
    }

    private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, _ context: ChannelHandlerContext) {
        guard !closing else { return }
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
    }

    /// Sends a close with `code`, once, and closes the connection after it.
    private func close(_ code: UInt16, _ context: ChannelHandlerContext) {
        guard !closing else { return }
        closing = true
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.writeInteger(code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in context.close(promise: nil) }
    }
}
