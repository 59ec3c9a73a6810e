/// Sends a credential with the requests of the targets it gives one for.
public final class CredentialsPlugin: PluginType {
    /// Gives the credential for a target, or nil for none.
    public typealias CredentialClosure = (TargetType) -> URLCredential?

    let credentialsClosure: CredentialClosure

    /// Creates the plugin.
    public init(credentialsClosure: @escaping CredentialClosure) {
        self.credentialsClosure = credentialsClosure
    }

    public func willSend(_ request: RequestType, target: TargetType) {
        if let credentials = credentialsClosure(target) {
            _ = request.authenticate(with: credentials)
        }
    }
}
