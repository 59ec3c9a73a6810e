import MoyaHTTP

extension ValidationType {
    /// The validation as people read it: `successCodes (200-299)`, or the accepted codes.
    public var summary: String {
        switch self {
        case .none: "none"
        case .successCodes: "successCodes (200-299)"
        case .successAndRedirectCodes: "successAndRedirectCodes (200-399)"
        case .customCodes(let codes): codes.map(String.init).joined(separator: ", ")
        }
    }
}
