import MoyaHTTP
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A target resolved for one call: params bound, environment chosen. It conforms to
/// `MoyaHTTP.TargetType`, so that the runtime, or a `MoyaProvider`, can send it.
public struct SpecTarget: AccessTokenAuthorizable {
    /// The service's name.
    public var service: String
    /// The target's name.
    public var name: String
    /// The base URL, the environment's if one was chosen.
    public var baseURL: URL
    /// The path with param values percent-encoded as path segments.
    public var path: String
    /// The HTTP method.
    public var method: MoyaHTTP.Method
    /// The task, with param values bound.
    public var task: MoyaHTTP.Task
    /// Service, environment and target headers merged in the order the spec declares them; a
    /// later declaration of a name wins and takes its place.
    public var headerFields: HTTPHeaders
    /// The headers as a dictionary, as Moya has them.
    public var headers: [String: String]? { headerFields.fields.isEmpty ? nil : headerFields.dictionary }
    /// The body of the sample in use.
    public var sampleData: Data
    /// The validation in force.
    public var validationType: ValidationType
    /// The sample in use as a stub answers it, status, headers and all, or its network error.
    public var sampleResponse: EndpointSampleResponse
    /// The scheme `auth:` asks for, if any; `AccessTokenPlugin` sends it with `accessToken`.
    public var authorizationType: AuthorizationType?
    /// The token `auth:` gives: the bearer or custom token, or base64 of `user:password`.
    public var accessToken: String?
    /// What the call bound secret, to redact wherever it would print: environment values,
    /// `auth:` credentials, params declared secret, and the header names whose values are.
    public var secrets: SecretSet
    /// The login whose token the request carries, when `auth:` is a login; the caller that
    /// sends it obtains the token.
    public var login: LoginSpec? = nil
    /// What the call bound, each value with its secrecy: the request and its printable form
    /// are both rendered from it.
    public let binding: TargetBinding
    /// A WebSocket target's script, its messages bound.
    public var script: [SocketStep] = []
    /// The target's `stream:`, if it declares one.
    public var stream: StreamSpec? { binding.target.stream }

    /// The target as it may be printed: rendered from the same `binding`, with every secret
    /// value, environment value and credential as `Redactor.placeholder`, which every encoder
    /// passes through unchanged and the printer shows as the mask. Nothing is bound or
    /// checked again.
    public func masked() throws(ResolveError) -> SpecTarget {
        var resolver = TargetResolver(binding: binding, masking: true)
        return try resolver.render()
    }

    /// The whole `Authorization` header value `auth:` gives, if any.
    public var authorization: String? {
        guard let authorizationType, let accessToken else { return nil }
        return "\(authorizationType.value) \(accessToken)"
    }

    /// The `SERVICE.TARGET` name.
    public var qualifiedName: String { "\(service).\(name)" }

    /// The schema its responses must match, for `expect.schema: true`: the chosen sample's,
    /// else the target's.
    public var responseSchema: SchemaSpec? { binding.target.schema(forSample: binding.sampleName) }

    /// The sample in use, so that `MoyaProvider<SpecTarget>` stubs a target as
    /// `moya-cli call --stub` does.
    public var stubResponse: EndpointSampleResponse { sampleResponse }
}

extension SampleNetworkError {
    /// The network error code a sample error stands for.
    public var code: NetworkError.Code {
        switch self {
        case .timeout: .timedOut
        case .notConnectedToInternet: .notConnectedToInternet
        case .cannotFindHost: .cannotFindHost
        case .cannotConnectToHost: .cannotConnectToHost
        case .networkConnectionLost: .networkConnectionLost
        case .cancelled: .cancelled
        }
    }
}
