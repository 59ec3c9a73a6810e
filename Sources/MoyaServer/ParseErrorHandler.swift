import NIOCore
import NIOHTTP1

/// Answers bytes that are not an HTTP/1.1 request (a request line or head past the parser's
/// limit, a malformed line) with the responder's refusal, where NIO's own handler sends a bare
/// 400; then the connection closes. As NIO's, it answers only when no response has started,
/// and sits where NIO's does, after the pipelining handler.
final class ParseErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let responder: AnyResponder
    private var responding = false

    init(responder: AnyResponder) {
        self.responder = responder
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if !responding,
            case .send(let status, let headers, let body) = responder.refusal(.unreadable(Self.problem(error)), nil)
                .action
        {
            var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
            fields.replaceOrAdd(name: "Content-Length", value: String(body.count))
            fields.replaceOrAdd(name: "Connection", value: "close")
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if !body.isEmpty {
                context.write(
                    wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        // The decoder closes the connection once this returns.
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200: responding = true
        case .end: responding = false
        default: break
        }
        context.write(data, promise: promise)
    }

    /// What was wrong.
    static func problem(_ error: HTTPParserError) -> ServerRefusal.Unreadable {
        switch error {
        case .headerOverflow: .headTooLarge(limit: 80 << 10)
        case .invalidURL: .invalidTarget
        case .invalidMethod: .invalidMethod
        case .invalidVersion: .invalidVersion
        default: .other("\(error)")
        }
    }
}
