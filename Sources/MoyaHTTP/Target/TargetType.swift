#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Describes one API endpoint: everything the provider needs to build and send a request.
public protocol TargetType: Sendable {
    /// The base URL every path of this API is appended to.
    var baseURL: URL { get }

    /// The path appended to `baseURL`; an empty path leaves `baseURL` unchanged.
    var path: String { get }

    /// The HTTP method.
    var method: Method { get }

    /// How parameters and bodies are put into the request.
    var task: Task { get }

    /// Headers sent with the request, if any.
    var headers: [String: String]? { get }

    /// The headers in the order they are sent. By default `headers`, sorted by name; a target
    /// that knows an order of its own, as a spec's does, gives it here.
    var headerFields: HTTPHeaders { get }

    /// What a stub answers with. By default `sampleData` with status 200, as in Moya; a target
    /// that knows more, as a spec's does, gives its status, headers or network error here.
    var stubResponse: EndpointSampleResponse { get }

    /// Data returned when the request is stubbed.
    var sampleData: Data { get }

    /// Which status codes count as a success.
    var validationType: ValidationType { get }
}

extension TargetType {
    /// No sample data unless the target gives some.
    public var sampleData: Data { Data() }

    /// No validation unless the target asks for it, as in Moya.
    public var validationType: ValidationType { .none }

    /// `headers`, sorted by name for a stable order.
    public var headerFields: HTTPHeaders { HTTPHeaders(headers ?? [:]) }

    /// `sampleData` with status 200.
    public var stubResponse: EndpointSampleResponse { .networkResponse(200, sampleData) }
}
