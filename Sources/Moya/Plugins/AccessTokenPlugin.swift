import MoyaCore

/// A target that may need an `Authorization` header.
public protocol AccessTokenAuthorizable {
    /// The kind of authorization; nil sends none.
    var authorizationType: AuthorizationType? { get }
}

/// The scheme of an `Authorization` header: `.basic`, `.bearer` or `.custom(String)`.
public typealias AuthorizationType = MoyaCore.AuthorizationType

/// Adds `Authorization: <scheme> <token>` to the requests of targets that ask for it.
public struct AccessTokenPlugin: PluginType {
    /// Gives the token for a target.
    public typealias TokenClosure = (TargetType) -> String

    /// Gives the token for a target.
    public let tokenClosure: TokenClosure

    /// Creates the plugin.
    public init(tokenClosure: @escaping TokenClosure) {
        self.tokenClosure = tokenClosure
    }

    public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        guard let authorizable = target as? AccessTokenAuthorizable, let type = authorizable.authorizationType else {
            return request
        }
        var request = request
        let realTarget = (target as? MultiTarget)?.target ?? target
        request.addValue(type.value + " " + tokenClosure(realTarget), forHTTPHeaderField: "Authorization")
        return request
    }
}
