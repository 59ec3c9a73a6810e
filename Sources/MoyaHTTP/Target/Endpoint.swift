#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a stub answers with.
public enum EndpointSampleResponse: Sendable {
    /// A status code and a body.
    case networkResponse(Int, Data)
    /// A status, headers and a body.
    case response(ResponseHead, Data)
    /// A failure to get any response.
    case networkError(any Error)
}

/// A target mapped to what the provider needs: a URL, a method, a task, headers and a sample.
public struct Endpoint: Sendable {
    /// Produces the sample response when the request is stubbed.
    public typealias SampleResponseClosure = @Sendable () -> EndpointSampleResponse

    /// The absolute URL.
    public let url: String
    /// The stubbed response.
    public let sampleResponseClosure: SampleResponseClosure
    /// The HTTP method.
    public let method: Method
    /// The task.
    public let task: Task
    /// The headers, in the order they are sent.
    public let headers: HTTPHeaders

    /// The headers as a dictionary, as Moya has them; nil when there are none.
    public var httpHeaderFields: [String: String]? {
        headers.fields.isEmpty ? nil : headers.dictionary
    }

    /// Creates an endpoint whose headers are sent sorted by name.
    public init(
        url: String, sampleResponseClosure: @escaping SampleResponseClosure, method: Method, task: Task,
        httpHeaderFields: [String: String]?
    ) {
        self.init(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
            headers: HTTPHeaders(httpHeaderFields ?? [:]))
    }

    /// Creates an endpoint whose headers are sent in their order.
    public init(
        url: String, sampleResponseClosure: @escaping SampleResponseClosure, method: Method, task: Task,
        headers: HTTPHeaders
    ) {
        self.url = url
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.headers = headers
    }

    /// The endpoint a target maps to by default, as Moya maps it: the URL from
    /// `URL(target:)`, the target's sample, method, task and headers.
    public init(target: some TargetType) {
        self.init(
            url: URL(target: target).absoluteString, sampleResponseClosure: { target.stubResponse },
            method: target.method, task: target.task, headers: target.headerFields)
    }

    /// A copy with `newHTTPHeaderFields` added; the new values win, and an empty dictionary
    /// changes nothing.
    public func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        adding(HTTPHeaders(newHTTPHeaderFields))
    }

    /// A copy with `fields` added in their order: a field the endpoint has keeps its place and
    /// takes the new value; a new one goes after the others.
    public func adding(_ fields: HTTPHeaders) -> Endpoint {
        guard !fields.fields.isEmpty else { return self }
        var headers = headers
        for field in fields { headers.update(name: field.name, value: field.value) }
        return replacing(headers: headers)
    }

    /// A copy with these headers in place of its own.
    public func replacing(headers: HTTPHeaders) -> Endpoint {
        Endpoint(url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task, headers: headers)
    }

    /// A copy with another task.
    public func replacing(task: Task) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task, headers: headers)
    }

    /// A copy that answers stubs with `sampleResponseClosure`.
    public func replacing(sampleResponseClosure: @escaping SampleResponseClosure) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task, headers: headers)
    }

    /// The request this endpoint describes, its task encoded.
    public func urlRequest() throws(MoyaError) -> Request {
        guard let requestURL = URL(string: url) else { throw MoyaError.requestMapping(url) }
        var request = Request(url: requestURL, method: method, headers: headers)
        switch task {
        case .requestPlain, .downloadDestination:
            return request
        case .uploadFile(let file):
            request.body = .file(file)
            return request
        case .requestData(let data):
            request.httpBody = data
            return request
        case .requestJSONEncodable(let encodable):
            return try request.encoded(encodable, with: nil)
        case .requestCustomJSONEncodable(let encodable, let encoder):
            return try request.encoded(encodable, with: encoder)
        case .requestParameters(let parameters, let encoding):
            return try request.encoded(parameters, with: encoding)
        case .downloadParameters(let parameters, let encoding, _):
            return try request.encoded(parameters, with: encoding)
        case .requestCompositeData(let body, let urlParameters):
            request.httpBody = body
            return try request.encoded(urlParameters, with: URLEncoding.queryString)
        case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            if let urlEncoding = bodyEncoding as? URLEncoding, urlEncoding.destination != .httpBody {
                throw MoyaError.parameterEncoding(
                    ParameterEncodingError(
                        "a composite task's body encoding must put its parameters in the body; "
                            + "URLEncoding with destination \(urlEncoding.destination) would put them in the query"))
            }
            request = try request.encoded(bodyParameters, with: bodyEncoding)
            return try request.encoded(urlParameters, with: URLEncoding.queryString)
        case .uploadMultipartFormData(let form):
            return try request.encoded(form)
        case .uploadCompositeMultipartFormData(let form, let urlParameters):
            request = try request.encoded(form)
            return try request.encoded(urlParameters, with: URLEncoding.queryString)
        }
    }
}

extension Request {
    func encoded(_ parameters: Parameters, with encoding: any ParameterEncoding) throws(MoyaError) -> Request {
        do {
            return try encoding.encode(self, with: parameters)
        } catch {
            throw MoyaError.parameterEncoding(error)
        }
    }

    /// A JSON body; with no encoder given, a `JSONValue` is written directly, keeping its
    /// members' order, which `JSONEncoder` would not. Any other value is written with its
    /// keys sorted, so that the same value always gives the same bytes: `JSONEncoder` alone
    /// writes a keyed container in the order of a dictionary, which changes from one
    /// encoding to the next.
    func encoded(_ encodable: any Encodable & Sendable, with encoder: JSONEncoder?) throws(MoyaError) -> Request {
        var request = self
        if encoder == nil, let json = encodable as? JSONValue {
            request.httpBody = json.data()
        } else {
            do {
                request.httpBody = try JSONEncoder.sortingKeys(like: encoder).encode(encodable)
            } catch {
                throw MoyaError.encodableMapping(error)
            }
        }
        if !request.headers.contains("Content-Type") {
            request.headers.update(name: "Content-Type", value: "application/json")
        }
        return request
    }

    func encoded(_ form: MultipartFormData) throws(MoyaError) -> Request {
        var request = self
        do {
            request.httpBody = try form.encode()
        } catch {
            throw MoyaError.underlying(NetworkError(.fileFailed, "cannot read a multipart file: \(error)"), nil)
        }
        request.headers.update(name: "Content-Type", value: form.contentType)
        return request
    }
}

extension JSONEncoder {
    /// An encoder set as `encoder` is, or as a new one, that also sorts keys.
    static func sortingKeys(like encoder: JSONEncoder?) -> JSONEncoder {
        let sorting = JSONEncoder()
        sorting.outputFormatting = [.sortedKeys]
        guard let encoder else { return sorting }
        sorting.outputFormatting = encoder.outputFormatting.union(.sortedKeys)
        sorting.dateEncodingStrategy = encoder.dateEncodingStrategy
        sorting.dataEncodingStrategy = encoder.dataEncodingStrategy
        sorting.nonConformingFloatEncodingStrategy = encoder.nonConformingFloatEncodingStrategy
        sorting.keyEncodingStrategy = encoder.keyEncodingStrategy
        sorting.userInfo = encoder.userInfo
        return sorting
    }
}
