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

    /// The kind, for `describe`.
    public var kind: String {
        switch self {
        case .none: "none"
        case .bearer: "bearer"
        case .basic: "basic"
        case .custom(let scheme, _): "custom (\(scheme))"
        }
    }

    /// Every template inside.
    var templates: [Template] {
        switch self {
        case .none: []
        case .bearer(let token): [token]
        case .basic(let user, let password): [user, password]
        case .custom(_, let token): [token]
        }
    }
}
