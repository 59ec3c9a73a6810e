import MoyaHTTP
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `mcp --http`'s OAuth 2.1 resource server: a bearer token is a JWT (RFC 9068's access token
/// profile, as issuers sign them) that the authorization server `issuer` signed with a key of
/// its JWK Set, issued for this server (`audience`, RFC 8707's resource indicator), and in
/// force now (`exp`, `nbf`, with a minute's leeway for clocks). What a token carries is never
/// passed on: a tool call sends the spec's own credentials.
public final class BearerTokens: Sendable {
    /// The authorization server's issuer identifier, compared with `iss` exactly.
    public let issuer: String
    /// This server's resource identifier, which `aud` must name.
    public let audience: String
    /// The scopes the resource metadata advertises.
    public let scopes: [String]
    /// Where the key set comes from again when a token names a key it lacks: a URL's
    /// fetcher, nil for a file.
    private let refetch: (@Sendable () async -> Result<SigningKeys, SigningKeys.Problem>)?
    private let state: Mutex<(keys: SigningKeys, fetched: ContinuousClock.Instant?)>
    /// The seconds since 1970 now; a parameter so tests can fix it.
    private let now: @Sendable () -> Double
    /// The `typ`s of an access token: RFC 9068's, and the plain `JWT` most issuers write. Any
    /// other (`logout+jwt`, `id_token+jwt`) is a JWT for something else.
    static let accessTokenTypes: Set<String> = ["at+jwt", "application/at+jwt", "jwt"]
    /// How far `exp` and `nbf` may be off, for clocks that differ.
    static let leeway = 60.0
    /// The least time between two fetches of the key set that a token's unknown key causes.
    static let refetchInterval = Duration.seconds(60)

    public init(
        issuer: String, audience: String, keys: SigningKeys, scopes: [String] = [],
        refetch: (@Sendable () async -> Result<SigningKeys, SigningKeys.Problem>)? = nil,
        now: @escaping @Sendable () -> Double = { Date.now.timeIntervalSince1970 }
    ) {
        self.issuer = issuer
        self.audience = audience
        self.scopes = scopes
        self.refetch = refetch
        self.now = now
        state = Mutex((keys, refetch == nil ? nil : .now))
    }

    /// What a verified token says of its holder.
    public struct Holder: Sendable, Equatable {
        public var subject: String?
        public var scopes: Set<String>
    }

