/// Wraps any target, so that one provider can send targets of different types.
public enum MultiTarget: TargetType {
    /// The wrapped target.
    case target(TargetType)

    /// Wraps `target`.
    public init(_ target: TargetType) {
        self = .target(target)
    }

    public var path: String { target.path }
    public var baseURL: URL { target.baseURL }
    public var method: Moya.Method { target.method }
    public var sampleData: Data { target.sampleData }
    public var task: Task { target.task }
    public var validationType: ValidationType { target.validationType }
    public var headers: [String: String]? { target.headers }

    /// The wrapped target.
    public var target: TargetType {
        switch self {
        case .target(let target): target
        }
    }
}

extension MultiTarget: AccessTokenAuthorizable {
    /// The wrapped target's authorization type, if it has one.
    public var authorizationType: AuthorizationType? {
        (target as? AccessTokenAuthorizable)?.authorizationType
    }
}
