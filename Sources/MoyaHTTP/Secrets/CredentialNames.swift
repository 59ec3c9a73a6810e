/// What is a credential by its name: the one rule for values that come with no declaration,
/// such as a header given with `-H`, or a member of a login's response.
///
/// Every other secret is declared where its value is bound (a spec param or header marked
/// `secret`, `auth:`, an environment value, a secret capture, a login's token). The
/// `Redactor` renders all of them; this says only which names make a value one.
public enum CredentialNames {
    /// Headers whose values are always credentials.
    public static let headers: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The words a name holds when its value is a credential.
    static let words = [
        "authorization", "token", "secret", "password", "passwd", "credential", "key", "session", "cookie",
    ]

    /// Whether a header, query item or JSON member called `name` holds a credential:
    /// `Authorization`, `X-Api-Key`, `X-Auth-Token`, `client_secret`, `sessionId`, and the like.
    public static func isCredential(name: String) -> Bool {
        let lowered = name.lowercased()
        return headers.contains(lowered) || words.contains { lowered.contains($0) }
    }

    /// The string members of `json`, at any depth the parser allows, whose names say they
    /// hold a credential (see `isCredential(name:)`): OAuth's `refresh_token` and `id_token`
    /// beside the token a login reads.
    public static func members(of json: JSONValue) -> Set<String> {
        var values: Set<String> = []
        collect(json, into: &values)
        return values
    }

    private static func collect(_ json: JSONValue, into values: inout Set<String>) {
        switch json {
        case .object(let members):
            for member in members {
                if case .string(let value) = member.value, !value.isEmpty, isCredential(name: member.key) {
                    values.insert(value)
                }
                collect(member.value, into: &values)
            }
        case .array(let items): for item in items { collect(item, into: &values) }
        default: break
        }
    }
}
