import MoyaCore

/// Describes one API endpoint: everything a provider needs to build and send its request.
public protocol TargetType {
    /// The base URL every path of this API is appended to.
    var baseURL: URL { get }

    /// The path appended to `baseURL`; an empty path leaves `baseURL` unchanged.
    var path: String { get }

    /// The HTTP method.
    var method: Moya.Method { get }

    /// Data returned when the request is stubbed.
    var sampleData: Data { get }

    /// How parameters and bodies are put into the request.
    var task: Task { get }

    /// Which status codes count as a success.
    var validationType: ValidationType { get }

    /// Headers sent with the request, if any.
    var headers: [String: String]? { get }
}

extension TargetType {
    /// No validation unless the target asks for it.
    public var validationType: ValidationType { .none }

    /// No sample data unless the target gives some.
    public var sampleData: Data { Data() }
}

extension URL {
    /// The target's `baseURL` with its `path` appended; an empty path leaves the base URL as
    /// it is, with no trailing slash added. What a path may not hold is percent-encoded, and
    /// escapes already in it are kept, so a path escaped by hand is escaped once.
    public init<T: TargetType>(target: T) {
        self = target.baseURL.appendingMoyaPath(target.path)
    }
}
