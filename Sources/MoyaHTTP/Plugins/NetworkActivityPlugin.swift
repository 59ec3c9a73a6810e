/// Whether a request has started or finished.
public enum NetworkActivityChangeType: Sendable, Hashable {
    /// The request is about to be sent.
    case began
    /// The result arrived, whatever it was.
    case ended
}

/// Reports when requests begin and end.
public struct NetworkActivityPlugin: PluginType {
    /// Told of each change and its target.
    public let networkActivityClosure: @Sendable (NetworkActivityChangeType, any TargetType) -> Void

    /// Creates the plugin.
    public init(networkActivityClosure: @escaping @Sendable (NetworkActivityChangeType, any TargetType) -> Void) {
        self.networkActivityClosure = networkActivityClosure
    }

    public func willSend(_ request: Request, target: any TargetType) {
        networkActivityClosure(.began, target)
    }

    public func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        networkActivityClosure(.ended, target)
    }
}
