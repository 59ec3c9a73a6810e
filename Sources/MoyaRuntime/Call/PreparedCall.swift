import MoyaCore
import MoyaSpec

/// A spec target prepared once for sending: the MoyaCore request, its printable form with
/// every secret masked, the sample it is answered with when stubbed, its policy and its
/// secrets. `call --dry-run --json` prints `printable`; the client sends `call`.
public struct PreparedCall: Sendable {
    /// The call as it is sent: the resolved target, the extra headers and the policy.
    public let call: SpecCall
    /// The request, plugins applied. A login's token, which only sending gets, stands as
    /// `<token from SERVICE.TARGET>`.
    public let request: Request
    /// What may be printed of the request.
    public let printable: PrintableRequest
    /// What a stub answers with.
    public let sample: EndpointSampleResponse
    /// What may be printed of the call's exchanges: the request masked, the secrets scrubbed.
    public let redactor: Redactor

    /// The time limit, retries, redirects and stubbing.
    public var policy: CallPolicy { call.policy }
    /// The values that never print.
    public var secrets: Set<String> { call.target.secretValues }

    /// Resolves `target` of `service` with `options` and prepares it, with `headers` added as
    /// `-H` adds them and the policy `overrides` give. With `showingSecrets`, the printable
    /// form shows them. Without `printsRequest`, no masked twin is resolved, and the printable
    /// form is masked by its secret headers and scrubbed of secret values. A resolve error
    /// throws `ResolveError`; a request that cannot be built, `SendFailure`.
    public static func prepare(
        _ target: TargetSpec, of service: ServiceSpec, with options: CallOptions, headers: HTTPHeaders = [:],
        overrides: CallPolicy.Overrides = CallPolicy.Overrides(), showingSecrets: Bool = false,
        printsRequest: Bool = true
    ) throws -> PreparedCall {
        let resolved = try service.resolve(target, with: options)
        // The masked twin: the same target resolved with its secrets as placeholders.
        let twin = showingSecrets || !printsRequest ? nil : try service.resolve(target, with: options, masking: true)
        let call = SpecCall(
            target: resolved, extraHeaders: headers,
            policy: CallPolicy.decide(overrides, target: target, service: service))
        let redactor = call.redactor(showingSecrets: showingSecrets, twin: twin)
        var shown = call
        shown.credential = resolved.login.map { Authenticator.Credential(token: "<token from \($0.targetReference)>") }
        let request = try shown.preparedRequest()
        return PreparedCall(
            call: call, request: request, printable: redactor.printable(request),
            sample: call.endpoint(for: resolved).sampleResponseClosure(), redactor: redactor)
    }

    /// The redactor for an exchange that also sent `secrets`, such as a login's token.
    public func redactor(adding secrets: Set<String>) -> Redactor {
        guard !secrets.isSubset(of: call.target.secretValues) else { return redactor }
        return Redactor(
            isEnabled: redactor.isEnabled, secretHeaders: call.target.secretHeaders,
            secretValues: call.target.secretValues.union(secrets), maskedRequest: redactor.maskedRequest)
    }
}
