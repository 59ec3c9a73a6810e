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
/// again when a token names a key it lacks (a rotation), at most once a minute. Keys, and the
/// metadata that names them, come over https only: plain http only from a loopback address the
/// user named (a local test issuer), and nothing reached over https (a redirect, a metadata
/// document's `jwks_uri`) leads to http.
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
            guard isSecure(jwks) else {
                throw Failure(
                    description: "--jwks \(jwks): signing keys are fetched over https only (a loopback address aside)")
            }
            url = jwks
        } else {
            // Held to the same rule by `discover`, from the document that named it.
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

    /// Whether keys may come from `url`, reached from `previous` (nil: the user named it):
    /// https; or http to a loopback address, when the user named one or it was reached from
    /// one over http.
    static func isSecure(_ url: String, after previous: String? = nil) -> Bool {
        guard let given = scheme(of: url) else { return false }
        if given == "https" { return true }
        guard given == "http", isLoopback(url) else { return false }
        return previous.map { scheme(of: $0) == "http" && isLoopback($0) } ?? true
    }

    private static func scheme(of url: String) -> String? {
        URL(string: url)?.scheme?.lowercased()
    }

    private static func isLoopback(_ url: String) -> Bool {
        guard let host = URL(string: url)?.host?.lowercased() else { return false }
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare == "::1" || (bare.hasPrefix("127.") && bare.split(separator: ".").count == 4)
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
        var insecure: String?
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
                guard isSecure(keys, after: place) else {
                    insecure = "\(place) names a jwks_uri over http, \(keys); keys come over https only"
                    continue
                }
                return keys
            }
        }
        throw Failure(
            description: "cannot find the signing keys of \(issuer) (\(insecure ?? reasons.first ?? "no metadata")); "
                + "give them with --jwks FILE or URL")
    }

    /// The most redirects followed to a key set or metadata document.
    static let redirectLimit = 5

    /// The body at `url`, following redirects that stay on https (or loopback http).
    private static func get(_ url: String, session: Session) async -> Result<[UInt8], Failure> {
        var current = url
        var previous: String?
        for _ in 0...redirectLimit {
            guard isSecure(current, after: previous) else {
                let reason =
                    current == url
                    ? "\(url) is not fetched: keys come over https only"
                    : "\(url) redirected to \(current): keys come over https only"
                return .failure(Failure(description: reason))
            }
            guard let target = URL(string: current) else {
                return .failure(Failure(description: "\(current) is not a URL"))
            }
            var headers = MoyaHTTP.HTTPHeaders()
            headers.add(name: "Accept", value: "application/json")
            var request = Request(url: target, method: .get, headers: headers, timeout: 10)
            request.followsRedirects = false
            do {
                let response = try await session.send(request)
                if [301, 302, 303, 307, 308].contains(response.statusCode), let location = response.headers["Location"],
                    let next = URL(string: location, relativeTo: target)?.absoluteURL
                {
                    previous = current
                    current = next.absoluteString
                    continue
                }
                guard response.statusCode == 200 else {
                    return .failure(Failure(description: "\(current) answered \(response.statusCode)"))
                }
                guard response.data.count <= limit else {
                    return .failure(Failure(description: "\(current) answered over \(limit >> 20) MiB"))
                }
                return .success(Array(response.data))
            } catch {
                return .failure(Failure(description: "cannot fetch \(current): \(error)"))
            }
        }
        return .failure(Failure(description: "\(url): more than \(redirectLimit) redirects"))
    }
}
