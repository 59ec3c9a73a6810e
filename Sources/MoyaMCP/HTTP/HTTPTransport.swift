import MoyaHTTP
import MoyaSpec
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
        /// The most sessions one caller with a token keeps (its issuer and subject).
        public var sessionsPerCaller = 64
        /// The most connections open at once; more are closed as they come.
        public var connectionLimit = 4096
        /// The most of them one client address holds (an IPv6 /64 counts as one): a quarter.
        public var connectionsPerAddress = 1024
        /// The most bytes of request bodies all connections buffer together; a body that
        /// would pass it gets 503.
        public var bufferedBodyLimit = 64 << 20
        /// How long a connection that has not been answered yet may take to send a whole
        /// request head.
        public var headTimeout: TimeAmount = .seconds(5)
        /// How long a connection may sit between requests once it has been answered, or take
        /// to send a request's body.
        public var idleTimeout: TimeAmount = .seconds(60)

        public init() {}

        /// Why TLS cannot be served.
        public struct TLSFailure: Error, Sendable, CustomStringConvertible {
            public var description: String
            /// Whether a file could not be read at all, as opposed to read and refused.
            public var isUnreadable = false
        }

        /// Serves HTTPS with the PEM certificate chain and private key in these files, each read
        /// without waiting (a FIFO is refused, never waited on) and only when a regular file.
        public mutating func serveTLS(certificateChain: String, key: String) throws(TLSFailure) {
            let failure = { (reason: String, unreadable: Bool) in
                TLSFailure(
                    description: "cannot serve TLS with --tls-cert \(certificateChain) and --tls-key \(key): \(reason)",
                    isUnreadable: unreadable)
            }
            let chainBytes: [UInt8]
            let keyBytes: [UInt8]
            do {
                chainBytes = try FileSystem.contents(certificateChain, limit: 1 << 20)
            } catch {
                throw failure("--tls-cert: \(error.message)", true)
            }
            do {
                keyBytes = try FileSystem.contents(key, limit: 1 << 20)
            } catch {
                throw failure("--tls-key: \(error.message)", true)
            }
            do {
                let chain = try NIOSSLCertificate.fromPEMBytes(chainBytes).map(NIOSSLCertificateSource.certificate)
                let privateKey = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
                tls = try NIOSSLContext(
                    configuration: .makeServerConfiguration(
                        certificateChain: chain, privateKey: .privateKey(privateKey)))
            } catch {
                throw failure("\(error)", false)
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
        let open = OpenConnections(limit: options.connectionLimit, perAddress: options.connectionsPerAddress)
        let buffered = BufferedBytes(limit: options.bufferedBodyLimit)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let tls = options.tls { try sync.addHandler(NIOSSLServerHandler(context: tls)) }
                    try sync.configureHTTPServerPipeline(withErrorHandling: true)
                    try sync.addHandler(
                        MCPRequestHandler(endpoint: endpoint, options: options, open: open, buffered: buffered))
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

/// One connection: each request admitted by its head, then read whole and answered by the
/// endpoint, in order. A request whose head does not pass (no valid token, a wrong path or
/// `Origin`) is answered without its body being read, and, unless it ended already, its
/// connection is closed: a stranger's body is never buffered.
final class MCPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        /// Waiting for a request's head.
        case waiting
        /// Its head is being admitted; its body is held meanwhile (at most one read's worth:
        /// reading stops until the head is admitted).
        case admitting
        case admitted(Caller)
        /// Answered by its head, with no body to wait for: the answer goes at its end.
        case answering(HTTPAnswer)
        /// Answered by its head: what is left of it is dropped.
        case answered
    }

    private let endpoint: StreamableEndpoint
    private let options: HTTPTransport.Options
    private let open: OpenConnections
    private let buffered: BufferedBytes
    private var state = State.waiting
    private var head: HTTPRequestHead?
    /// The request being read as the endpoint reads it, made from its head once; its body is
    /// added at its end.
    private var exchange: HTTPExchange?
    private var ended = false
    private var body: [UInt8] = []
    /// The bytes of `body` counted in `buffered`.
    private var held = 0
    private var tooLarge = false
    /// Which request of the connection is being read, so an admission that finishes late
    /// finds out it is for one no longer there.
    private var generation = 0
    /// The request being answered, cancelled if the client goes away.
    private var work: _Concurrency.Task<Void, Never>?
    private var timer: Scheduled<Void>?
    private var address: OpenConnections.Address?
    private var servedOne = false
    /// Whether the connection closes when the request being dropped ends.
    private var closesAtEnd = false

    init(endpoint: StreamableEndpoint, options: HTTPTransport.Options, open: OpenConnections, buffered: BufferedBytes) {
        self.endpoint = endpoint
        self.options = options
        self.open = open
        self.buffered = buffered
    }

    func channelActive(context: ChannelHandlerContext) {
        let address = OpenConnections.Address(context.channel.remoteAddress)
        guard open.opened(address) else {
            context.close(promise: nil)
            return
        }
        self.address = address
        // A new connection has a few seconds to send a whole request head.
        closeAfter(options.headTimeout, context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let address { open.closed(address) }
        address = nil
        timer?.cancel()
        work?.cancel()
        release()
        context.fireChannelInactive()
    }

    private func closeAfter(_ time: TimeAmount, _ context: ChannelHandlerContext) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: time) { bound.value.close(promise: nil) }
    }

    private func release() {
        if held > 0 { buffered.give(held) }
        held = 0
        body = []
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            release()
            tooLarge = false
            ended = false
            generation += 1
            // The body has as long as an idle connection: a slow one is closed too.
            closeAfter(options.idleTimeout, context)
            let exchange = HTTPExchange(
                method: head.method.rawValue, path: Self.path(of: head),
                headers: head.headers.map { ($0.name, $0.value) },
                body: [], client: Self.describe(context.channel.remoteAddress))
            self.exchange = exchange
            if let decided = endpoint.screen(exchange) {
                admitted(decided, context)
                return
            }
            state = .admitting
            try? context.channel.syncOptions?.setOption(.autoRead, value: false)
            let endpoint = self.endpoint
            let generation = self.generation
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let loop = context.eventLoop
            _Concurrency.Task {
                let admission = await endpoint.admit(exchange)
                loop.execute {
                    let (handler, context) = bound.value
                    guard handler.generation == generation, case .admitting = handler.state else { return }
                    handler.admitted(admission, context)
                }
            }
        case .body(let chunk):
            switch state {
            case .admitting, .admitted: break
            case .waiting, .answering, .answered: return
            }
            guard !tooLarge else { return }
            if body.count + chunk.readableBytes > HTTPTransport.maximumBodyBytes {
                tooLarge = true
                release()
            } else if buffered.take(chunk.readableBytes) {
                held += chunk.readableBytes
                body += chunk.readableBytesView
            } else {
                // Every connection's bodies together are over their bound: this one is told
                // to come back, the rest of its body dropped unread, and closed at its end.
                state = .answered
                release()
                if let head {
                    write(
                        .refusal(
                            503, .invalidRequest("Service Unavailable: too many request bodies at once; try again"),
                            headers: [("Retry-After", "1")]), for: head, closing: true, context: context,
                        closesAtEnd: true)
                }
            }
        case .end:
            ended = true
            switch state {
            case .answered:
                state = .waiting
                if closesAtEnd { context.close(promise: nil) }
            case .answering(let answer):
                state = .waiting
                if let head { write(answer, for: head, closing: answer.status == 401, context: context) }
            default: respondIfReady(context)
            }
        }
    }

    /// What the head decided: an answer now, or the body to read.
    private func admitted(_ admission: StreamableEndpoint.Admission, _ context: ChannelHandlerContext) {
        switch admission {
        case .answered(let answer):
            release()
            guard let head else { return }
            if !ended, answer.status != 401, !Self.hasBody(head) {
                state = .answering(answer)
                return
            }
            state = ended ? .waiting : .answered
            // An unauthenticated client, or one whose body was not read, is closed.
            write(answer, for: head, closing: !ended || answer.status == 401, context: context)
        case .admitted(let caller):
            state = .admitted(caller)
            try? context.channel.syncOptions?.setOption(.autoRead, value: true)
            respondIfReady(context)
        }
    }

    private func respondIfReady(_ context: ChannelHandlerContext) {
        guard ended, case .admitted(let caller) = state, let head, var exchange else { return }
        state = .waiting
        self.head = nil
        self.exchange = nil
        // Answering takes what the tool takes; the client waits, and may go away.
        timer?.cancel()
        servedOne = true
        if tooLarge {
            let limit = HTTPTransport.maximumBodyBytes >> 20
            write(
                .refusal(413, .invalidRequest("message refused: over the \(limit) MiB limit")), for: head,
                closing: true, context: context)
            return
        }
        exchange.body = body
        body = []
        let endpoint = self.endpoint
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        work = _Concurrency.Task {
            let answer = await endpoint.answer(exchange, as: caller)
            loop.execute {
                let (handler, context) = bound.value
                handler.work = nil
                handler.release()
                handler.write(answer, for: head, closing: false, context: context)
            }
        }
    }

    /// Writes `answer` to `request`; with `closing`, says so and closes the connection once it
    /// is sent, or, with `closesAtEnd`, once the request's body has come in (and been dropped).
    private func write(
        _ answer: HTTPAnswer, for request: HTTPRequestHead, closing: Bool, context: ChannelHandlerContext,
        closesAtEnd: Bool = false
    ) {
        var headers = HTTPHeaders(answer.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(answer.body.count))
        let keepAlive = request.isKeepAlive && !closing
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD, !answer.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: answer.body)))), promise: nil)
        }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        self.closesAtEnd = closesAtEnd
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive, !closesAtEnd { bound.value.close(promise: nil) }
        }
        // Between requests, a connection that has been served may idle; one that has not has
        // only the head's time.
        if keepAlive { closeAfter(servedOne ? options.idleTimeout : options.headTimeout, context) }
    }

    /// Whether a request's head announces a body.
    static func hasBody(_ head: HTTPRequestHead) -> Bool {
        head.headers.contains(name: "transfer-encoding")
            || head.headers["content-length"].contains { $0.trimmingSpaces() != "0" }
    }

    /// The path of a request, without its query.
    static func path(of head: HTTPRequestHead) -> String {
        String(head.uri.prefix { $0 != "?" && $0 != "#" })
    }

    /// `host:port` of an address, IPv6 hosts in brackets.
    static func describe(_ address: SocketAddress?) -> String? {
        guard let address, let host = address.ipAddress else { return nil }
        let port = address.port.map { ":\($0)" } ?? ""
        return (host.contains(":") ? "[\(host)]" : host) + port
    }
}

