#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The status and headers of a response, before or without its body.
public struct ResponseHead: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response headers in the order received.
    public var headers: HTTPHeaders
    /// The protocol version, such as `HTTP/1.1` or `HTTP/2.0`.
    public var version: String
    /// The redirects followed on the way to this response, first to last.
    public var redirects: [RedirectHop]

    /// Creates a response head.
    public init(
        statusCode: Int, headers: HTTPHeaders = HTTPHeaders(), version: String = "HTTP/1.1",
        redirects: [RedirectHop] = []
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.version = version
        self.redirects = redirects
    }
}

/// One redirect a request followed: the request that was sent, the 3xx head that answered
/// it, and the request sent next.
public struct RedirectHop: Sendable, Hashable {
    /// The method of the request that was redirected.
    public var method: Method
    /// The URL of the request that was redirected.
    public var url: URL
    /// The redirect response's head, its `Location` among the headers.
    public var head: ResponseHead
    /// The method of the request that followed: GET after a 303, for one.
    public var nextMethod: Method
    /// Where the request that followed went: `Location`, resolved against `url`.
    public var nextURL: URL
    /// The header fields the request that followed went out with, in the order sent
    /// (`Session.wireHeaders(for:)`).
    public var nextHeaders: HTTPHeaders

    /// Creates a hop.
    public init(
        method: Method, url: URL, head: ResponseHead, nextMethod: Method, nextURL: URL, nextHeaders: HTTPHeaders = [:]
    ) {
        self.method = method
        self.url = url
        self.head = head
        self.nextMethod = nextMethod
        self.nextURL = nextURL
        self.nextHeaders = nextHeaders
    }
}
