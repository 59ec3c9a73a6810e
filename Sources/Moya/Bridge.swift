import MoyaCore

/// Carries values between Moya's Foundation-typed API and MoyaCore, which does the work.
enum Bridge {
    /// Parameters MoyaCore can encode: the values Moya's encodings accept, made `Sendable`.
    static func parameters(_ parameters: [String: Any]) throws -> MoyaCore.Parameters {
        try parameters.mapValues(value)
    }

    private static func value(_ value: Any) throws -> any Sendable {
        switch value {
        case let string as String: return string
        case let bool as Bool: return bool
        case let int as Int: return int
        case let double as Double: return double
        case let float as Float: return float
        case let integer as any BinaryInteger & Sendable: return integer
        case let number as NSNumber: return number.isBoolean ? number.boolValue as any Sendable : number.jsonValue
        case let array as [Any]: return try array.map(Self.value)
        case let dictionary as [String: Any]: return try dictionary.mapValues(Self.value)
        case is NSNull: return MoyaCore.JSONValue.null
        case let date as Date: return date.description
        case let url as URL: return url.absoluteString
        case let sendable as any Sendable & CustomStringConvertible: return sendable.description
        default: throw ParameterEncodingError("a parameter of type \(type(of: value)) cannot be encoded")
        }
    }

    /// A MoyaCore error as Moya reports it: a validation failure is `.underlying` of
    /// `.statusCode`, as Moya's stubs report it, and a transport failure is a `URLError`.
    static func error(_ error: MoyaCore.MoyaError, _ exchange: Exchange) -> MoyaError {
        func response(_ core: MoyaCore.Response) -> Response { exchange.response(core) }
        switch error {
        case .imageMapping(let core): return .imageMapping(response(core))
        case .jsonMapping(let core): return .jsonMapping(response(core))
        case .stringMapping(let core): return .stringMapping(response(core))
        case .objectMapping(let underlying, let core): return .objectMapping(underlying, response(core))
        case .encodableMapping(let underlying): return .encodableMapping(underlying)
        case .statusCode(let core):
            let converted = response(core)
            return .underlying(MoyaError.statusCode(converted), converted)
        case .underlying(let underlying, let core):
            return .underlying(Self.error(underlying, url: core?.request?.url), core.map(response))
        case .requestMapping(let url): return .requestMapping(url)
        case .parameterEncoding(let underlying): return .parameterEncoding(underlying)
        }
    }

    /// A Moya error carried into MoyaCore, so that the next plugin and the caller see it.
    static func error(_ error: MoyaError, _ exchange: Exchange) -> MoyaCore.MoyaError {
        func response(_ moya: Response) -> MoyaCore.Response { exchange.core(moya) }
        switch error {
        case .imageMapping(let moya): return .imageMapping(response(moya))
        case .jsonMapping(let moya): return .jsonMapping(response(moya))
        case .stringMapping(let moya): return .stringMapping(response(moya))
        case .objectMapping(let underlying, let moya): return .objectMapping(underlying, response(moya))
        case .encodableMapping(let underlying): return .encodableMapping(underlying)
        case .statusCode(let moya): return .statusCode(response(moya))
        case .underlying(MoyaError.statusCode(let moya), _): return .statusCode(response(moya))
        case .underlying(let underlying, let moya): return .underlying(underlying, moya.map(response))
        case .requestMapping(let url): return .requestMapping(url)
        case .parameterEncoding(let underlying): return .parameterEncoding(underlying)
        }
    }

    /// A transport failure as the `NSError` in `NSURLErrorDomain` URLSession would give, so
    /// that `case .underlying(let error as NSError, _)` matches on Linux too, where a
    /// `URLError` does not cast to `NSError`; other errors as they are.
    static func error(_ error: any Error, url: URL?) -> any Error {
        guard let network = error as? NetworkError else { return error }
        let code: URLError.Code
        switch network.code {
        case .cancelled: code = .cancelled
        case .timedOut: code = .timedOut
        case .cannotFindHost: code = .cannotFindHost
        case .cannotConnectToHost: code = .cannotConnectToHost
        case .networkConnectionLost: code = .networkConnectionLost
        case .notConnectedToInternet: code = .notConnectedToInternet
        case .tooManyRedirects: code = .httpTooManyRedirects
        case .secureConnectionFailed: code = .secureConnectionFailed
        case .badServerResponse: code = .badServerResponse
        case .fileFailed: code = .cannotOpenFile
        default: code = .unknown
        }
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: network.message]
        if let url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        return NSError(domain: NSURLErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// A response head as Foundation's `HTTPURLResponse`.
    static func httpResponse(_ head: ResponseHead, url: URL) -> HTTPURLResponse? {
        HTTPURLResponse(
            url: url, statusCode: head.statusCode, httpVersion: head.version, headerFields: head.headers.dictionary)
    }

    /// Foundation's `HTTPURLResponse` as a response head.
    static func head(_ response: HTTPURLResponse) -> ResponseHead {
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            headers.add(name: "\(name)", value: "\(value)")
        }
        return ResponseHead(statusCode: response.statusCode, headers: headers)
    }
}

extension NSNumber {
    /// Whether this number was made from a `Bool`.
    fileprivate var isBoolean: Bool {
        #if canImport(Darwin)
            CFGetTypeID(self) == CFBooleanGetTypeID()
        #else
            String(cString: objCType) == "c"
        #endif
    }

    /// The number as an integer when it is one, else as a double.
    fileprivate var jsonValue: any Sendable {
        let double = doubleValue
        if double.rounded() == double, let int = Int(exactly: double) { return int }
        return double
    }
}

extension MoyaCore.Request {
    /// A Foundation request carried into MoyaCore; its headers are sent sorted by name, as a
    /// dictionary has no order.
    init(_ urlRequest: URLRequest) throws {
        guard let url = urlRequest.url else { throw MoyaError.requestMapping("") }
        var headers = HTTPHeaders()
        for (name, value) in (urlRequest.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        self.init(url: url, method: Method(rawValue: urlRequest.httpMethod ?? "GET"), headers: headers)
        httpBody = urlRequest.httpBody
        if urlRequest.timeoutInterval != URLRequest(url: url).timeoutInterval {
            timeout = urlRequest.timeoutInterval
        }
    }
}

extension URLRequest {
    /// A MoyaCore request as Foundation's.
    init(_ request: MoyaCore.Request) {
        self.init(url: request.url)
        httpMethod = request.method.rawValue
        for field in request.headers {
            addValue(field.value, forHTTPHeaderField: field.name)
        }
        httpBody = request.httpBody
        if let timeout = request.timeout { timeoutInterval = timeout }
    }
}
