import MoyaHTTP
import MoyaTransport

extension MoyaProvider {
    /// Sends `target` with `authenticator`'s credential, which an `AuthenticationPlugin` among
    /// the provider's plugins puts on the request. A response whose status is one of
    /// `refreshOn` refreshes the credential, at most once for all requests that failed with
    /// it, and the request is replayed once.
    nonisolated(nonsending) public func result(
        for target: Target, authenticatedBy authenticator: Authenticator, refreshOn statuses: Set<Int> = [401]
    ) async -> Result<Response, MoyaError> {
        await authenticator.perform(refreshOn: statuses) { credential in
            await Authenticator.$credential.withValue(credential) { await self.result(for: target) }
        }
    }
}
