#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A fully built HTTP request, ready for a plugin to adjust or the transport to send.
public struct Request: Sendable {
    /// Where a request's body comes from.
    public enum Body: Sendable, Hashable {
        /// Bytes held in memory.
        case data(Data)
        /// Bytes streamed from a local file.
        case file(URL)
    }

    /// The absolute URL, query included.
    public var url: URL
    /// The HTTP method.
    public var method: Method
    /// The header fields in the order they are sent.
    public var headers: HTTPHeaders
    /// The body, if any.
    public var body: Body?
    /// Seconds to wait for the whole response; nil leaves the transport's default.
    public var timeout: Double?
    /// How this request is retried, in place of the session's policy.
    public var retry: RetryPolicy?
    /// Whether redirects are followed; nil leaves it to the session.
    public var followsRedirects: Bool?
    /// The cookies this request sends and keeps, hop by hop; nil keeps those a redirect sets
    /// for the request's later hops only.
    public var cookies: CookieStore?

    /// Creates a request.
    public init(
        url: URL, method: Method = .get, headers: HTTPHeaders = HTTPHeaders(), body: Body? = nil,
        timeout: Double? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The in-memory body bytes, or nil for no body or a file body.
    public var httpBody: Data? {
        get {
            if case .data(let data) = body { return data }
            return nil
        }
        set { body = newValue.map(Body.data) }
    }
}
