import MoyaCore

/// A response: its status, body, and the request and HTTP response it came from.
public final class Response: CustomDebugStringConvertible, Equatable, Sendable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The body.
    public let data: Data
    /// The request as it was sent, if there was one.
    public let request: URLRequest?
    /// The HTTP response; nil for a stub that gave only a status code.
    public let response: HTTPURLResponse?

    /// Creates a response.
    public init(statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil) {
        self.statusCode = statusCode
        self.data = data
        self.request = request
        self.response = response
    }

    /// A description of the status code and data length.
    public var description: String {
        "Status Code: \(statusCode), Data Length: \(data.count)"
    }

    /// The same as `description`.
    public var debugDescription: String { description }

    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.data == rhs.data && lhs.response == rhs.response
    }

    /// The same response for MoyaCore, which maps and filters it.
    var core: MoyaCore.Response {
        MoyaCore.Response(
            statusCode: statusCode, data: data, request: request.flatMap { try? MoyaCore.Request($0) },
            response: response.map(Bridge.head))
    }
}

extension Response {
    /// Returns the response when its status code is in `statusCodes`; else throws
    /// `MoyaError.statusCode`.
    public func filter<R: RangeExpression>(statusCodes: R) throws -> Response where R.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw MoyaError.statusCode(self) }
        return self
    }

    /// Returns the response when its status code is `statusCode`; else throws
    /// `MoyaError.statusCode`.
    public func filter(statusCode: Int) throws -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// Returns the response for 200 to 299; else throws `MoyaError.statusCode`.
    public func filterSuccessfulStatusCodes() throws -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Returns the response for 200 to 399; else throws `MoyaError.statusCode`.
    public func filterSuccessfulStatusAndRedirectCodes() throws -> Response {
        try filter(statusCodes: 200...399)
    }

    /// The body as a Foundation JSON object; empty data is `NSNull` unless
    /// `failsOnEmptyData`.
    public func mapJSON(failsOnEmptyData: Bool = true) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            if data.isEmpty, !failsOnEmptyData { return NSNull() }
            throw MoyaError.jsonMapping(self)
        }
    }

    /// The body as UTF-8 text, or the string at a dotted key path of the JSON body.
    public func mapString(atKeyPath keyPath: String? = nil) throws -> String {
        do {
            return try core.mapString(atKeyPath: keyPath)
        } catch {
            throw MoyaError.stringMapping(self)
        }
    }

    /// Decodes the body, or the value at a dotted key path of it. With `failsOnEmptyData`
    /// off, an empty body decodes as `{}`, or `[{}]`, when the type allows.
    public func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws -> D {
        if data.isEmpty, !failsOnEmptyData {
            for empty in ["{}", "[{}]"] {
                if let value = try? decoder.decode(D.self, from: Data(empty.utf8)) { return value }
            }
        }
        do {
            return try core.map(type, atKeyPath: keyPath, using: decoder, failsOnEmptyData: failsOnEmptyData)
        } catch {
            switch error {
            case .objectMapping(let underlying, _): throw MoyaError.objectMapping(underlying, self)
            case .stringMapping: throw MoyaError.stringMapping(self)
            default: throw MoyaError.jsonMapping(self)
            }
        }
    }
}
