#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A response: its status, headers and body, and the request that produced it.
public final class Response: Sendable, CustomStringConvertible, Equatable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The body.
    public let data: Data
    /// The request as it was sent, if there was one.
    public let request: Request?
    /// The status and headers as received; nil for a stub without headers.
    public let response: ResponseHead?
    /// How many body bytes went elsewhere instead of into `data`: to a `ResponseStream`, or
    /// into a file (a download, `saveTo`); nil when the body was kept.
    public let streamedByteCount: Int?

    /// Creates a response.
    public init(
        statusCode: Int, data: Data, request: Request? = nil, response: ResponseHead? = nil,
        streamedByteCount: Int? = nil
    ) {
        self.statusCode = statusCode
        self.data = data
        self.request = request
        self.response = response
        self.streamedByteCount = streamedByteCount
    }

    /// Whether an answer with `statusCode` may carry content: a 1xx, 204 or 304 never does
    /// (RFC 9110 §6.4.1), whatever is written for it. `serve` sends none, and import writes
    /// none.
    public static func carriesContent(statusCode: Int) -> Bool {
        !(100..<200).contains(statusCode) && statusCode != 204 && statusCode != 304
    }

    /// The response headers, empty when there are none.
    public var headers: HTTPHeaders { response?.headers ?? HTTPHeaders() }

    public var description: String { "Status Code: \(statusCode), Data Length: \(data.count)" }

    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.data == rhs.data && lhs.response == rhs.response
    }

    // MARK: - Filtering

    /// Returns self when the status code is in `statusCodes`, else throws `.statusCode`.
    @discardableResult
    public func filter<R: RangeExpression>(statusCodes: R) throws(MoyaError) -> Response where R.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw MoyaError.statusCode(self) }
        return self
    }

    /// Returns self when the status code is `statusCode`, else throws `.statusCode`.
    @discardableResult
    public func filter(statusCode: Int) throws(MoyaError) -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// Returns self for 200 to 299, else throws `.statusCode`.
    @discardableResult
    public func filterSuccessfulStatusCodes() throws(MoyaError) -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Returns self for 200 to 399, else throws `.statusCode`.
    @discardableResult
    public func filterSuccessfulStatusAndRedirectCodes() throws(MoyaError) -> Response {
        try filter(statusCodes: 200...399)
    }

    // MARK: - Mapping

    /// The body as JSON; empty data is `null` unless `failsOnEmptyData`.
    public func mapJSON(failsOnEmptyData: Bool = true) throws(MoyaError) -> JSONValue {
        if data.isEmpty, !failsOnEmptyData { return .null }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw MoyaError.jsonMapping(self)
        }
    }

    /// The body as UTF-8 text, or the string at a dotted key path of the JSON body.
    public func mapString(atKeyPath keyPath: String? = nil) throws(MoyaError) -> String {
        if let keyPath {
            guard case .string(let text)? = try mapJSON().value(atKeyPath: keyPath) else {
                throw MoyaError.stringMapping(self)
            }
            return text
        }
        guard let text = String(validating: data, as: UTF8.self) else { throw MoyaError.stringMapping(self) }
        return text
    }

    /// Decodes the body, or the value at a dotted key path of it; a scalar at the key path
    /// decodes too.
    public func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws(MoyaError) -> D {
        var source = data
        if let keyPath {
            guard let value = try mapJSON(failsOnEmptyData: failsOnEmptyData).value(atKeyPath: keyPath) else {
                throw MoyaError.jsonMapping(self)
            }
            // Wrapping the value in an array lets a bare string or number decode as well.
            source = JSONValue.array([value]).data()
            do {
                guard let first = try decoder.decode([D].self, from: source).first else {
                    throw MoyaError.jsonMapping(self)
                }
                return first
            } catch let error as MoyaError {
                throw error
            } catch {
                throw MoyaError.objectMapping(error, self)
            }
        }
        if source.isEmpty, !failsOnEmptyData { source = Data("null".utf8) }
        do {
            return try decoder.decode(D.self, from: source)
        } catch {
            throw MoyaError.objectMapping(error, self)
        }
    }
}

extension JSONValue {
    /// The value at a dotted key path such as `user.emails.0.address`; numbers index arrays.
    public func value(atKeyPath keyPath: String) -> JSONValue? {
        var current = self
        for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .object(let members):
                guard let next = members.last(where: { $0.key == component })?.value else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(component), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}
