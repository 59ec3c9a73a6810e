/// Which status codes a response may have to count as a success.
public enum ValidationType: Sendable, Hashable {
    /// Any status code is accepted.
    case none
    /// 200 to 299.
    case successCodes
    /// 200 to 399.
    case successAndRedirectCodes
    /// Exactly the listed codes.
    case customCodes([Int])

    /// The accepted status codes; empty for `.none`, which accepts everything.
    public var statusCodes: [Int] {
        switch self {
        case .none: []
        case .successCodes: Array(200..<300)
        case .successAndRedirectCodes: Array(200..<400)
        case .customCodes(let codes): codes
        }
    }

    /// Whether a response with `statusCode` passes this validation.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: (200..<300).contains(statusCode)
        case .successAndRedirectCodes: (200..<400).contains(statusCode)
        case .customCodes(let codes): codes.contains(statusCode)
        }
    }
}
