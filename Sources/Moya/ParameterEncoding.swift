import MoyaCore

/// Something a `URLRequest` can be made from, as in Alamofire.
public protocol URLRequestConvertible {
    /// The request, or why it cannot be made.
    func asURLRequest() throws -> URLRequest
}

extension URLRequest: URLRequestConvertible {
    /// The request itself.
    public func asURLRequest() throws -> URLRequest { self }
}

/// Places a set of parameters into a request, as Alamofire's `ParameterEncoding` does.
public protocol ParameterEncoding {
    /// Returns the request with `parameters` encoded into it.
    func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest
}

/// Encodes parameters as `key=value` pairs in the query or in a form body, as Alamofire's
/// `URLEncoding` does; MoyaCore's `URLEncoding` writes them.
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded pairs go.
    public enum Destination {
        /// The query for `GET`, `HEAD` and `DELETE`; the body for every other method.
        case methodDependent
        /// Always the query.
        case queryString
        /// Always the body.
        case httpBody
    }

    /// How an array's key is written.
    public enum ArrayEncoding {
        /// `key[]=a&key[]=b`.
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets
    }

    /// How a boolean is written.
    public enum BoolEncoding {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// Method-dependent destination, brackets, numeric booleans.
    public static var `default`: URLEncoding { URLEncoding() }
    /// Always in the query.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }
    /// Always in a form body.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    /// Where the pairs go.
    public let destination: Destination
    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding
    /// How booleans are written.
    public let boolEncoding: BoolEncoding

    /// Creates a URL encoding.
    public init(
        destination: Destination = .methodDependent, arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    public func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        try core.encode(urlRequest, with: parameters)
    }

    /// The same encoding in MoyaCore, which does the encoding.
    var core: MoyaCore.URLEncoding {
        MoyaCore.URLEncoding(
            destination: destination.core, arrayEncoding: arrayEncoding.core, boolEncoding: boolEncoding.core)
    }
}

extension URLEncoding.Destination {
    var core: MoyaCore.URLEncoding.Destination {
        switch self {
        case .methodDependent: .methodDependent
        case .queryString: .queryString
        case .httpBody: .httpBody
        }
    }
}

extension URLEncoding.ArrayEncoding {
    var core: MoyaCore.URLEncoding.ArrayEncoding {
        switch self {
        case .brackets: .brackets
        case .noBrackets: .noBrackets
        case .indexInBrackets: .indexInBrackets
        }
    }
}

extension URLEncoding.BoolEncoding {
    var core: MoyaCore.URLEncoding.BoolEncoding {
        switch self {
        case .numeric: .numeric
        case .literal: .literal
        }
    }
}

/// Encodes parameters as a JSON body, as Alamofire's `JSONEncoding` does; MoyaCore's
/// `JSONEncoding` writes it, its keys sorted.
public struct JSONEncoding: ParameterEncoding {
    /// Compact JSON.
    public static var `default`: JSONEncoding { JSONEncoding() }
    /// Indented JSON.
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

    /// The writing options; only `.prettyPrinted` changes the body.
    public let options: JSONSerialization.WritingOptions

    /// Creates a JSON encoding.
    public init(options: JSONSerialization.WritingOptions = []) {
        self.options = options
    }

    public func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        try core.encode(urlRequest, with: parameters)
    }

    /// The same encoding in MoyaCore, which does the encoding.
    var core: MoyaCore.JSONEncoding { MoyaCore.JSONEncoding(prettyPrinted: options.contains(.prettyPrinted)) }
}

extension MoyaCore.ParameterEncoding {
    /// Encodes through MoyaCore: the request and parameters are carried over, and back.
    func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        let request = try MoyaCore.Request(try urlRequest.asURLRequest())
        let encoded = try encode(request, with: try parameters.map(Bridge.parameters))
        return URLRequest(encoded)
    }
}
