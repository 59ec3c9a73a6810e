import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Answers every request with `Hello`, keep-alive and pipelining included.
final class Hello: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "5")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "Hello")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 0 : 0
let group = MultiThreadedEventLoopGroup.singleton
let quiescing = ServerQuiescingHelper(group: group)
let tls: NIOSSLContext? =
    arguments.contains("--tls") ? try NIOSSLContext(configuration: .makeClientConfiguration()) : nil
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
        }
    }
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.pipeline.syncOperations.addHandler(Hello())
        }
    }
if arguments.contains("--exit") { exit(0) }
let channel = try await bootstrap.bind(host: "127.0.0.1", port: port).get()
try await channel.closeFuture.get()
