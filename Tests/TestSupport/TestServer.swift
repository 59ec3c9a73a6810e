import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

/// A real HTTP server on 127.0.0.1, in the test process, for end-to-end calls.
///
/// - `/status/N` answers with status N.
/// - `/slow/MS` answers after MS milliseconds.
/// - `/redirect/N` redirects N times, then lands on `/echo`; `/loop` redirects to itself.
/// - `/drop` closes the connection without answering.
/// - `/bytes/N` answers with N bytes.
/// - anything else echoes the request as JSON: method, uri, headers and body.
public final class TestServer: Sendable {
    let channel: any Channel
    public let port: Int

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server on port `requested`; 0 picks a free one. With `compressing`, responses
    /// are gzip- or deflate-compressed for clients that accept it.
    public init(port requested: Int = 0, compressing: Bool = false) throws {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    if compressing {
                        try channel.pipeline.syncOperations.addHandler(HTTPResponseCompressor())
                    }
                    try channel.pipeline.syncOperations.addHandler(TestServerHandler())
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: requested).wait()
        port = channel.localAddress?.port ?? 0
    }

    public func stop() {
        try? channel.close().wait()
    }

    /// Serves until the process ends.
    public func wait() throws {
        try channel.closeFuture.wait()
    }
}

private final class TestServerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    var head: HTTPRequestHead?
    var body = Data()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = Data()
        case .body(var buffer):
            body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .end:
            guard let head else { return }
            route(head, context: context)
        }
    }

    func route(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        let parts = path.split(separator: "/").map(String.init)
        switch (parts.first, parts.count) {
        case ("status", 2):
            let code = Int(parts[1]) ?? 500
            respond(context, status: HTTPResponseStatus(statusCode: code), body: Data("status \(code)".utf8))
        case ("slow", 2):
            let delay = Int64(parts[1]) ?? 1000
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(delay)) {
                self.respond(context, status: .ok, body: Data("slow".utf8))
            }
        case ("redirect", 2):
            let count = Int(parts[1]) ?? 0
            let location = count <= 1 ? "/echo/redirected" : "/redirect/\(count - 1)"
            respond(context, status: .found, body: Data(), headers: [("Location", location)])
        case ("loop", 1):
            respond(context, status: .found, body: Data(), headers: [("Location", "/loop")])
        case ("drop", 1):
            context.close(promise: nil)
        case ("bytes", 2):
            let count = Int(parts[1]) ?? 0
            respond(context, status: .ok, body: Data((0..<count).map { UInt8($0 % 251) }))
        default:
            var headers: [[String]] = []
            for (name, value) in head.headers { headers.append([name, value]) }
            var object: [String: Any] = [
                "method": head.method.rawValue, "uri": head.uri, "headers": headers,
            ]
            if let text = String(data: body, encoding: .utf8) {
                object["body"] = text
            } else {
                object["bodyBase64"] = body.base64EncodedString()
            }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            respond(context, status: .ok, body: data, headers: [("Content-Type", "application/json")])
        }
    }

    func respond(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, body: Data, headers: [(String, String)] = []
    ) {
        var head = HTTPResponseHead(version: .http1_1, status: status)
        head.headers.add(name: "Content-Length", value: String(body.count))
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
