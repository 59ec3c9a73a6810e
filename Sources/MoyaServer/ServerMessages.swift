import NIOCore

/// A request as a responder reads it. At admission its body is not read yet (empty).
public struct ServerRequest: Sendable {
    public var method: String
    /// The request target as sent: the path with its query.
    public var uri: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The client's socket address.
    public var remoteAddress: SocketAddress?
    /// When its head came in.
    public var received: ContinuousClock.Instant

    /// The client's address, `host:port`, an IPv6 host in brackets: worked out when asked,
    /// since most responders never ask.
    public var client: String? {
        guard let remoteAddress, let host = remoteAddress.ipAddress else { return nil }
        let port = remoteAddress.port.map { ":\($0)" } ?? ""
        return (host.contains(":") ? "[\(host)]" : host) + port
    }

    /// The path, without the query or a fragment.
    public var path: String { String(uri.prefix { $0 != "?" && $0 != "#" }) }

    public init(
        method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8] = [],
        remoteAddress: SocketAddress? = nil, received: ContinuousClock.Instant = .now
    ) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.received = received
    }
}

/// What the server does with a request.
public struct ServerResponse: Sendable {
    public enum Action: Sendable {
        /// Sends a response. `Content-Length` is set by the server; a status that carries no
        /// content (1xx, 204, 304) is sent without the body, and a HEAD's answer says the
        /// length of the body it does not send.
        case send(status: Int, headers: [(name: String, value: String)], body: [UInt8])
        /// Sends a response whose body goes in parts, each after its delay and flushed as it
        /// goes, chunked: a stream. The connection closes after the last part.
        case stream(status: Int, headers: [(name: String, value: String)], parts: [(delay: Duration, bytes: [UInt8])])
        /// Closes the connection without answering.
        case close
        /// Never answers; the connection is closed after the next head's timeout, as an idle
        /// one is, and may be closed sooner to make room under the cap.
        case hang
    }

    public var action: Action
    /// How long to wait before acting; meanwhile the connection counts as idle.
    public var delay: Duration?
    /// Whether the connection closes once the response is sent.
    public var closesConnection: Bool
    /// Called as the action is taken (after any delay): for a log line.
    public var performed: (@Sendable () -> Void)?

    public init(
        _ action: Action, delay: Duration? = nil, closesConnection: Bool = false,
        performed: (@Sendable () -> Void)? = nil
    ) {
        self.action = action
        self.delay = delay
        self.closesConnection = closesConnection
        self.performed = performed
    }

    /// A response with these parts.
    public static func send(
        _ status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
        closesConnection: Bool = false
    ) -> ServerResponse {
        ServerResponse(.send(status: status, headers: headers, body: body), closesConnection: closesConnection)
    }
}

/// What a responder decides from a request's head, before its body is read.
public enum ServerAdmission<Ticket: Sendable>: Sendable {
    /// The body is read, then the request answered with this ticket.
    case proceed(Ticket)
    /// Answered from its head. A body the head announces is not read: the connection is
    /// closed once the answer is sent.
    case answer(ServerResponse)
    /// Decided by work that waits (a key set fetched, say); the connection reads nothing
    /// meanwhile.
    case later(@Sendable () async -> ServerAdmission<Ticket>)
}

/// A responder's answer to a whole request.
public enum ServerReply: Sendable {
    /// Decided already: work cheap enough for the event loop.
    case now(ServerResponse)
    /// Decided by work done off the event loop, cancelled if the client goes away.
    case later(@Sendable () async -> ServerResponse)
}

/// A request the server refuses itself; the responder says in what words.
public enum ServerRefusal: Sendable {
    /// Its body is over `ServerConfiguration.maximumBodyBytes`.
    case tooLarge(limit: Int)
    /// Its body would pass what all connections may hold together: come back later.
    case busy
    /// Its bytes are not an HTTP/1.1 request.
    case unreadable(Unreadable)

    /// What is wrong with bytes that are not an HTTP/1.1 request.
    public enum Unreadable: Sendable, Equatable {
        /// Its request line and headers are over what the parser reads.
        case headTooLarge(limit: Int)
        case invalidTarget
        case invalidMethod
        case invalidVersion
        /// Anything else, as the parser names it.
        case other(String)
    }
}

/// What answers an `HTTPServer`'s requests.
public protocol HTTPResponder: Sendable {
    /// What a request admitted by its head carries to `respond`: who the caller is, say.
    associatedtype Ticket: Sendable = Void

    /// Decides on a request by its head (`request.body` is empty).
    func admit(_ request: ServerRequest) -> ServerAdmission<Ticket>

    /// Answers a whole request.
    func respond(to request: ServerRequest, ticket: Ticket) -> ServerReply

    /// The response to a request the server refuses; `request` is nil when no head was read.
    func refusal(_ refusal: ServerRefusal, to request: ServerRequest?) -> ServerResponse

    /// The WebSocket a request asking to upgrade to one opens, by its head; nil answers it as
    /// any request.
    func socket(for request: ServerRequest) -> ServerSocket?
}

extension HTTPResponder {
    /// No request opens a WebSocket.
    public func socket(for request: ServerRequest) -> ServerSocket? { nil }
}

/// What a WebSocket the server opened says: each message it is sent back, or its messages,
/// each after its delay, and then a close.
public struct ServerSocket: Sendable {
    public enum Replies: Sendable {
        /// Each text or binary message back as it came.
        case echo
        /// These text messages, each after its delay from the one before; then a close (1000).
        case messages([(delay: Duration, text: String)])
    }

    public var replies: Replies
    /// Called as the socket opens: for a log line.
    public var performed: (@Sendable () -> Void)?

    public init(_ replies: Replies, performed: (@Sendable () -> Void)? = nil) {
        self.replies = replies
        self.performed = performed
    }
}

extension HTTPResponder where Ticket == Void {
    /// Every request is read whole.
    public func admit(_ request: ServerRequest) -> ServerAdmission<Void> { .proceed(()) }
}

extension String {
    /// Whether this header name is `lowercase`, compared without regard to ASCII case and
    /// without making a lowercased copy.
    public func isHeaderName(_ lowercase: String) -> Bool {
        guard utf8.count == lowercase.utf8.count else { return false }
        var expected = lowercase.utf8.makeIterator()
        for byte in utf8 {
            guard let wanted = expected.next(), (byte >= 65 && byte <= 90 ? byte | 0x20 : byte) == wanted else {
                return false
            }
        }
        return true
    }
}
