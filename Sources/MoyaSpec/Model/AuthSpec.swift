import MoyaJSONPath
import MoyaYAML

/// Credentials sent with a request: the spec's form of Moya's `AccessTokenPlugin` and
/// `CredentialsPlugin`.
public enum AuthSpec: Sendable, Hashable {
    /// No credentials, even where the service sets some.
    case none
    /// `Authorization: Bearer <token>`.
    case bearer(Template)
    /// `Authorization: Basic <base64 of user:password>`.
    case basic(user: Template, password: Template)
    /// `Authorization: <scheme> <token>`.
    case custom(scheme: String, token: Template)
    /// A token from calling a login target, refreshed when a response says it is stale.
    case login(LoginSpec)

    /// The kind, for `describe`.
    public var kind: String {
        switch self {
        case .none: "none"
        case .bearer: "bearer"
        case .basic: "basic"
        case .custom(let scheme, _): "custom (\(scheme))"
        case .login(let login): "login (\(login.targetReference))"
        }
    }

    /// Every template inside.
    var templates: [Template] {
        switch self {
        case .none: []
        case .bearer(let token): [token]
        case .basic(let user, let password): [user, password]
        case .custom(_, let token): [token]
        case .login: []
        }
    }
}

/// `auth: { login: … }`: how a token is obtained, where it goes and when it is renewed.
public struct LoginSpec: Sendable, Hashable {
    /// Where the token goes on each request.
    public enum Scheme: Sendable, Hashable {
        /// `Authorization: Bearer <token>`.
        case bearer
        /// `Authorization: <scheme> <token>`.
        case custom(String)
        /// `<name>: <token>`.
        case header(String)
    }

    /// The service of the login target, nil for this one.
    public var service: String?
    /// The login target.
    public var target: String
    /// Its params, usually from the environment: `${API_USER}`.
    public var arguments: [FlowValue.Member]
    /// Where the token is in the login response.
    public var tokenPath: JSONPath
    /// Where its lifetime in seconds is, if the response says.
    public var expiresInPath: JSONPath?
    /// Where the token goes.
    public var scheme: Scheme
    /// The statuses that make a request log in again, once, and be replayed.
    public var refreshOn: Set<Int>
    /// Whether the token is kept between runs under `$XDG_CACHE_HOME/moya-cli/`.
    public var cache: Bool
    /// Where `auth` is declared.
    public var mark: Mark

    /// `target` or `service.target`.
    public var targetReference: String { service.map { "\($0).\(target)" } ?? target }

    /// Every stored property, as the memberwise initializer takes them, for the compiler's module.
    package init(
        service: String? = nil, target: String, arguments: [FlowValue.Member], tokenPath: JSONPath,
        expiresInPath: JSONPath? = nil, scheme: Scheme, refreshOn: Set<Int>, cache: Bool, mark: Mark
    ) {
        self.service = service
        self.target = target
        self.arguments = arguments
        self.tokenPath = tokenPath
        self.expiresInPath = expiresInPath
        self.scheme = scheme
        self.refreshOn = refreshOn
        self.cache = cache
        self.mark = mark
    }
}
