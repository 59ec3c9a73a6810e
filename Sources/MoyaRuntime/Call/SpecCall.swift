import MoyaBinding
import MoyaHTTP
import MoyaSpec
import MoyaTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One resolved spec target with a caller's additions, and how it is sent: the request it
/// sends, how its answer is judged, and what of it may be printed.
public struct SpecCall: Sendable {
    /// The resolved target.
    public var target: SpecTarget
    /// `-H` headers, in their order: one the spec declares takes the new value in its place,
    /// and the others follow the spec's.
    public var extraHeaders: HTTPHeaders
    /// Its time limit, retries, redirects and stubbing, as `CallPolicy.decide` gives them.
    public var policy: CallPolicy
    /// Whether a download task's body is kept in the response instead of written to its
    /// destination, as `check` needs.
    public var keepsDownloadsInMemory = false
    /// The cookies the request sends and keeps, as a flow run's; nil keeps a redirect's only.
    public var cookies: CookieStore? = nil
    /// The login's token this attempt sends, from its `Authenticator`.
    public var credential: Authenticator.Credential? = nil
    /// The URL a page after the first is asked for at, from the page before (`next: link` or
    /// `next: { url: }`): it replaces the target's URL, query and all, and the rest of the
    /// request stays the target's.
    public var pageURL: URL? = nil
    /// Whether the request carries the target's credentials: not to a page on another origin
    /// (`withoutCredentials(_:)`), as curl drops them on a redirect to another host.
    public var sendsCredentials = true

    /// A call of `target` with `extraHeaders` on top of its own, sent as `policy` says.
    public init(
        target: SpecTarget, extraHeaders: HTTPHeaders, policy: CallPolicy, keepsDownloadsInMemory: Bool = false
    ) {
        self.target = target
        self.extraHeaders = extraHeaders
        self.policy = policy
        self.keepsDownloadsInMemory = keepsDownloadsInMemory
    }

    /// The plugins that put the target's credentials on the request: its `auth:`, or the
    /// token of its login, `credential`.
    public var plugins: [any PluginType] {
        guard sendsCredentials else { return [] }
        if let login = target.login {
            return [AuthenticationPlugin(placement: login.scheme.placement, credential: credential)]
        }
        guard target.authorizationType != nil else { return [] }
        return [AccessTokenPlugin { ($0 as? SpecTarget)?.accessToken ?? "" }]
    }

    /// Headers sent first unless the spec or `-H` sets them, as curl and HTTPie send theirs:
    /// some APIs, GitHub's among them, refuse a request without a `User-Agent`.
    public static let defaultHeaders: HTTPHeaders = ["User-Agent": "moya-cli/\(Version.current)", "Accept": "*/*"]

    /// The endpoint `target` maps to, with the extra and default headers; its sample is the
    /// target's own (`SpecTarget.stubResponse`).
    public func endpoint(for target: SpecTarget) -> Endpoint {
        var endpoint = Endpoint(target: target)
        if keepsDownloadsInMemory {
            switch endpoint.task {
            case .downloadDestination: endpoint = endpoint.replacing(task: .requestPlain)
            case .downloadParameters(let parameters, let encoding, _):
                endpoint = endpoint.replacing(task: .requestParameters(parameters: parameters, encoding: encoding))
            default: break
            }
        }
        // The defaults the spec and `-H` leave, then the spec's headers in order, then `-H`'s.
        var headers = HTTPHeaders(
            fields: Self.defaultHeaders.fields.filter {
                !endpoint.headers.contains($0.name) && !extraHeaders.contains($0.name)
            })
        for field in endpoint.headers { headers.add(name: field.name, value: field.value) }
        for field in extraHeaders { headers.update(name: field.name, value: field.value) }
        return endpoint.replacing(headers: headers)
    }

