import MoyaBinding
import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A spec target prepared once for sending: resolved with its arguments, its extra headers
/// and its policy, with what may be printed of it. From it come the MoyaCore request, its
/// printable form with every secret masked (what `call --dry-run --json` prints), the sample a
/// stub answers with, the policy and the secrets; the client sends `call`.
public struct PreparedCall: Sendable {
    /// The call as it is sent: the resolved target, the extra headers and the policy.
    public let call: SpecCall
    /// What may be printed of the call's exchanges: the request masked, the secrets scrubbed.
    public let redactor: Redactor

    /// The time limit, retries, redirects and stubbing.
    public var policy: CallPolicy { call.policy }
    /// What never prints.
    public var secrets: SecretSet { call.target.secrets }
    /// What a stub answers with.
    public var sample: EndpointSampleResponse { call.target.stubResponse }

    /// The request, plugins applied. A login's token, which only sending gets, stands as
    /// `<token from SERVICE.TARGET>`.
    public func request() throws(SendFailure) -> Request {
        var shown = call
        shown.credential = call.target.login.map {
            Authenticator.Credential(token: "<token from \($0.targetReference)>")
        }
        return try shown.preparedRequest()
    }

    /// What may be printed of the request: rendered from the same bound values as the request,
    /// each secret as the mask.
    public func printable() throws(SendFailure) -> PrintableRequest {
        guard redactor.isEnabled else { return redactor.printable(try request()) }
        let masked: Request
        if let carried = redactor.maskedRequest { masked = carried } else { masked = try call.maskedRequest() }
        var shown = redactor
        shown.maskedRequest = masked
        return shown.printable(masked)
    }

    /// Resolves `target` of `service` with `options` and prepares it, with `headers` added as
    /// `-H` adds them, `secrets` as more values never to print (a flow's captured secrets),
    /// and the policy `overrides` give. A live call that names a sample asks for it with
    /// `Prefer: example=NAME`, as mock servers understand (Prism's convention; a server that
    /// does not know the preference ignores it, RFC 7240), unless it sets `Prefer` itself.
    /// With `showingSecrets`, the printable form shows them. With `printsRequest`, the redactor
    /// carries the printable form for a logger; without, it is rendered only when asked for.
    /// `keepsDownloadsInMemory` keeps a download's body in the response, as
    /// checks read it. `pageURL` is where a later page is asked for (`SpecCall.pageURL`);
    /// `sendsCredentials` is false for one on another origin.
    public static func prepare(
        _ target: TargetSpec, of service: ServiceSpec, with options: CallOptions, headers: HTTPHeaders = [:],
        secrets: SecretSet = .none, overrides: CallPolicy.Overrides = CallPolicy.Overrides(),
        showingSecrets: Bool = false, printsRequest: Bool = true, keepsDownloadsInMemory: Bool = false,
        pageURL: URL? = nil, sendsCredentials: Bool = true
    ) throws(ResolveError) -> PreparedCall {
        let policy = CallPolicy.decide(overrides, target: target, service: service)
        // A stub sends nothing, so its secrets' sources are not read (`SecretVault`).
        var options = options
        options.leavesSecretsUnread = policy.stub != .never
        var resolved = try service.resolve(target, with: options)
        resolved.secrets.add(secrets)
        // `-H` binds its credentials here: the header is masked whole, and its value is
        // scrubbed from what the server echoes.
        for field in headers where CredentialNames.isCredential(name: field.name) {
            resolved.secrets.add(
                Redactor(secretHeaders: [field.name]).credentials(in: [field.name: field.value]),
                headers: [field.name])
        }
        var headers = headers
        if let sample = options.sample, policy.stub == .never, !resolved.headerFields.contains("Prefer"),
            !headers.contains("Prefer")
        {
            headers.add(name: "Prefer", value: "example=\(sample)")
        }
        var call = SpecCall(
            target: resolved, extraHeaders: headers, policy: policy, keepsDownloadsInMemory: keepsDownloadsInMemory)
        call.pageURL = pageURL
        call.sendsCredentials = sendsCredentials
        return PreparedCall(
            call: call, redactor: call.redactor(showingSecrets: showingSecrets, printsRequest: printsRequest))
    }
}
