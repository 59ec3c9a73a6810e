import MoyaCore

/// What a stub answers with.
public enum EndpointSampleResponse {
    /// A status code and a body.
    case networkResponse(Int, Data)
    /// A whole response and a body.
    case response(HTTPURLResponse, Data)
    /// A failure to get any response.
    case networkError(NSError)
}

/// A target mapped to what a provider needs: a URL, a method, a task, headers and a sample.
open class Endpoint {
    /// Produces the sample response when the request is stubbed.
    public typealias SampleResponseClosure = () -> EndpointSampleResponse

    /// The absolute URL.
    public let url: String
    /// The stubbed response.
    public let sampleResponseClosure: SampleResponseClosure
    /// The HTTP method.
    public let method: Moya.Method
    /// The task.
    public let task: Task
    /// The headers.
    public let httpHeaderFields: [String: String]?

    /// Creates an endpoint.
    public init(
        url: String, sampleResponseClosure: @escaping SampleResponseClosure, method: Moya.Method, task: Task,
        httpHeaderFields: [String: String]?
    ) {
        self.url = url
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
    }

    /// A copy with `newHTTPHeaderFields` added; the new values win, and an empty dictionary
    /// changes nothing.
    open func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        guard !newHTTPHeaderFields.isEmpty else { return self.copy(task: task) }
        let headers = (httpHeaderFields ?? [:]).merging(newHTTPHeaderFields) { $1 }
        return Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
            httpHeaderFields: headers)
    }

    /// A copy with another task.
    open func replacing(task: Task) -> Endpoint {
        copy(task: task)
    }

    private func copy(task: Task) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
            httpHeaderFields: httpHeaderFields)
    }
}

extension Endpoint {
    /// The request this endpoint describes, its task's parameters and body encoded by
    /// MoyaCore. A multipart or file body is left to the provider, as in Moya.
    ///
    /// Unlike Moya, which stops the program, a `requestCompositeParameters` task whose body
    /// encoding would put its parameters in the query throws `.parameterEncoding`.
    public func urlRequest() throws -> URLRequest {
        URLRequest(try coreRequest())
    }

    /// The request as MoyaCore builds it.
    func coreRequest() throws(MoyaError) -> MoyaCore.Request {
        // A string that is not a URL as it stands, such as one with a space, is refused, as
        // Foundation refused it before it learned to percent-encode what it is given.
        guard URL(string: url, encodingInvalidCharacters: false) != nil else { throw MoyaError.requestMapping(url) }
        let core = MoyaCore.Endpoint(
            url: url, sampleResponseClosure: { .networkResponse(200, Data()) }, method: method,
            task: try requestTask(), httpHeaderFields: httpHeaderFields)
        do {
            return try core.urlRequest()
        } catch {
            throw Bridge.error(error, Exchange.detached)
        }
    }

    /// The MoyaCore task that builds this endpoint's request, without a multipart body.
    private func requestTask() throws(MoyaError) -> MoyaCore.Task {
        do {
            switch task {
            case .requestPlain, .uploadMultipartFormData, .uploadMultipart, .downloadDestination:
                return .requestPlain
            case .uploadFile(let file):
                return .uploadFile(file)
            case .requestData(let data):
                return .requestData(data)
            case .requestJSONEncodable(let json as JSONValue):
                // Written as it is, members in order, as MoyaCore writes it.
                return .requestJSONEncodable(json)
            case .requestJSONEncodable(let encodable):
                return .requestJSONEncodable(AnyEncodable(encodable))
            case .requestCustomJSONEncodable(let encodable, let encoder):
                return .requestCustomJSONEncodable(AnyEncodable(encodable), encoder: encoder)
            case .requestParameters(let parameters, let encoding), .downloadParameters(let parameters, let encoding, _):
                let (coreParameters, coreEncoding) = try Self.core(parameters, encoding)
                return .requestParameters(parameters: coreParameters, encoding: coreEncoding)
            case .requestCompositeData(let body, let urlParameters):
                return .requestCompositeData(bodyData: body, urlParameters: try Bridge.parameters(urlParameters))
            case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
                let (coreParameters, coreEncoding) = try Self.core(bodyParameters, bodyEncoding)
                return .requestCompositeParameters(
                    bodyParameters: coreParameters, bodyEncoding: coreEncoding,
                    urlParameters: try Bridge.parameters(urlParameters))
            case .uploadCompositeMultipartFormData(_, let urlParameters),
                .uploadCompositeMultipart(_, let urlParameters):
                return .requestParameters(
                    parameters: try Bridge.parameters(urlParameters), encoding: MoyaCore.URLEncoding.queryString)
            }
        } catch {
            throw MoyaError.parameterEncoding(error)
        }
    }