    /// The request as it is sent, built once: the endpoint's request (`endpoint(for:)`),
    /// without credentials when it sends none, at a later page's URL, with the policy's time
    /// limit, retries and redirects, the cookies, and the target's credentials put on by its
    /// plugins.
    func outgoingRequest() throws(MoyaError) -> Request {
        var request = try built()
        // A WebSocket target's http and https URLs are its ws and wss ones.
        if target.stream?.kind == .websocket, let scheme = request.url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        {
            parts.scheme = scheme == "https" ? "wss" : "ws"
            if let url = parts.url { request.url = url }
        }
        policy.apply(to: &request)
        request.cookies = cookies
        return request
    }

    /// The endpoint's request, without credentials when it sends none, at a later page's URL,
    /// with the credentials the plugins put on.
    private func built() throws(MoyaError) -> Request {
        var request = withoutCredentials(try endpoint(for: target).urlRequest())
        if let pageURL { request.url = pageURL }
        return plugins.reduce(request) { $1.prepare($0, target: target) }
    }

    /// Where a download task's body is written, unless the call keeps it in memory.
    var downloadDestination: DownloadDestination? {
        guard !keepsDownloadsInMemory else { return nil }
        switch target.task {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination): return destination
        default: return nil
        }
    }

    /// `response` as the target's validation judges it: itself when its status passes, else
    /// `.statusCode`. The one place a spec call's status is judged on its way back.
    func validated(_ response: Response) -> Result<Response, MoyaError> {
        target.validationType.accepts(response.statusCode) ? .success(response) : .failure(.statusCode(response))
    }

    /// The target's sample as the answer to `request`, judged as a live response is; a
    /// sample's cookies are kept as a live response's would be.
    func stubbed(_ request: Request) -> Result<Response, MoyaError> {
        switch target.stubResponse {
        case .networkResponse(let status, let data):
            return validated(Response(statusCode: status, data: data, request: request))
        case .response(let head, let data):
            request.cookies?.store(head.headers.values(for: "Set-Cookie"), from: request.url)
            return validated(Response(statusCode: head.statusCode, data: data, request: request, response: head))
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
    }

    /// `request` as this call sends it: when it sends no credentials (`sendsCredentials`),
    /// without a header the spec marks secret or that is named as a credential
    /// (`CredentialNames`), and without one whose value holds a secret, a `${VAR}`'s among them.
    func withoutCredentials(_ request: Request) -> Request {
        guard !sendsCredentials else { return request }
        var request = request
        let secrets = target.secrets.values
        for field in request.headers
        where target.secrets.contains(header: field.name) || CredentialNames.isCredential(name: field.name)
            || secrets.contains(where: field.value.contains)
        {
            request.headers.remove(name: field.name)
        }
        return request
    }

    /// What may be printed of this call: the secrets' values are scrubbed from what the server
    /// sends back, and with `printsRequest` a logged request is printed from
    /// `maskedRequest()`.
    public func redactor(showingSecrets: Bool, printsRequest: Bool = true) -> Redactor {
        let masked = showingSecrets || !printsRequest ? nil : try? maskedRequest()
        return Redactor(secrets: target.secrets, isEnabled: !showingSecrets, maskedRequest: masked)
    }

    /// The request as it may be printed: rendered by the same code from the same bound values
    /// (`SpecTarget.masked()`), each secret as `Redactor.placeholder`, a login's token too.
    public func maskedRequest() throws(SendFailure) -> Request {
        var shown = self
        shown.pageURL = pageURL.map { Redactor(secrets: target.secrets).masking(url: $0) }
        shown.credential = target.login.map { _ in Authenticator.Credential(token: Redactor.placeholder) }
        do {
            shown.target = try target.masked()
        } catch {
            throw SendFailure(kind: .encoding, target: target.qualifiedName, reason: error.message)
        }
        return try shown.preparedRequest()
    }

    /// The request as it would be sent, plugins applied, for `--dry-run`.
    public func preparedRequest() throws(SendFailure) -> Request {
        do {
            return try built()
        } catch {
            throw SendFailure(error: error, target: target, redactor: Redactor())
        }
    }
}
