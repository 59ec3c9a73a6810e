import MoyaHTTP
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// `moya-cli mcp --http`: MCP's Streamable HTTP transport on SwiftNIO's HTTP/1.1 server
/// (keep-alive and pipelining included, over TLS when given a certificate), each request
/// answered by `StreamableEndpoint`. A request's work runs in a task of its own, cancelled
/// when its client goes away.
public final class HTTPTransport: Sendable {
    /// How the server listens and whom it answers.
    public struct Options: Sendable {
        /// `--allow-origin`: the web origins whose pages may call, as `scheme://host[:port]`;
        /// none by default. A request without `Origin` (not from a browser) is not affected.
        public var allowedOrigins: [String] = []
        /// Bearer tokens required and checked, when `--auth-issuer` is given.
        public var tokens: BearerTokens?
        /// `--write-scope`, `--delete-scope`.
        public var scopes = ScopePolicy()
        /// TLS, when `--tls-cert` and `--tls-key` are given.
        public var tls: NIOSSLContext?
        /// The most sessions of the handshake's revisions kept at once.
        public var sessionLimit = 10_000
        /// The most connections open at once; more are closed as they come.
        public var connectionLimit = 4096
        /// How long a connection may sit without sending a request, or take to send one.
        public var idleTimeout: TimeAmount = .seconds(60)

        public init() {}

        /// Why TLS cannot be served.
        public struct TLSFailure: Error, Sendable, CustomStringConvertible {
            public var description: String
        }

        /// Serves HTTPS with the PEM certificate chain and private key in these files.
        public mutating func serveTLS(certificateChain: String, key: String) throws(TLSFailure) {
            do {
                let chain = try NIOSSLCertificate.fromPEMFile(certificateChain).map(NIOSSLCertificateSource.certificate)
                let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
                tls = try NIOSSLContext(
                    configuration: .makeServerConfiguration(
                        certificateChain: chain, privateKey: .privateKey(privateKey)))
            } catch {
                throw TLSFailure(
                    description: "cannot serve TLS with --tls-cert \(certificateChain) and --tls-key \(key): \(error)")
            }
        }

        /// Whether a page of `origin` may call: it is one of `--allow-origin`, any case, a
        /// trailing `/` aside.
        func allows(origin: String) -> Bool {
            let normal = { (text: String) in
                (text.hasSuffix("/") ? String(text.dropLast()) : text).lowercased()
            }
            let asked = normal(origin)
            return allowedOrigins.contains { normal($0) == asked }
        }
    }

    /// The largest request body read: a larger one gets 413.
    static let maximumBodyBytes = LineTransport.frameLimit

    private let channel: any Channel
    /// The port bound, which port 0 leaves to the system.
    public let port: Int
    let endpoint: StreamableEndpoint

    /// Binds `host`:`port` and starts answering with `server`.
    public init(server: ToolServer, host: String, port: Int, options: Options) async throws {
        let endpoint = StreamableEndpoint(server: server, options: options)
        self.endpoint = endpoint
        let open = OpenConnections(limit: options.connectionLimit)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let tls = options.tls { try sync.addHandler(NIOSSLServerHandler(context: tls)) }
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(MCPRequestHandler(endpoint: endpoint, options: options, open: open))
                }
            }
        channel = try await bootstrap.bind(host: host, port: port).get()
        self.port = channel.localAddress?.port ?? port
    }

    /// Stops listening; connections still open are closed.
    public func stop() async {
        try? await channel.close()
    }
}

/// One connection: each request read whole, answered by the endpoint, in order.
final class MCPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let endpoint: StreamableEndpoint
    private let options: HTTPTransport.Options
    private let open: OpenConnections
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false
    /// The request being answered, cancelled if the client goes away.
    private var work: _Concurrency.Task<Void, Never>?
    private var idle: Scheduled<Void>?
    private var counted = false

    init(endpoint: StreamableEndpoint, options: HTTPTransport.Options, open: OpenConnections) {
        self.endpoint = endpoint
        self.options = options
        self.open = open
    }

    func channelActive(context: ChannelHandlerContext) {
        counted = true
        guard open.opened() else {
            context.close(promise: nil)
            return
        }
        waitIdle(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if counted { open.closed() }
        counted = false
        idle?.cancel()
        work?.cancel()
        context.fireChannelInactive()
    }

    private func waitIdle(_ context: ChannelHandlerContext) {
        idle?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        idle = context.eventLoop.scheduleTask(in: options.idleTimeout) { bound.value.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            tooLarge = false
            // The body has as long as an idle connection: a slow one is closed too.
            waitIdle(context)
        case .body(let chunk):
            guard !tooLarge else { return }
            if body.count + chunk.readableBytes > HTTPTransport.maximumBodyBytes {
                tooLarge = true
                body = []
            } else {
                body += chunk.readableBytesView
            }
        case .end:
            guard let head else { return }
            self.head = nil
            // Answering takes what the tool takes; the client waits, and may go away.
            idle?.cancel()
            if tooLarge {
                let limit = HTTPTransport.maximumBodyBytes >> 20
                write(
                    .refusal(413, .invalidRequest("message refused: over the \(limit) MiB limit")), for: head,
                    context: context)
                return
            }
            let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
            let exchange = HTTPExchange(
                method: head.method.rawValue, path: path, headers: head.headers.map { ($0.name, $0.value) },
                body: body, client: Self.describe(context.channel.remoteAddress))
            body = []
            let endpoint = self.endpoint
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let loop = context.eventLoop
            work = _Concurrency.Task {
                let answer = await endpoint.answer(exchange)
                loop.execute {
                    let (handler, context) = bound.value
                    handler.work = nil
                    handler.write(answer, for: head, context: context)
                }
            }
        }
    }

    private func write(_ answer: HTTPAnswer, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(answer.body.count))
        let keepAlive = request.isKeepAlive && answer.status != 413
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD, !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
        }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { bound.value.close(promise: nil) }
        }
        if keepAlive { waitIdle(context) }
    }

    /// `host:port` of an address, IPv6 hosts in brackets.
    static func describe(_ address: SocketAddress?) -> String? {
        guard let address, let host = address.ipAddress else { return nil }
        let port = address.port.map { ":\($0)" } ?? ""
        return (host.contains(":") ? "[\(host)]" : host) + port
    }
}

/// The connections open, under a cap: one more is refused by closing it.
final class OpenConnections: Sendable {
    private let count = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Counts a new connection; false when it is over the cap.
    func opened() -> Bool {
        count.wrappingAdd(1, ordering: .relaxed).newValue <= limit
    }

    func closed() {
        count.wrappingSubtract(1, ordering: .relaxed)
    }
}
