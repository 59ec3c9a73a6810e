import NIOCore
import NIOSSL

/// How an `HTTPServer` listens and what it bounds: the one place `serve` and `mcp --http` set
/// their connection cap, body limits, timeouts and TLS.
public struct ServerConfiguration: Sendable {
    /// How long a connection may take at each stage before it is closed.
    public struct Timeouts: Sendable {
        /// A new connection, to send its first request's whole head.
        public var firstHead: TimeAmount
        /// A connection that has been answered, to send its next request's whole head; also
        /// how long a request whose answer never comes keeps its connection.
        public var nextHead: TimeAmount
        /// A request whose head is in, to send its body whole.
        public var body: TimeAmount

        public init(firstHead: TimeAmount, nextHead: TimeAmount, body: TimeAmount) {
            self.firstHead = firstHead
            self.nextHead = nextHead
            self.body = body
        }
    }

    public var host: String
    public var port: Int
    /// HTTPS with this context, else plain HTTP.
    public var tls: NIOSSLContext?
    /// The largest request body read; a larger one is read to its end, dropped, and refused
    /// with `ServerRefusal.tooLarge`.
    public var maximumBodyBytes: Int
    /// The most bytes of request bodies all connections hold together; a body that would pass
    /// it is refused with `ServerRefusal.busy`. Nil for no bound beyond each body's.
    public var bufferedBodyLimit: Int?
    /// The most connections open at once. Over it, the connection idle the longest is closed
    /// to make room, or the new one when every other is answering.
    public var connectionCap: Int
    /// The most connections one client address holds (an IPv6 /64 counts as one); past it
    /// that address's new connections are closed. Nil for no share below the cap.
    public var connectionsPerAddress: Int?
    public var timeouts: Timeouts

    public init(
        host: String, port: Int, tls: NIOSSLContext? = nil, maximumBodyBytes: Int, bufferedBodyLimit: Int? = nil,
        connectionCap: Int, connectionsPerAddress: Int? = nil, timeouts: Timeouts
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.maximumBodyBytes = maximumBodyBytes
        self.bufferedBodyLimit = bufferedBodyLimit
        self.connectionCap = connectionCap
        self.connectionsPerAddress = connectionsPerAddress
        self.timeouts = timeouts
    }
}
