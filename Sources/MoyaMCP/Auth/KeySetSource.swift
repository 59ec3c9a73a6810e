import MoyaHTTP
import MoyaSpec
import MoyaTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where `--auth-issuer`'s signing keys come from: `--jwks FILE`, `--jwks URL`, or, without
/// `--jwks`, the issuer's own metadata (RFC 8414's `oauth-authorization-server`, then OpenID
/// Connect's `openid-configuration`), whose `jwks_uri` names them. A URL's set is fetched
/// again when a token names a key it lacks (a rotation), at most once a minute.
public enum KeySetSource {
    /// Why the keys cannot be had, as one line.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The largest key set or metadata document read.
    static let limit = 1 << 20

    /// The verifier for `issuer` and `audience`, its keys loaded now.
    public static func tokens(
        issuer: String, audience: String, jwks: String?, scopes: [String], session: Session
    ) async throws(Failure) -> BearerTokens {
        if let jwks, !isURL(jwks) {
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.contents(jwks, limit: limit)
            } catch {
                throw Failure(description: "--jwks \(jwks): \(error.message)")
            }
            do {
                let keys = try SigningKeys(jwks: bytes)
                return BearerTokens(issuer: issuer, audience: audience, keys: keys, scopes: scopes)
            } catch {
                throw Failure(description: "--jwks \(jwks): not a usable JWK Set: \(error.description)")
            }
        }
        let url: String
        if let jwks {
            url = jwks
        } else {
            url = try await discover(issuer, session: session)
        }
        let keys = try await fetch(url, session: session).get()
        return BearerTokens(
            issuer: issuer, audience: audience, keys: keys, scopes: scopes,
            refetch: {
                await fetch(url, session: session).mapError { SigningKeys.Problem(description: $0.description) }
            })
    }

    static func isURL(_ text: String) -> Bool {
        text.hasPrefix("https://") || text.hasPrefix("http://")
    }

    /// The key set at `url`.
    static func fetch(_ url: String, session: Session) async -> Result<SigningKeys, Failure> {
        switch await get(url, session: session) {
        case .failure(let failure): return .failure(failure)
        case .success(let bytes):
            do {
                return .success(try SigningKeys(jwks: bytes))
            } catch {
                return .failure(
                    Failure(description: "the key set at \(url) is not a usable JWK Set: \(error.description)"))
            }
        }
    }

    /// The issuer's `jwks_uri`, from its authorization server metadata, else its OpenID
    /// configuration, each at the well-known path RFC 8414 builds from the issuer.
    static func discover(_ issuer: String, session: Session) async throws(Failure) -> String {
        let origin = BearerTokens.origin(of: issuer)
        let path = BearerTokens.path(of: issuer)
        let suffix = path == "/" ? "" : path
        let places = [
            origin + "/.well-known/oauth-authorization-server" + suffix,
            origin + "/.well-known/openid-configuration" + suffix,
            issuer.hasSuffix("/")
                ? issuer + ".well-known/openid-configuration" : issuer + "/.well-known/openid-configuration",
        ]
        var reasons: [String] = []
        for place in places where !reasons.contains(place) {
            switch await get(place, session: session) {
            case .failure(let failure): reasons.append(failure.description)
            case .success(let bytes):
                guard let document = try? JSONValue(parsing: Data(bytes)),
                    case .string(let keys)? = document["jwks_uri"], isURL(keys)
                else {
                    reasons.append("\(place) names no jwks_uri")
                    continue
                }
                return keys
            }
        }
        throw Failure(
            description: "cannot find the signing keys of \(issuer) (\(reasons.first ?? "no metadata")); "
                + "give them with --jwks FILE or URL")
    }

    private static func get(_ url: String, session: Session) async -> Result<[UInt8], Failure> {
        guard let target = URL(string: url) else { return .failure(Failure(description: "\(url) is not a URL")) }
        var headers = MoyaHTTP.HTTPHeaders()
        headers.add(name: "Accept", value: "application/json")
        let request = Request(url: target, method: .get, headers: headers, timeout: 10)
        do {
            let response = try await session.send(request)
            guard response.statusCode == 200 else {
                return .failure(Failure(description: "\(url) answered \(response.statusCode)"))
            }
            guard response.data.count <= limit else {
                return .failure(Failure(description: "\(url) answered over \(limit >> 20) MiB"))
            }
            return .success(Array(response.data))
        } catch {
            return .failure(Failure(description: "cannot fetch \(url): \(error)"))
        }
    }
}
