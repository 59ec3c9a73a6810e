/// A sample response, which a stubbed call returns instead of going to the network.
public enum SampleSpec: Sendable, Hashable {
    /// A response with a status, headers and body.
    case response(status: Int, headers: [HeaderSpec], body: SampleBody)
    /// A network failure: Moya's `.networkError`.
    case error(SampleNetworkError)

    /// The status a stub answers with, or nil for a network error.
    public var status: Int? {
        if case .response(let status, _, _) = self { return status }
        return nil
    }
}

/// The body of a sample response.
public enum SampleBody: Sendable, Hashable {
    /// No body.
    case empty
    /// Text, possibly with references.
    case text(Template)
    /// JSON, possibly with references.
    case json(ValueTemplate)
    /// A file's contents, the path relative to the spec file.
    case file(String)
    /// A stream's events, written as the target's stream kind (SSE unless it says another).
    case events([SampleEvent])
}

/// One event of a stream sample: `{ event, id, data, retry, delay }`.
public struct SampleEvent: Sendable, Hashable {
    /// The SSE event type; nil for none.
    public var event: String?
    /// The SSE event ID; nil for none.
    public var id: String?
    /// The data: text as it is, any other value as JSON.
    public var data: ValueTemplate
    /// The SSE reconnection time, in ms.
    public var retry: Int?
    /// How long `serve` waits before sending it, in seconds.
    public var delay: Double?

    /// An event.
    public init(event: String? = nil, id: String? = nil, data: ValueTemplate, retry: Int? = nil, delay: Double? = nil) {
        self.event = event
        self.id = id
        self.data = data
        self.retry = retry
        self.delay = delay
    }
}

/// The network failures a sample can simulate.
public enum SampleNetworkError: String, Sendable, Hashable, CaseIterable {
    /// The request timed out.
    case timeout
    /// There is no network.
    case notConnectedToInternet
    /// The host name did not resolve.
    case cannotFindHost
    /// The host refused the connection.
    case cannotConnectToHost
    /// The connection dropped.
    case networkConnectionLost
    /// The request was cancelled.
    case cancelled
}

/// A header whose value may hold references.
public struct HeaderSpec: Sendable, Hashable {
    /// The header's name.
    public var name: String
    /// The value.
    public var value: Template
    /// Whether the value is a secret, declared with `{ value: ..., secret: true }`.
    public var isSecret = false

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(name: String, value: Template, isSecret: Bool = false) {
        self.name = name
        self.value = value
        self.isSecret = isSecret
    }
}
