#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes parameters as a JSON body, as Alamofire's `JSONEncoding` does. Dictionary keys
/// are written sorted, so the same parameters always give the same bytes.
public struct JSONEncoding: ParameterEncoding, Hashable {
    /// Compact JSON.
    public static let `default` = JSONEncoding()
    /// Indented JSON.
    public static let prettyPrinted = JSONEncoding(prettyPrinted: true)

    /// Whether the body is indented.
    public var prettyPrinted: Bool

    /// Creates a JSON encoding.
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
    }

    public func encode(_ request: Request, with parameters: Parameters?) throws -> Request {
        guard let parameters else { return request }
        var request = request
        let json = try JSONValue(parameter: parameters)
        if !request.headers.contains("Content-Type") {
            request.headers.update(name: "Content-Type", value: "application/json")
        }
        request.httpBody = json.data(pretty: prettyPrinted)
        return request
    }
}
