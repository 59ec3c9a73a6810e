/// A failure to get a response at all, in the terms of `URLError`'s common codes.
public struct NetworkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it was.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: String

        /// The request timed out.
        public static let timedOut = Code(name: "timedOut")
        /// There is no network.
        public static let notConnectedToInternet = Code(name: "notConnectedToInternet")
        /// The host name did not resolve.
        public static let cannotFindHost = Code(name: "cannotFindHost")
        /// The host refused the connection or could not be reached.
        public static let cannotConnectToHost = Code(name: "cannotConnectToHost")
        /// The connection dropped before the response was complete.
        public static let networkConnectionLost = Code(name: "networkConnectionLost")
        /// The request was cancelled.
        public static let cancelled = Code(name: "cancelled")
        /// Redirects went past the limit or looped.
        public static let tooManyRedirects = Code(name: "tooManyRedirects")
        /// TLS failed: the handshake, the certificate or a pin.
        public static let secureConnectionFailed = Code(name: "secureConnectionFailed")
        /// The server's response was not valid HTTP, or its body could not be decoded.
        public static let badServerResponse = Code(name: "badServerResponse")
        /// A local file could not be read or written.
        public static let fileFailed = Code(name: "fileFailed")
        /// Anything else.
        public static let unknown = Code(name: "unknown")

        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, for people.
    public var message: String
    /// For a timeout, the time limit that ran out, in seconds, when it is known.
    public var seconds: Double?

    /// Creates a network error; `seconds` is a timeout's limit.
    public init(_ code: Code, _ message: String, seconds: Double? = nil) {
        self.code = code
        self.message = message
        self.seconds = seconds
    }

    public var description: String { message }
}