    /// The MoyaCore encoding for a Moya one: Alamofire's two are MoyaCore's own; any other
    /// is called as it is, with the parameters as given.
    private static func core(_ parameters: [String: Any], _ encoding: ParameterEncoding) throws
        -> (MoyaCore.Parameters, any MoyaCore.ParameterEncoding)
    {
        switch encoding {
        case let url as URLEncoding: return (try Bridge.parameters(parameters), url.core)
        case let json as JSONEncoding: return (try Bridge.parameters(parameters), json.core)
        default:
            return ([:], ForeignEncoding(encoding: encoding, parameters: parameters))
        }
    }

    /// The multipart body a task sends, if any.
    var multipartFormData: MultipartFormData? {
        switch task {
        case .uploadMultipartFormData(let form), .uploadCompositeMultipartFormData(let form, _): form
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _): MultipartFormData(parts: parts)
        default: nil
        }
    }
}

/// A parameter encoding written for Moya, called from MoyaCore with the parameters it was
/// given; only the request crosses over.
private struct ForeignEncoding: MoyaCore.ParameterEncoding, @unchecked Sendable {
    // Called only while the request is built, on the thread that builds it.
    let encoding: ParameterEncoding
    let parameters: [String: Any]

    func encode(_ request: MoyaCore.Request, with _: MoyaCore.Parameters?) throws -> MoyaCore.Request {
        try MoyaCore.Request(try encoding.encode(URLRequest(request), with: parameters))
    }
}

/// Any `Encodable`, so that a Moya task's value can be encoded by MoyaCore.
struct AnyEncodable: Encodable, @unchecked Sendable {
    // Encoded only while the request is built, on the thread that builds it.
    private let value: Encodable

    init(_ value: Encodable) {
        self.value = value
    }

    func encode(to encoder: Encoder) throws {
        try value.encode(to: encoder)
    }
}

extension Endpoint: Equatable, Hashable {
    /// Whether two requests have the same URL, method, headers and body, which Apple's
    /// `URLRequest` equality compares and Linux's does not all compare.
    private static func sameRequests(_ left: URLRequest, _ right: URLRequest) -> Bool {
        left.url == right.url && left.httpMethod == right.httpMethod
            && left.allHTTPHeaderFields == right.allHTTPHeaderFields && left.httpBody == right.httpBody
    }

    public func hash(into hasher: inout Hasher) {
        switch task {
        case .uploadFile(let file): hasher.combine(file)
        default: if let form = multipartFormData { hasher.combine(form) }
        }
        if let request = try? urlRequest() {
            hasher.combine(request.url)
            hasher.combine(request.httpMethod)
            hasher.combine(request.allHTTPHeaderFields)
            hasher.combine(request.httpBody)
        } else {
            hasher.combine(url)
        }
    }

    /// Equal when they build equal requests and send the same file or multipart body.
    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        let sameBodies: Bool
        switch (lhs.task, rhs.task) {
        case (.uploadFile(let left), .uploadFile(let right)): sameBodies = left == right
        default: sameBodies = lhs.multipartFormData == rhs.multipartFormData
        }
        let lhsRequest = try? lhs.urlRequest()
        let rhsRequest = try? rhs.urlRequest()
        switch (lhsRequest, rhsRequest) {
        case (let left?, let right?): return sameRequests(left, right) && sameBodies
        case (nil, nil): return lhs.hashValue == rhs.hashValue && sameBodies
        default: return false
        }
    }
}
