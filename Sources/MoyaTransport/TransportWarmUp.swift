import AsyncHTTPClient
import MoyaHTTP
import NIOCore
import NIOPosix

/// Pays the transport's first-time costs on a thread of its own, while the caller does
/// something else on its own thread, such as parsing a command line and compiling a spec.
///
/// The first request a process sends through AsyncHTTPClient spends most of its time in the
/// Swift runtime, instantiating the generic types of the connection pool, the channel
/// handlers and the HTTP codec, and looking up their protocol conformances; the request
/// itself is a small part. Those costs are paid once per process, whichever request pays
/// them. The warm-up pays them with one exchange over loopback: it answers a GET itself,
/// from a listener on 127.0.0.1 with a port the kernel picks, through a client configured as
/// `Session` configures its own. Nothing leaves the machine, and a failure is ignored: the
/// real request then pays as it always has.
public final class TransportWarmUp: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let exchange: _Concurrency.Task<Void, Never>

    /// Starts the warm-up on a new thread and returns at once.
    public init() {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        exchange = _Concurrency.Task(executorPreference: EventLoopExecutor(loop: group.next())) {
            await Self.exchange(on: group)
        }
    }

    /// Waits for the warm-up to end and stops its thread.
    nonisolated(nonsending) public func finish() async {
        await exchange.value
        try? await group.shutdownGracefully()
    }

    private static func exchange(on group: MultiThreadedEventLoopGroup) async {
        let listener = try? await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Answer()) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let listener, let port = listener.localAddress?.port,
            let settings = try? Session.Configuration().clientSettings(proxyURL: nil)
        else { return }
        let client = HTTPClient(eventLoopGroup: group, configuration: settings)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/")
        request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        if let response = try? await client.execute(request, deadline: .now() + .seconds(1)) {
            do {
                for try await _ in response.body {}
            } catch {}
        }
        try? await client.shutdown()
        try? await listener.close()
    }

    /// Answers the one request with a small JSON body and closes the connection.
    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head)), promise: nil)
            context.close(promise: nil)
        }
    }
}
