/// How a target wants its access token sent.
public enum AuthorizationType: Sendable, Hashable {
    /// `Authorization: Basic <token>`.
    case basic
    /// `Authorization: Bearer <token>`.
    case bearer
    /// `Authorization: <scheme> <token>`.
    case custom(String)

    /// The scheme word.
    public var value: String {
        switch self {
        case .basic: "Basic"
        case .bearer: "Bearer"
        case .custom(let scheme): scheme
        }
    }
}

/// A target that says whether and how it is authorized.
public protocol AccessTokenAuthorizable: TargetType {
    /// The authorization this target needs, or nil for none.
    var authorizationType: AuthorizationType? { get }
}

/// Adds an `Authorization` header to targets that ask for one.
public struct AccessTokenPlugin: PluginType {
    /// Gives the token for a target.
    public let tokenClosure: @Sendable (any TargetType) -> String

    /// Creates the plugin.
    public init(tokenClosure: @escaping @Sendable (any TargetType) -> String) {
        self.tokenClosure = tokenClosure
    }

    public func prepare(_ request: Request, target: any TargetType) -> Request {
        let unwrapped = (target as? MultiTarget)?.target ?? target
        guard let authorizable = unwrapped as? any AccessTokenAuthorizable,
            let type = authorizable.authorizationType
        else { return request }
        var request = request
        request.headers.update(name: "Authorization", value: "\(type.value) \(tokenClosure(unwrapped))")
        return request
    }
}

/// A user name and password.
public struct Credentials: Sendable, Hashable {
    /// The user.
    public var user: String
    /// The password.
    public var password: String

    /// Creates credentials.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