/// The connections open, under a cap, and each client address's share of it: a connection
/// over either is refused by closing it, so that one client filling its share locks out only
/// itself.
final class OpenConnections: Sendable {
    /// A client, as its share is counted: an IPv4 address, or an IPv6 address's /64 (what
    /// one host is usually given).
    struct Address: Hashable, Sendable {
        let bytes: [UInt8]

        init(_ address: SocketAddress?) {
            switch address {
            case .v4(let v4)?: bytes = withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
            case .v6(let v6)?: bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0.prefix(8)) }
            default: bytes = []
            }
        }
    }

    private let counts = Mutex<(total: Int, byAddress: [Address: Int])>((0, [:]))
    let limit: Int
    let perAddress: Int

    init(limit: Int, perAddress: Int) {
        self.limit = limit
        self.perAddress = perAddress
    }

    /// Counts a new connection from `address`; false, counting nothing, when it is over the
    /// cap or the address's share.
    func opened(_ address: Address) -> Bool {
        counts.withLock { counts in
            let own = counts.byAddress[address, default: 0]
            guard counts.total < limit, own < perAddress else { return false }
            counts.total += 1
            counts.byAddress[address] = own + 1
            return true
        }
    }

    func closed(_ address: Address) {
        counts.withLock { counts in
            counts.total -= 1
            let own = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = own > 0 ? own : nil
        }
    }
}

/// The bytes of request bodies buffered by every connection together, under a bound.
final class BufferedBytes: Sendable {
    private let count = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Counts `bytes` more; false, counting nothing, when that would pass the bound.
    func take(_ bytes: Int) -> Bool {
        let now = count.wrappingAdd(bytes, ordering: .relaxed).newValue
        guard now <= limit else {
            count.wrappingSubtract(bytes, ordering: .relaxed)
            return false
        }
        return true
    }

    func give(_ bytes: Int) {
        count.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
