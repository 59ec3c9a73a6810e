import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The one HTTP/1.1 server of `serve` and `mcp --http`, on SwiftNIO: keep-alive and pipelining,
/// optional TLS, a connection cap with each address's share, body limits, timeouts, and a
/// graceful stop, asking an `HTTPResponder` for each answer.
public final class HTTPServer: Sendable {
    private let channel: any Channel
    private let quiescing: ServerQuiescingHelper
    private let table: ConnectionTable
    /// The port bound, which port 0 leaves to the system.
    public let port: Int

    /// Binds the configuration's host and port and starts answering with `responder`.
    public init<Responder: HTTPResponder>(responder: Responder, configuration: ServerConfiguration) async throws {
        let table = ConnectionTable(cap: configuration.connectionCap, perAddress: configuration.connectionsPerAddress)
        self.table = table
        let shared = ServerShared(
            configuration: configuration, table: table,
            buffered: configuration.bufferedBodyLimit.map(BufferedBytes.init))
        // One event loop per core. One loop alone answered about 40% fewer requests under wrk
        // on two cores, with a worse p99 (bench/RESULTS.md).
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        self.quiescing = quiescing
        let tls = configuration.tls
        let responder = AnyResponder(responder)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let tls { try sync.addHandler(NIOSSLServerHandler(context: tls)) }
                    // The responder's answer to bytes that are no request, in place of NIO's bare 400.
                    try sync.configureHTTPServerPipeline(
                        withServerUpgrade: (
                            upgraders: [SocketHandler.upgrader(responder, shared)], completionHandler: { _ in }
                        ),
                        withErrorHandling: false)
                    try sync.addHandler(ParseErrorHandler(responder: responder), name: SocketHandler.parseErrors)
                    try sync.addHandler(
                        ConnectionHandler(responder: responder, shared: shared), name: SocketHandler.connection)
                }
            }
        channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
        port = channel.localAddress?.port ?? configuration.port
    }

    /// The cap under the descriptor limit, which it raises to the hard limit first.
    public static func connectionCapUnderDescriptorLimit() -> Int {
        ConnectionTable.raisingDescriptorLimit()
    }

    /// Stops accepting, lets each connection finish the request it is answering, and returns
    /// when all are closed or after `grace` seconds, whichever is first; then closes whatever
    /// is still open. Returns whether all finished.
    public func stop(grace: Double) async -> Bool {
        let promise = channel.eventLoop.makePromise(of: Void.self)
        quiescing.initiateShutdown(promise: promise)
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                (try? await promise.futureResult.get()) != nil
            }
            group.addTask {
                try? await _Concurrency.Task.sleep(for: .seconds(grace))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { table.closeAll() }
            return first
        }
    }
}
