/// Hooks into every request a provider makes. Each does nothing unless a plugin implements it.
///
/// The provider calls `prepare` on every plugin in order, then `willSend` on every plugin,
/// then sends the request or answers it from the stub, then `didReceive` on every plugin,
/// and last `process`, each plugin's result feeding the next. When the request cannot be
/// built at all, only `process` runs.
public protocol PluginType: Sendable {
    /// Changes the request before it is sent.
    func prepare(_ request: Request, target: any TargetType) -> Request
    /// Sees the request just before it is sent.
    func willSend(_ request: Request, target: any TargetType)
    /// Sees the result as soon as it arrives.
    func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType)
    /// Changes the result before the caller gets it.
    func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError>
}

extension PluginType {
    public func prepare(_ request: Request, target: any TargetType) -> Request { request }
    public func willSend(_ request: Request, target: any TargetType) {}
    public func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {}
    public func process(_ result: Result<Response, MoyaError>, target: any TargetType) -> Result<Response, MoyaError> {
        result
    }
}
