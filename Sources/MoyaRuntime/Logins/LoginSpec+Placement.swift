import MoyaHTTP
import MoyaSpec

extension LoginSpec.Scheme {
    /// Where `AuthenticationPlugin` puts a login's token.
    public var placement: AuthenticationPlugin.Placement {
        switch self {
        case .bearer: .authorization(scheme: "Bearer")
        case .custom(let scheme): .authorization(scheme: scheme)
        case .header(let name): .header(name)
        }
    }
}
