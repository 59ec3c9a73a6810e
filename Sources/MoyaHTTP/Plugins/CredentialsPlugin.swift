#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends HTTP Basic credentials for the targets it has them for.
///
/// Moya's plugin answers an authentication challenge through URLSession. AsyncHTTPClient
/// has no challenge callback, so this sends the credentials up front instead, and never
/// replaces an `Authorization` header that is already set.
public struct CredentialsPlugin: PluginType {
    /// Gives the credentials for a target, or nil.
    public let credentialsClosure: @Sendable (any TargetType) -> Credentials?

    /// Creates the plugin.
    public init(credentialsClosure: @escaping @Sendable (any TargetType) -> Credentials?) {
        self.credentialsClosure = credentialsClosure
    }

    public func prepare(_ request: Request, target: any TargetType) -> Request {
        guard !request.headers.contains("Authorization"), let credentials = credentialsClosure(target) else {
            return request
        }
        var request = request
        let token = Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString()
        request.headers.update(name: "Authorization", value: "Basic \(token)")
        return request
    }
}
