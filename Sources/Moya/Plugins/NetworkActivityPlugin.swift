/// Whether network activity began or ended.
public enum NetworkActivityChangeType {
    /// A request is about to be sent.
    case began
    /// Its result has arrived.
    case ended
}

/// Tells a closure when each request begins and ends.
public final class NetworkActivityPlugin: PluginType {
    /// Hears of each change.
    public typealias NetworkActivityClosure = (_ change: NetworkActivityChangeType, _ target: TargetType) -> Void

    let networkActivityClosure: NetworkActivityClosure

    /// Creates the plugin.
    public init(networkActivityClosure: @escaping NetworkActivityClosure) {
        self.networkActivityClosure = networkActivityClosure
    }

    public func willSend(_ request: RequestType, target: TargetType) {
        networkActivityClosure(.began, target)
    }

    public func didReceive(_ result: Result<Moya.Response, MoyaError>, target: TargetType) {
        networkActivityClosure(.ended, target)
    }
}
