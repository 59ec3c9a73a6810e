import MoyaHTTP
import MoyaSpec

extension Logins {
    /// The tokens a login binds from `response`, a response of `target` of `service`: where
    /// the logins of `services` that call it read their token, and, since a login's response
    /// holds others it does not read (OAuth's `refresh_token` and `id_token`), every string
    /// member whose name says it is a credential (`CredentialNames.members(of:)`). Empty when no
    /// login calls the target.
    public static func tokens(
        in response: Response, of target: TargetSpec, of service: ServiceSpec, among services: [ServiceSpec]
    ) -> Set<String> {
        let paths = logins(calling: target, of: service, among: services).map(\.tokenPath)
        guard !paths.isEmpty, let json = try? response.mapJSON() else { return [] }
        var tokens = CredentialNames.members(of: json)
        for path in paths {
            for case .string(let token) in path.values(in: json) where !token.isEmpty {
                tokens.insert(token)
            }
        }
        return tokens
    }

    /// The logins, of any of `services`, whose token comes from `target`.
    static func logins(calling target: TargetSpec, of service: ServiceSpec, among services: [ServiceSpec])
        -> [LoginSpec]
    {
        services.flatMap { other in
            ([other.auth] + other.targets.map(\.auth)).compactMap { auth -> LoginSpec? in
                guard case .login(let login)? = auth, login.target == target.name,
                    (login.service ?? other.name) == service.name
                else { return nil }
                return login
            }
        }
    }
}
