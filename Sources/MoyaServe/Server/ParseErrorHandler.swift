import NIOCore
import NIOHTTP1

/// Answers bytes that are not an HTTP/1.1 request (a request line or head past the parser's
/// limit, a malformed line) with serve's 400 problem, where NIO's own handler sends a bare 400
/// with no body; then the connection closes. As NIO's, it answers only when no response has
/// started, and sits where NIO's does, after the pipelining handler.
final class ParseErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var responding = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        if !responding,
            case .respond(let status, let headers, let body) = MockRouter.unreadable(Self.phrase(error)).action
        {
            var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
            fields.add(name: "Content-Length", value: String(body.count))
            fields.add(name: "Connection", value: "close")
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: fields)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
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

    /// What was wrong, for the problem's detail.
    static func phrase(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow: "its request line and headers are over the 80 KiB serve reads"
        case .invalidURL: "its target is not a valid URL"
        case .invalidMethod: "its method is not valid"
        case .invalidVersion: "its HTTP version is not valid"
        default: "it is not valid HTTP/1.1 (\(error))"
        }
    }
}
