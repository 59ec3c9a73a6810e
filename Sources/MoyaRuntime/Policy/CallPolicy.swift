import MoyaHTTP
import MoyaSpec
import MoyaTransport

/// How a spec target is sent: its time limits, retries, redirects and whether it is answered
/// from its sample. `decide` is the one place these are worked out, from the command line's
/// overrides, the target and its service; `call`, `check`, `run` and `describe` all ask it.
/// A spec's environments carry none of these keys.
public struct CallPolicy: Sendable, Hashable {
    /// Seconds each attempt may take, from connecting to the last byte of the body; nil for
    /// no limit.
    public var timeout: Double?
    /// Seconds to wait for a connection.
    public var connectTimeout: Double
    /// How a failed request is retried; nil sends it once.
    public var retry: RetryPolicy?
    /// Whether a 3xx response with a `Location` is followed.
    public var followsRedirects: Bool
    /// How many redirects are followed before the request fails.
    public var redirectLimit: Int
    /// Live, or answered from the sample at once or after a delay.
    public var stub: StubBehavior

    /// A policy with every setting given.
    public init(
        timeout: Double?, connectTimeout: Double, retry: RetryPolicy?, followsRedirects: Bool, redirectLimit: Int,
        stub: StubBehavior
    ) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.retry = retry
        self.followsRedirects = followsRedirects
        self.redirectLimit = redirectLimit
        self.stub = stub
    }

    /// The seconds a connection may take unless the command line says.
    public static let defaultConnectTimeout: Double = 10
    /// The redirects followed unless the command line says.
    public static let defaultRedirectLimit = 10

    /// What the command line says; each one set wins over the spec.
    public struct Overrides: Sendable, Hashable {
        /// `--timeout`.
        public var timeout: Double?
        /// `--connect-timeout`.
        public var connectTimeout: Double?
        /// `--retry`: a count, 0 for none.
        public var retry: Int?
        /// `--retry-all`: retry methods that are not idempotent too, also for a spec's `retry`.
        public var retriesAllMethods: Bool
        /// False for `--no-follow`.
        public var followsRedirects: Bool?
        /// `--max-redirects`.
        public var redirectLimit: Int?
        /// `--stub`, or `.immediate` for `call --sample`.
        public var stub: StubBehavior?

        /// Overrides; none by default.
        public init(
            timeout: Double? = nil, connectTimeout: Double? = nil, retry: Int? = nil, retriesAllMethods: Bool = false,
            followsRedirects: Bool? = nil, redirectLimit: Int? = nil, stub: StubBehavior? = nil
        ) {
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.retry = retry
            self.retriesAllMethods = retriesAllMethods
            self.followsRedirects = followsRedirects
            self.redirectLimit = redirectLimit
            self.stub = stub
        }
    }

    /// The policy for `target` of `service`: each setting from the command line's overrides,
    /// else the target's key, else the service's, else the default (no time limit, 10 s to
    /// connect, no retry, up to 10 redirects followed, live). With no target, the service's.
    public static func decide(_ overrides: Overrides, target: TargetSpec?, service: ServiceSpec?) -> CallPolicy {
        let count = overrides.retry ?? target?.retry ?? service?.retry ?? 0
        return CallPolicy(
            timeout: overrides.timeout ?? target?.timeout ?? service?.timeout,
            connectTimeout: overrides.connectTimeout ?? defaultConnectTimeout,
            retry: count > 0 ? RetryPolicy(limit: count, retriesAllMethods: overrides.retriesAllMethods) : nil,
            followsRedirects: overrides.followsRedirects ?? target?.followsRedirects ?? service?.followsRedirects
                ?? true,
            redirectLimit: overrides.redirectLimit ?? defaultRedirectLimit,
            stub: overrides.stub ?? service?.stub ?? .never)
    }

    /// Puts the per-request settings on `request`: the time limit, the retries and redirects.
    public func apply(to request: inout Request) {
        request.timeout = timeout
        request.retry = retry
        request.followsRedirects = followsRedirects
    }

    /// Puts the settings a session holds for all its requests on `configuration`: the time to
    /// connect and the redirect limit, which no spec sets, and the rest as defaults for
    /// requests that bring none.
    public func apply(to configuration: inout Session.Configuration) {
        configuration.timeout = timeout
        configuration.connectTimeout = connectTimeout
        configuration.retry = retry
        configuration.followsRedirects = followsRedirects
        configuration.redirectLimit = redirectLimit
    }

    /// The policy's lines as `describe` prints them: what differs from a plain live call.
    public var summary: [String] {
        var lines: [String] = []
        if let timeout { lines.append("timeout: \(JSONValue.format(timeout))s") }
        if let retry { lines.append("retry: \(retry.limit)") }
        if !followsRedirects { lines.append("followRedirects: false") }
        switch stub {
        case .never: break
        case .immediate: lines.append("stub: immediate")
        case .delayed(let seconds): lines.append("stub: delayed \(JSONValue.format(seconds))s")
        }
        return lines
    }
}
