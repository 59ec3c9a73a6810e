import MoyaHTTP
import MoyaServer
import MoyaSpec
import NIOCore
import NIOSSL

/// `moya-cli mcp --http`: MCP's Streamable HTTP transport on the server core (`HTTPServer`:
/// keep-alive and pipelining, TLS when given a certificate), each request answered by
/// `StreamableEndpoint`. A request's work runs in a task of its own, cancelled when its client
/// goes away.
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
        public typealias TLSFailure = ServerTLS.Failure

        /// Serves HTTPS with the PEM certificate chain and private key in these files, each read
        /// without waiting (a FIFO is refused, never waited on) and only when a regular file.
        public mutating func serveTLS(certificateChain: String, key: String) throws(TLSFailure) {
            tls = try ServerTLS.context(certificateChain: certificateChain, key: key)
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

    private let server: HTTPServer
    /// The port bound, which port 0 leaves to the system.
    public var port: Int { server.port }
    let endpoint: StreamableEndpoint

    /// Binds `host`:`port` and starts answering with `server`.
    public init(server: any MCPHandler, host: String, port: Int, options: Options) async throws {
        let endpoint = StreamableEndpoint(server: server, options: options)
        self.endpoint = endpoint
        self.server = try await HTTPServer(
            responder: MCPResponder(endpoint: endpoint),
            configuration: ServerConfiguration(
                host: host, port: port, tls: options.tls, maximumBodyBytes: Self.maximumBodyBytes,
                bufferedBodyLimit: options.bufferedBodyLimit, connectionCap: options.connectionLimit,
                connectionsPerAddress: options.connectionsPerAddress,
                timeouts: .init(
                    firstHead: options.headTimeout, nextHead: options.idleTimeout, body: options.idleTimeout)
            ))
    }

    /// Stops listening and closes every connection.
    public func stop() async {
        _ = await server.stop(grace: 0)
    }
}

/// The endpoint as the server core asks it: each request admitted by its head (the path, the
/// `Origin`, the token), then answered once its body is in, in a task of its own that is
/// cancelled when its client goes away. A refused token closes the connection.
struct MCPResponder: HTTPResponder {
    let endpoint: StreamableEndpoint

    func admit(_ request: ServerRequest) -> ServerAdmission<Caller> {
        let exchange = Self.exchange(request)
        if let decided = endpoint.screen(exchange) { return Self.admission(decided) }
        return .later { [endpoint] in Self.admission(await endpoint.admit(exchange)) }
    }

    func respond(to request: ServerRequest, ticket: Caller) -> ServerReply {
        .later { [endpoint] in Self.response(await endpoint.answer(Self.exchange(request), as: ticket)) }
    }

    func refusal(_ refusal: ServerRefusal, to request: ServerRequest?) -> ServerResponse {
        switch refusal {
        case .tooLarge(let limit):
            Self.response(.refusal(413, .invalidRequest("message refused: over the \(limit >> 20) MiB limit")))
        case .busy:
            Self.response(
                .refusal(
                    503, .invalidRequest("Service Unavailable: too many request bodies at once; try again"),
                    headers: [("Retry-After", "1")]))
        case .unreadable:
            .send(400, closesConnection: true)
        }
    }

    static func exchange(_ request: ServerRequest) -> HTTPExchange {
        HTTPExchange(
            method: request.method, path: request.path, headers: request.headers, body: request.body,
            client: request.client)
    }

    static func admission(_ admission: StreamableEndpoint.Admission) -> ServerAdmission<Caller> {
        switch admission {
        case .answered(let answer): .answer(response(answer))
        case .admitted(let caller): .proceed(caller)
        }
    }

    /// An answer as sent; an unauthenticated client is closed.
    static func response(_ answer: HTTPAnswer) -> ServerResponse {
        .send(answer.status, headers: answer.headers, body: answer.body, closesConnection: answer.status == 401)
    }
}