    /// Why a token is refused, as the `error_description` of the 401 says it.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Checks a bearer token: its form, its signature, then its claims.
    public func verify(_ token: String) async -> Result<Holder, Refusal> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let payloadBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = try? JSONValue(parsing: Data(headerBytes)),
            let claims = try? JSONValue(parsing: Data(payloadBytes)), case .object = claims
        else {
            return .failure(Refusal(description: "the token is not a signed JWT"))
        }
        for document in [header, claims] {
            guard case .object(let members) = document, Set(members.map(\.key)).count == members.count else {
                return .failure(Refusal(description: "the token's header or claims name a member twice"))
            }
        }
        // RFC 7515 4.1.11: a header extension the recipient must understand, and this one
        // understands none.
        guard header["crit"] == nil else {
            return .failure(Refusal(description: "the token's header names extensions it requires (crit)"))
        }
        if let type = header["typ"] {
            guard case .string(let name) = type, Self.accessTokenTypes.contains(name.lowercased()) else {
                return .failure(Refusal(description: "the token is not an access token (its typ)"))
            }
        }
        guard case .string(let algorithm)? = header["alg"] else {
            return .failure(Refusal(description: "the token's header names no algorithm"))
        }
        let keyID: String?
        switch header["kid"] {
        case .string(let id)?: keyID = id
        case nil: keyID = nil
        default: return .failure(Refusal(description: "the token's kid is not a string"))
        }
        let input = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        var keys = state.withLock { $0.keys }
        if let keyID, !keys.knows(keyID), let fresher = await refreshed() { keys = fresher }
        let candidates = keys.candidates(algorithm: algorithm, id: keyID)
        guard !candidates.isEmpty else {
            return .failure(
                Refusal(
                    description: keyID.map { _ in "the token names a key the issuer's key set does not hold" }
                        ?? "no key of the issuer's key set signs with \(VisibleText(algorithm).text)"))
        }
        guard candidates.contains(where: { $0.verifies(signature, of: input, algorithm: algorithm) }) else {
            return .failure(Refusal(description: "the token's signature does not verify"))
        }
        return check(claims)
    }

    /// The claims of a token whose signature verified.
    private func check(_ claims: JSONValue) -> Result<Holder, Refusal> {
        guard claims["iss"] == .string(issuer) else {
            return .failure(Refusal(description: "the token was not issued by \(issuer)"))
        }
        let audiences: [JSONValue]
        switch claims["aud"] {
        case .array(let list)?: audiences = list
        case let single?: audiences = [single]
        case nil: audiences = []
        }
        guard audiences.contains(.string(audience)) else {
            return .failure(Refusal(description: "the token is not for \(audience) (its aud)"))
        }
        let now = now()
        guard let expiry = Self.seconds(claims["exp"]) else {
            return .failure(Refusal(description: "the token has no exp"))
        }
        guard now < expiry + Self.leeway else { return .failure(Refusal(description: "the token has expired")) }
        if let start = claims["nbf"] {
            guard let notBefore = Self.seconds(start) else {
                return .failure(Refusal(description: "the token's nbf is not a number"))
            }
            guard now + Self.leeway >= notBefore else {
                return .failure(Refusal(description: "the token is not valid yet (its nbf)"))
            }
        }
        var scopes = Set<String>()
        if case .string(let list)? = claims["scope"] { scopes.formUnion(list.split(separator: " ").map(String.init)) }
        if case .array(let list)? = claims["scp"] {
            for case .string(let scope) in list { scopes.insert(scope) }
        }
        let subject: String?
        if case .string(let text)? = claims["sub"] { subject = text } else { subject = nil }
        return .success(Holder(subject: subject, scopes: scopes))
    }

    private static func seconds(_ value: JSONValue?) -> Double? {
        switch value {
        case .integer(let whole)?: Double(whole)
        case .number(let number)?: number.isFinite ? number : nil
        default: nil
        }
    }

    /// The key set fetched again, when the last fetch is over a minute old: a token that names
    /// an unknown key may follow a key rotation, and a stream of them must not become a stream
    /// of fetches.
    private func refreshed() async -> SigningKeys? {
        guard let refetch else { return nil }
        let due = state.withLock { state -> Bool in
            guard let fetched = state.fetched, fetched.duration(to: .now) >= Self.refetchInterval else { return false }
            state.fetched = .now
            return true
        }
        guard due, case .success(let keys) = await refetch() else { return nil }
        state.withLock { $0.keys = keys }
        return keys
    }

    /// RFC 9728's protected resource metadata for this server.
    public var metadata: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("resource", .string(audience)), ("authorization_servers", .array([.string(issuer)])),
            ("bearer_methods_supported", .array([.string("header")])),
        ]
        if !scopes.isEmpty { members.append(("scopes_supported", .array(scopes.map(JSONValue.string)))) }
        members.append(("resource_name", .string("moya-cli mcp")))
        return .object(members)
    }

    /// Where the metadata is served: RFC 9728's well-known path, with the resource's path
    /// after it (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`).
    public var metadataPath: String {
        let path = Self.path(of: audience)
        return "/.well-known/oauth-protected-resource" + (path == "/" ? "" : path)
    }

    /// The metadata's URL, for `WWW-Authenticate`'s `resource_metadata`.
    public var metadataURL: String {
        Self.origin(of: audience) + metadataPath
    }

    /// `scheme://authority` of a URL.
    package static func origin(of url: String) -> String {
        let characters = Array(url)
        guard let colon = characters.firstIndex(of: ":"), characters[colon...].starts(with: "://") else { return url }
        let start = colon + 3
        let end = characters[start...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? characters.count
        return String(characters[..<end])
    }

    /// The path of a URL, `/` when it has none.
    static func path(of url: String) -> String {
        let origin = origin(of: url)
        let rest = url.dropFirst(origin.count)
        let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let path = String(rest[..<end])
        return path.isEmpty ? "/" : path
    }
}
