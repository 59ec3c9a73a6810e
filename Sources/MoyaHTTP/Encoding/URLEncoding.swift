#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes parameters as `key=value` pairs, in the query or in a form body, byte for byte as
/// Alamofire's `URLEncoding` does.
public struct URLEncoding: ParameterEncoding, Hashable {
    /// Where the encoded pairs go.
    public enum Destination: Sendable, Hashable {
        /// The query for `GET`, `HEAD` and `DELETE`; the body for every other method.
        case methodDependent
        /// Always the query.
        case queryString
        /// Always the body.
        case httpBody

        /// Whether parameters go in the URL for `method`; else they are the body.
        public func encodesInURL(for method: Method) -> Bool {
            switch self {
            case .methodDependent: [.get, .head, .delete].contains(method)
            case .queryString: true
            case .httpBody: false
            }
        }
    }

    /// How an array's key is written.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `key[]=a&key[]=b`.
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`.
        case indexInBrackets

        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: "\(key)[]"
            case .noBrackets: key
            case .indexInBrackets: "\(key)[\(index)]"
            }
        }
    }

    /// How a boolean is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal

        func encode(_ value: Bool) -> String {
            switch self {
            case .numeric: value ? "1" : "0"
            case .literal: value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, brackets, numeric booleans.
    public static let `default` = URLEncoding()
    /// Always in the query.
    public static let queryString = URLEncoding(destination: .queryString)
    /// Always in a form body.
    public static let httpBody = URLEncoding(destination: .httpBody)

    /// Where the pairs go.
    public var destination: Destination
    /// How array keys are written.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written.
    public var boolEncoding: BoolEncoding
    /// The order of the top-level keys; nil sorts them, as Alamofire does. Keys not listed
    /// follow the listed ones, sorted.
    public var keyOrder: [String]?

    /// Creates a URL encoding.
    public init(
        destination: Destination = .methodDependent, arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric, keyOrder: [String]? = nil
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.keyOrder = keyOrder
    }

    public func encode(_ request: Request, with parameters: Parameters?) throws -> Request {
        guard let parameters else { return request }
        var request = request
        if destination.encodesInURL(for: request.method) {
            guard !parameters.isEmpty else { return request }
            request.url = try Self.appendingQuery(query(parameters), to: request.url)
        } else {
            if !request.headers.contains("Content-Type") {
                request.headers.update(
                    name: "Content-Type", value: "application/x-www-form-urlencoded; charset=utf-8")
            }
            request.httpBody = Data(query(parameters).utf8)
        }
        return request
    }

    /// The encoded `key=value` pairs joined with `&`.
    public func query(_ parameters: Parameters) -> String {
        var components: [(String, String)] = []
        for key in orderedKeys(parameters) {
            if let value = parameters[key] {
                components += queryComponents(fromKey: key, value: value)
            }
        }
        return components.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The pairs for one key, escaped; nested arrays and dictionaries expand into brackets.
    public func queryComponents(fromKey key: String, value: any Sendable) -> [(String, String)] {
        components(fromKey: key, value: value)
    }

    private func components(fromKey key: String, value: Any) -> [(String, String)] {
        switch value {
        case let json as JSONValue:
            return components(fromKey: key, json: json)
        case let dictionary as [String: Any]:
            return dictionary.keys.sorted().flatMap { nestedKey in
                components(fromKey: "\(key)[\(nestedKey)]", value: dictionary[nestedKey] ?? "")
            }
        case let array as [Any]:
            return array.enumerated().flatMap { index, element in
                components(fromKey: arrayEncoding.encode(key: key, atIndex: index), value: element)
            }
        case let bool as Bool:
            return [(Self.escape(key), Self.escape(boolEncoding.encode(bool)))]
        case let optional as any OptionalParameter:
            guard let wrapped = optional.wrappedParameter else { return [] }
            return components(fromKey: key, value: wrapped)
        case let string as String:
            return [(Self.escape(key), Self.escape(string))]
        case let double as Double:
            return [(Self.escape(key), Self.escape(JSONValue.format(double)))]
        default:
            return [(Self.escape(key), Self.escape("\(value)"))]
        }
    }

    /// A JSON value's pairs, as its parameter form's would be: `null` is left out, and an
    /// object's keys are sorted, as a dictionary's are.
    private func components(fromKey key: String, json: JSONValue) -> [(String, String)] {
        switch json {
        case .null: return []
        case .bool(let bool): return [(Self.escape(key), Self.escape(boolEncoding.encode(bool)))]
        case .integer(let int): return [(Self.escape(key), Self.escape(String(int)))]
        case .number(let double): return [(Self.escape(key), Self.escape(JSONValue.format(double)))]
        case .string(let string): return [(Self.escape(key), Self.escape(string))]
        case .array(let items):
            return items.enumerated().flatMap { index, element in
                components(fromKey: arrayEncoding.encode(key: key, atIndex: index), json: element)
            }
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { member in
                components(fromKey: "\(key)[\(member.key)]", json: member.value)
            }
        }
    }

    private func orderedKeys(_ parameters: Parameters) -> [String] {
        guard let keyOrder else { return parameters.keys.sorted() }
        let listed = keyOrder.filter { parameters[$0] != nil }
        let rest = parameters.keys.filter { !keyOrder.contains($0) }.sorted()
        return listed + rest
    }

    /// Percent-encodes `string` for a query: letters, digits and `-._~/?` stay, everything
    /// else becomes `%XX` of its UTF-8 bytes, with uppercase hex.
    public static func escape(_ string: String) -> String {
        PercentEncoding.encode(string) { byte in
            PercentEncoding.isUnreserved(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
        }
    }

    /// Appends an encoded query after any query the URL already has, before its fragment.
    public static func appendingQuery(_ query: String, to url: URL) throws -> URL {
        var string = url.absoluteString
        var fragment = ""
        if let hash = string.firstIndex(of: "#") {
            fragment = String(string[hash...])
            string = String(string[..<hash])
        }
        if let mark = string.firstIndex(of: "?") {
            let existing = string[string.index(after: mark)...]
            string += existing.isEmpty ? query : "&" + query
        } else {
            string += "?" + query
        }
        guard let result = URL(string: string + fragment) else {
            throw ParameterEncodingError("the URL \(string) could not be rebuilt with its query")
        }
        return result
    }
}
